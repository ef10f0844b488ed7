/**
 * A destination table says nothing of loads: runs fill it, and loads only ever fill the source, so its
 * "Last loaded: Never" after runs had filled it was false. A source table keeps when it was last loaded.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TablesTable } from "./tables-table";

const customers = { name: "Customers", columnCount: 2, rowCount: 1950, rowCountEstimated: false, bytes: 16384, lastChangedAt: null };

const cells = (html: string) => [...html.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((m) => m[1]!.replace(/<[^>]*>/g, ""));

describe("a database's tables", () => {
  it("say when a source table was last loaded, or Never", () => {
    const html = renderToStaticMarkup(<TablesTable label="Source tables" database="source" tables={[customers]} />);
    expect(cells(html)).toEqual(["Table", "Columns", "Rows", "Size", "Last loaded", "Customers", "2", "1,950", "16.0 KB", "Never"]);
  });

  it("say nothing of loads for a destination table, which runs fill", () => {
    const html = renderToStaticMarkup(<TablesTable label="Destination tables" database="destination" tables={[customers]} />);
    expect(cells(html)).toEqual(["Table", "Columns", "Rows", "Size", "Customers", "2", "1,950", "16.0 KB"]);
    expect(html).not.toContain("Never");
  });
});
