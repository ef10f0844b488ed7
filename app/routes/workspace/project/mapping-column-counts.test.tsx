/**
 * A column's value map and its import's preview write their counts as the other pages do, with thousands
 * separators: a map of 1,950 values read "1950 to add" and "1950 of 1950 values mapped".
 */
import { describe, expect, it } from "vitest";
import { renderPage } from "~/test/render-page";
import MappingColumnPage from "./mapping-column";
import MappingTablePage from "./mapping-table";

const column = {
  id: "c1",
  name: "grade",
  type: "nvarchar",
  length: 10,
  precision: null,
  scale: null,
  translate: true,
  unmappedRule: "Keep",
  defaultValue: null,
  distinctCount: 1950,
  mappedCount: 1950,
  version: 1,
};

const text = (html: string) => html.replace(/<[^>]*>/g, "").replace(/\s+/g, " ");

describe("a column's value map", () => {
  it("writes its counts and its import's with thousands separators", () => {
    const here = "/translations/mappings/m1/file-data-structure/mappingTable/t1/column/c1";
    const html = renderPage(here, `${here}?import=i1`, MappingColumnPage, {
      projectId: "m1",
      companyId: null,
      tableId: "t1",
      page: {
        items: [{ sourceValue: "G1", targetValue: "P1", count: 12345 }],
        page: 1,
        pageSize: 50,
        total: 1950,
        column,
        tableId: "t1",
        tableName: "employees",
      },
      query: { page: 1, pageSize: 50, unmapped: false },
      preview: { id: "i1", fileName: "grades.csv", rowCount: 1950, adds: 1950, changes: 0, unchanged: 0, sampleAdds: [], sampleChanges: [], baseVersion: 1 },
      canWrite: true,
    });
    expect(text(html)).toContain("1,950 of 1,950 values mapped.");
    expect(text(html)).toContain("1,950 to add, 0 to change, 0 left as they are (1,950 in the file).");
    expect(text(html)).toContain("12,345");
  });
});

describe("a table's value maps", () => {
  it("link each column's map with its counts written with thousands separators", () => {
    const here = "/translations/mappings/m1/file-data-structure/mappingTable/t1";
    const html = renderPage(here, here, MappingTablePage, { projectId: "m1", table: { id: "t1", name: "employees", columns: [column] }, canWrite: false });
    expect(text(html)).toContain("1,950 of 1,950 mapped (map of grade)");
  });
});
