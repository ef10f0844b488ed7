/**
 * A comparison's changed rows show a change of whitespace alone: a table cell collapses runs of
 * whitespace and drops them at its ends, so " Ann " → "Ann" read "Ann | Ann" and the user could not
 * see what had changed.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { TableComparisonResult } from "../../../contracts/backups";
import { ComparisonTables } from "./comparison-tables";

type Change = { column: string; earlier: string | null; current: string | null };

const comparison = (changes: Change[]): TableComparisonResult => ({
  table: "Customers",
  key: ["Id"],
  columns: ["Id", "Name"],
  earlierRows: changes.length,
  currentRows: changes.length,
  added: 0,
  removed: 0,
  changed: changes.length,
  changedColumns: [{ column: "Name", rows: changes.length }],
  columnChanges: [],
  samples: { added: [], removed: [], changed: changes.map((change, i) => ({ key: [String(i + 1)], changes: [change] })) },
});

/** The page of one table, under the summary its comparison has then (one table, which differs). */
const render = (table: TableComparisonResult) =>
  renderToStaticMarkup(
    <ComparisonTables summary={{ tables: 1, differing: 1, added: table.added, removed: table.removed, changed: table.changed }} tables={[table]} />,
  );

/** The changed rows' Earlier and Current cells, as the page's text reads them (tags dropped). */
function changedCells(...changes: Change[]): [string, string][] {
  const html = render(comparison(changes));
  const table = html.slice(html.indexOf('aria-label="Rows changed in Customers"'));
  const rows = [...table.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].slice(1);
  return rows.map((row) => {
    const cells = [...row[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, ""));
    return [cells[2]!, cells[3]!];
  });
}

const name = (earlier: string | null, current: string | null): Change => ({ column: "Name", earlier, current });

describe("a comparison's changed rows", () => {
  it("mark the spaces, tabs and newlines of values that differ only there, on both sides, and say so", () => {
    expect(changedCells(name(" Ann ", "Ann"), name("Ann  Lee", "Ann Lee"), name("Ann\tLee", "Ann Lee"), name("Ann\n", "Ann"))).toEqual([
      ["·Ann· (only spaces, tabs or line breaks differ)", "Ann (only spaces, tabs or line breaks differ)"],
      ["Ann··Lee (only spaces, tabs or line breaks differ)", "Ann·Lee (only spaces, tabs or line breaks differ)"],
      ["Ann→Lee (only spaces, tabs or line breaks differ)", "Ann·Lee (only spaces, tabs or line breaks differ)"],
      ["Ann↵ (only spaces, tabs or line breaks differ)", "Ann (only spaces, tabs or line breaks differ)"],
    ]);
  });

  it("explain the marks to a pointer too", () => {
    const html = render(comparison([name(" Ann", "Ann")]));
    expect(html).toContain('title="Only spaces, tabs or line breaks differ: · is a space, → a tab, ↵ a line break"');
  });

  it("show values that differ visibly as they are", () => {
    expect(changedCells(name("Ann Lee", "Anne Lee"), name(" Ann", "Bob "))).toEqual([
      ["Ann Lee", "Anne Lee"],
      [" Ann", "Bob "],
    ]);
  });

  it("keep NULL and the empty string apart, and mark a value of spaces against the empty string", () => {
    expect(changedCells(name(null, ""), name("", " "), name(null, " "))).toEqual([
      ["NULL", "(empty)"],
      ["(empty)", "· (only spaces, tabs or line breaks differ)"],
      ["NULL", " "],
    ]);
  });
});

describe("a comparison of data whose columns changed between the two", () => {
  it("counts the table as differing and names the columns removed, added and retyped, though no row differs", () => {
    const reshaped: TableComparisonResult = {
      ...comparison([]),
      changedColumns: [],
      columnChanges: [
        { column: "Phone", earlier: "nvarchar(20)", current: null },
        { column: "PhoneNumber", earlier: null, current: "nvarchar(50)" },
        { column: "Since", earlier: "nvarchar(20)", current: "date" },
      ],
    };
    const html = render(reshaped);
    const text = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(text).toContain("1 of 1 tables differ.");
    expect(text).toContain("Phone removed (was nvarchar(20)), PhoneNumber added (nvarchar(50)), Since nvarchar(20) → date");
    const list = html.slice(html.indexOf('aria-label="Columns of Customers added, removed or retyped"'));
    expect([...list.matchAll(/<li>(.*?)<\/li>/g)].map((m) => m[1])).toEqual([
      "Phone removed (was nvarchar(20))",
      "PhoneNumber added (nvarchar(50))",
      "Since nvarchar(20) → date",
    ]);
  });
});
