import { describe, expect, it } from "vitest";
import type { Column, ColumnInput, Table } from "../../../../contracts/dictionary.ts";
import { desiredTables, diffTables, reviewChangesSomething } from "./diff.ts";

const col = (name: string, patch: Partial<ColumnInput> = {}): ColumnInput => ({
  name,
  type: "int",
  length: null,
  precision: null,
  scale: null,
  nullable: true,
  isKey: false,
  description: null,
  ...patch,
});

const table = (name: string, columns: ColumnInput[]): Table => ({
  id: `t-${name}`,
  name,
  description: null,
  order: 1,
  columns: columns.map((c, i): Column => ({ ...c, id: `c-${c.name}`, order: i + 1 })),
});

describe("diffTables", () => {
  const current = [table("Customers", [col("Id", { nullable: false, isKey: true }), col("Name", { type: "nvarchar", length: 100 }), col("Age")]), table("Orders", [col("Id")])];

  it("lists a new table as added with all its columns", () => {
    const [products] = diffTables([{ name: "Products", columns: [col("Id"), col("Title", { type: "nvarchar", length: 50 })] }], current);
    expect(products).toEqual({
      name: "Products",
      status: "added",
      added: [
        { name: "Id", before: null, after: expect.objectContaining({ name: "Id", type: "int" }), fields: [] },
        { name: "Title", before: null, after: expect.objectContaining({ type: "nvarchar", length: 50 }), fields: [] },
      ],
      changed: [],
      removed: [],
      unchanged: 0,
    });
  });

  it("lists columns added, changed (with the fields that differ) and removed, matching names in any case", () => {
    const [customers] = diffTables(
      [{ name: "customers", columns: [col("ID", { nullable: false, isKey: true }), col("Name", { type: "nvarchar", length: 200, description: "Full name" }), col("Email", { type: "nvarchar", length: 320 })] }],
      current,
    );
    expect(customers!.name).toBe("Customers");
    expect(customers!.status).toBe("changed");
    expect(customers!.added.map((c) => c.name)).toEqual(["Email"]);
    expect(customers!.changed.map((c) => [c.name, c.fields])).toEqual([
      ["ID", ["name"]],
      ["Name", ["length", "description"]],
    ]);
    expect(customers!.changed[1]).toMatchObject({ before: { length: 100, description: null }, after: { length: 200, description: "Full name" } });
    expect(customers!.removed).toEqual([{ name: "Age", before: expect.objectContaining({ name: "Age" }), after: null, fields: [] }]);
    expect(customers!.unchanged).toBe(0);
  });

  it("calls a table with the same columns unchanged and leaves tables the file does not name out", () => {
    const review = diffTables([{ name: "Orders", columns: [col("Id")] }], current);
    expect(review).toEqual([{ name: "Orders", status: "unchanged", added: [], changed: [], removed: [], unchanged: 1 }]);
    expect(reviewChangesSomething(review)).toBe(false);
  });

  it("flags a moved column by its order, but not the shift an added or removed column causes", () => {
    const moved = diffTables([{ name: "Customers", columns: [col("Name", { type: "nvarchar", length: 100 }), col("Id", { nullable: false, isKey: true }), col("Age")] }], current)[0]!;
    expect(moved.changed.map((c) => [c.name, c.fields])).toEqual([
      ["Name", ["order"]],
      ["Id", ["order"]],
    ]);
    const inserted = diffTables([{ name: "Customers", columns: [col("New"), col("Id", { nullable: false, isKey: true }), col("Name", { type: "nvarchar", length: 100 }), col("Age")] }], current)[0]!;
    expect(inserted.changed).toEqual([]);
    expect(inserted.unchanged).toBe(3);
  });
});

describe("desiredTables", () => {
  const current = [table("Customers", [col("Id", { nullable: false, isKey: true }), col("Name", { type: "nvarchar", length: 100 }), col("Age")])];
  const file = [
    { name: "customers", columns: [col("Email", { type: "nvarchar", length: 320 }), col("Name", { type: "nvarchar", length: 200 })] },
    { name: "Products", columns: [col("Id")] },
  ];

  it("replace: the file's tables as they are, so the columns it leaves out are removed", () => {
    expect(desiredTables(file, current, "replace")).toEqual(file);
    expect(diffTables(desiredTables(file, current, "replace"), current)[0]!.removed.map((c) => c.name)).toEqual(["Id", "Age"]);
  });

  it("merge: keeps the columns the file leaves out where they are, changes the listed ones and adds new ones after them", () => {
    const merged = desiredTables(file, current, "merge");
    expect(merged.map((t) => [t.name, t.columns.map((c) => c.name)])).toEqual([
      ["customers", ["Id", "Name", "Age", "Email"]],
      ["Products", ["Id"]],
    ]);
    const [customers, products] = diffTables(merged, current);
    expect(customers).toMatchObject({ status: "changed", removed: [], unchanged: 2 });
    expect(customers!.added.map((c) => c.name)).toEqual(["Email"]);
    expect(customers!.changed.map((c) => [c.name, c.fields])).toEqual([["Name", ["length"]]]);
    expect(products!.status).toBe("added");
  });

  it("merge: a file that only repeats some columns unchanged changes nothing", () => {
    const merged = desiredTables([{ name: "Customers", columns: [col("Age")] }], current, "merge");
    const review = diffTables(merged, current);
    expect(review).toEqual([{ name: "Customers", status: "unchanged", added: [], changed: [], removed: [], unchanged: 3 }]);
    expect(reviewChangesSomething(review)).toBe(false);
  });
});
