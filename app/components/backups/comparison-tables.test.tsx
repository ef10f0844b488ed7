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
  samples: { added: [], removed: [], changed: changes.map((change, i) => ({ key: [String(i + 1)], changes: [change] })) },
});

/** The changed rows' Earlier and Current cells, as the page's text reads them (tags dropped). */
function changedCells(...changes: Change[]): [string, string][] {
  const html = renderToStaticMarkup(<ComparisonTables tables={[comparison(changes)]} />);
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
    const html = renderToStaticMarkup(<ComparisonTables tables={[comparison([name(" Ann", "Ann")])]} />);
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
