/**
 * The source data page's Table select, rendered on the server as a page without JavaScript gets it.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { pageSizeChoice } from "~/test/page-size-form";
import type { TableRows } from "../../../../../contracts/loads";
import SourceData from "./source-data";

const here = "/migration/projects/p1/data-dictionary/source-data";

type Columns = TableRows["columns"];

function render(
  tables: { search: string; names: string[]; matching: number },
  table: string,
  paging = { page: 1, pageSize: 25, total: 1 },
  columns: Columns = [{ name: "Id", type: "integer", defined: { type: "int", length: null, precision: null, scale: null } }],
  database: "source" | "destination" = "source",
  found: { items?: string[][]; filter?: { column?: string; contains?: string }; missingColumn?: string } = {},
): string {
  const loaderData = {
    projectId: "p1",
    database,
    created: true,
    tables,
    table,
    rows: { columns, items: found.items ?? [columns.map(() => "1")], ...paging, sort: columns[0]!.name, column: found.filter?.column ?? null },
    filter: found.filter ?? {},
    missingColumn: found.missingColumn ?? null,
  };
  const props = { loaderData, params: { projectId: "p1" }, matches: [] } as unknown as Parameters<typeof SourceData>[0];
  const Stub = createRoutesStub([{ path: here, Component: () => <SourceData {...props} /> }]);
  return renderToStaticMarkup(<Stub initialEntries={[`${here}?name=orders5&table=Customers`]} />);
}

/** The Table select's options, in order, and the one selected. */
function tableSelect(html: string) {
  const select = /<select id="source-table"[^>]*>(.*?)<\/select>/s.exec(html)?.[1] ?? "";
  return {
    options: [...select.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]),
    selected: /<option value="([^"]*)" selected=""/.exec(select)?.[1],
  };
}

describe("the source data page's Table select", () => {
  it("keeps offering the table shown, first, when the search does not list it", () => {
    const html = render({ search: "orders5", names: ["Orders50", "Orders51"], matching: 2 }, "Customers");
    expect(tableSelect(html)).toEqual({ options: ["Customers", "Orders50", "Orders51"], selected: "Customers" });
  });

  it("offers the tables the search found as they are when it lists the table shown", () => {
    const html = render({ search: "orders5", names: ["Orders50", "Orders51"], matching: 2 }, "Orders51");
    expect(tableSelect(html)).toEqual({ options: ["Orders50", "Orders51"], selected: "Orders51" });
  });
});

describe("the source data page's rows", () => {
  it("choose their page size in the Find rows form, and their page links keep it", () => {
    const html = render({ search: "", names: ["Customers"], matching: 1 }, "Customers", { page: 2, pageSize: 10, total: 11 });
    const choice = pageSizeChoice(html, "Find rows", "source-page-size");
    expect(choice).toMatchObject({ labelled: true, sizes: ["10*", "25", "50", "100"] });
    expect(choice.sent.map(([name]) => name)).toEqual(["database", "table", "column", "contains", "pageSize"]);
    const previous = /<a [^>]*rel="prev"[^>]*href="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
    expect(Object.fromEntries(new URL(previous!, "http://portal").searchParams)).toEqual({ table: "Customers", sort: "Id", pageSize: "10", page: "1" });
  });
});

describe("the source data page's column headers", () => {
  it("name each column's type as the dictionary defines it, and PostgreSQL's only for a column the dictionary lacks", () => {
    const sizes = { length: null, precision: null, scale: null };
    const columns: Columns = [
      { name: "Code", type: "character varying(50)", defined: { ...sizes, type: "nvarchar", length: 50 } },
      { name: "Balance", type: "numeric(10,2)", defined: { ...sizes, type: "decimal", precision: 10, scale: 2 } },
      { name: "Since", type: "timestamp without time zone", defined: { ...sizes, type: "datetime" } },
      { name: "Id", type: "uuid", defined: { ...sizes, type: "uniqueidentifier" } },
      { name: "Note", type: "text", defined: null },
    ];
    const html = render({ search: "", names: ["Customers"], matching: 1 }, "Customers", undefined, columns);
    const textOf = (cell: string) =>
      cell
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .trim();
    expect([...html.matchAll(/<th[^>]*>(.*?)<\/th>/gs)].map((m) => textOf(m[1]!))).toEqual([
      "Code nvarchar(50)",
      "Balance decimal(10, 2)",
      "Since datetime",
      "Id uniqueidentifier",
      "Note text",
    ]);
  });
});

describe("the data page of the destination database", () => {
  it("is headed Destination data, chooses it in the Database select, and keeps it in its searches and page links", () => {
    const html = render({ search: "", names: ["Customers"], matching: 1 }, "Customers", { page: 2, pageSize: 10, total: 11 }, undefined, "destination");
    expect(/<h2[^>]*>(.*?)<\/h2>/.exec(html)?.[1]).toBe("Destination data");
    expect(/<select id="source-database"[^>]*>.*?<option value="destination" selected=""/s.test(html)).toBe(true);
    const findTable = /<form[^>]*aria-label="Find a table"[^>]*>(.*?)<\/form>/s.exec(html)?.[1] ?? "";
    expect(findTable).toContain('<input type="hidden" name="database" value="destination"/>');
    expect(findTable).toContain("The Table list offers the 1 table.");
    const previous = /<a [^>]*rel="prev"[^>]*href="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
    expect(new URL(previous!, "http://portal").searchParams.get("database")).toBe("destination");
  });

  it("leaves the source, the default, out of its searches and links", () => {
    const html = render({ search: "", names: ["Customers"], matching: 1 }, "Customers", { page: 2, pageSize: 10, total: 11 });
    expect(/<h2[^>]*>(.*?)<\/h2>/.exec(html)?.[1]).toBe("Source data");
    expect(html).not.toContain('name="database" value="source"/>');
    const previous = /<a [^>]*rel="prev"[^>]*href="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
    expect(new URL(previous!, "http://portal").searchParams.has("database")).toBe(false);
  });
});

describe("the source data page without a row to show", () => {
  // The page's last status: the first is the Find tables form's count of tables.
  const status = (html: string) => [...html.matchAll(/<p role="status"[^>]*>(.*?)<\/p>/gs)].at(-1)?.[1]?.replace(/<[^>]+>/g, "");
  const none = (paging: { page: number; pageSize: number; total: number }, filter = {}, database: "source" | "destination" = "source") =>
    render({ search: "", names: ["Customers"], matching: 1 }, "Customers", paging, undefined, database, { items: [], filter });

  it("says that no row contains what the filter asks, where it asks", () => {
    expect(status(none({ page: 1, pageSize: 25, total: 0 }, { column: "Name", contains: "zzz" }))).toBe(
      "No row of Customers contains “zzz” in Name. Change or clear the filter.",
    );
    expect(status(none({ page: 1, pageSize: 25, total: 0 }, { contains: "zzz" }))).toBe("No row of Customers contains “zzz”. Change or clear the filter.");
  });

  it("says that the table has no column the filter kept, and that its text was searched in any column, which the Column select shows", () => {
    const html = none({ page: 1, pageSize: 25, total: 0 }, { contains: "zzz" });
    const kept = render({ search: "", names: ["Customers"], matching: 1 }, "Customers", undefined, undefined, "source", {
      filter: { contains: "1" },
      missingColumn: "OrderDate",
    });
    expect(kept).toContain('<p role="status" class="mt-4 text-sm">Customers has no column OrderDate: the rows shown contain “1” in any column.</p>');
    expect(/<select id="source-column"[^>]*>.*?<option value="" selected=""/s.test(kept)).toBe(true);
    expect(html).not.toContain("has no column");
  });

  it("lets the Contains search hold no more than the data API takes", () => {
    expect(/<input id="source-contains"[^>]*maxLength="200"/.test(none({ page: 1, pageSize: 25, total: 0 }))).toBe(true);
  });

  it("says that the table is empty, in the database shown", () => {
    expect(status(none({ page: 1, pageSize: 25, total: 0 }))).toBe("Customers has no rows in the source database.");
    expect(status(none({ page: 1, pageSize: 25, total: 0 }, {}, "destination"))).toBe("Customers has no rows in the destination database.");
  });

  it("says that a page past the end has nothing, as the other lists do", () => {
    expect(status(none({ page: 99, pageSize: 25, total: 62 }))).toBe("There is nothing on page 99. Go back with Previous.");
  });
});
