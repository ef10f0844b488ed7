import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createProjectDatabase, projectDatabasePath } from "./project-databases.ts";
import type { DdlColumn, DdlTable } from "./sqlite-ddl.ts";

const col = (name: string, type: DdlColumn["type"], extra: Partial<DdlColumn> = {}): DdlColumn => ({
  name,
  type,
  length: null,
  precision: null,
  scale: null,
  nullable: true,
  isKey: false,
  ...extra,
});

const everyType: DdlTable = {
  name: "Everything",
  columns: [
    col("Id", "int", { isKey: true, nullable: false }),
    col("Big", "bigint"),
    col("Amount", "decimal", { precision: 5, scale: 2 }),
    col("Ratio", "float"),
    col("Born", "date"),
    col("At", "time"),
    col("Stamp", "datetime"),
    col("Uid", "uniqueidentifier"),
    col("Name", "nvarchar", { length: 5, nullable: false }),
  ],
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-ddl-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function freshDatabase(tables: DdlTable[]) {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.sqlite`);
  createProjectDatabase(file, tables);
  return new Database(file);
}

const valid = { Id: 1, Big: 2 ** 40, Amount: 123.45, Ratio: 0.5, Born: "2024-02-29", At: "13:45:00", Stamp: "2024-01-31 23:59:59", Uid: "0f8fad5b-d9cb-469f-a165-70867728950e", Name: "Ann" };

describe("project databases", () => {
  it("creates one table per dictionary table with typed, constrained columns", () => {
    const db = freshDatabase([everyType, { name: "Other", columns: [col("Code", "nvarchar", { length: 10, isKey: true, nullable: false }), col("Seq", "int", { isKey: true, nullable: false })] }]);
    try {
      const tables = db.prepare("select name from sqlite_master where type = 'table' order by name").pluck().all();
      expect(tables).toEqual(["Everything", "Other"]);
      const info = db.prepare(`pragma table_info("Everything")`).all() as { name: string; type: string; notnull: number; pk: number }[];
      expect(info.map((c) => [c.name, c.type, c.notnull, c.pk])).toEqual([
        ["Id", "INTEGER", 1, 1],
        ["Big", "INTEGER", 0, 0],
        ["Amount", "NUMERIC(5,2)", 0, 0],
        ["Ratio", "REAL", 0, 0],
        ["Born", "TEXT", 0, 0],
        ["At", "TEXT", 0, 0],
        ["Stamp", "TEXT", 0, 0],
        ["Uid", "TEXT", 0, 0],
        ["Name", "TEXT", 1, 0],
      ]);
      const other = db.prepare(`pragma table_info("Other")`).all() as { name: string; pk: number }[];
      expect(other.map((c) => [c.name, c.pk])).toEqual([["Code", 1], ["Seq", 2]]);
    } finally {
      db.close();
    }
  });

  it("accepts valid rows and nulls in nullable columns", () => {
    const db = freshDatabase([everyType]);
    try {
      const insert = db.prepare(`insert into "Everything" values (@Id, @Big, @Amount, @Ratio, @Born, @At, @Stamp, @Uid, @Name)`);
      insert.run(valid);
      insert.run({ ...valid, Id: 2, At: "08:00:00.1234567", Stamp: "2024-01-31T10:00:00" });
      insert.run({ Id: 3, Big: null, Amount: null, Ratio: null, Born: null, At: null, Stamp: null, Uid: null, Name: "" });
      expect(db.prepare(`select count(*) from "Everything"`).pluck().get()).toBe(3);
    } finally {
      db.close();
    }
  });

  it.each([
    ["a too-long nvarchar", { Name: "Longer" }],
    ["a null in a non-nullable column", { Name: null }],
    ["a text in an int", { Id: "abc" }],
    ["an int out of range", { Id: 2 ** 31 }],
    ["a fraction in a bigint", { Big: 1.5 }],
    ["a decimal with too many integer digits", { Amount: 1000 }],
    ["a text in a float", { Ratio: "half" }],
    ["an impossible date", { Born: "2023-02-30" }],
    ["a date in another format", { Born: "31/01/2024" }],
    ["an impossible time", { At: "25:00:00" }],
    ["a time with garbage after it", { At: "10:00:00xyz" }],
    ["a datetime that is not one", { Stamp: "yesterday" }],
    ["a malformed uniqueidentifier", { Uid: "not-a-guid" }],
  ])("refuses %s", (_what, change) => {
    const db = freshDatabase([everyType]);
    try {
      const insert = db.prepare(`insert into "Everything" values (@Id, @Big, @Amount, @Ratio, @Born, @At, @Stamp, @Uid, @Name)`);
      expect(() => insert.run({ ...valid, ...change })).toThrow(/constraint failed|datatype mismatch/i);
    } finally {
      db.close();
    }
  });

  it("quotes identifiers, so reserved words are table and column names like any other", () => {
    const db = freshDatabase([{ name: "order", columns: [col("select", "int"), col("from", "nvarchar", { length: 3 })] }]);
    try {
      db.prepare(`insert into "order" ("select", "from") values (1, 'abc')`).run();
      expect(db.prepare(`select "from" from "order"`).pluck().get()).toBe("abc");
    } finally {
      db.close();
    }
  });

  it("leaves nothing under the real name when the creation fails, and keeps a previous database", () => {
    const file = projectDatabasePath(dir, "p-1", "source");
    createProjectDatabase(file, [everyType]);
    // The same table twice: the second CREATE TABLE fails after the first succeeded.
    expect(() => createProjectDatabase(file, [{ name: "T", columns: [col("A", "int")] }, { name: "T", columns: [col("A", "int")] }])).toThrow(/already exists/);
    expect(fs.readdirSync(path.dirname(file))).toEqual(["source.sqlite"]);
    const db = new Database(file, { readonly: true });
    expect(db.prepare("select name from sqlite_master where type = 'table'").pluck().all()).toEqual(["Everything"]);
    db.close();
  });

  it("refuses a project id that could leave the data folder", () => {
    expect(() => projectDatabasePath(dir, "../etc", "source")).toThrow(/Unsafe/);
  });
});
