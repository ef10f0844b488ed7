/**
 * A file's preview says which of its first rows the load would reject and why, before "Load" (with
 * "Load nothing", the default) finds them and leaves every table as it was.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { PreviewFile } from "../../../contracts/loads";
import { FilePreview } from "./file-preview";

const file = (rows: PreviewFile["rows"]): PreviewFile => ({
  name: "Employees.csv",
  bytes: 100,
  table: "Employees",
  encoding: "UTF-8",
  delimiter: "Comma",
  header: ["EmployeeId", "HireDate"],
  rows,
  columns: [
    { file: "EmployeeId", table: "EmployeeId" },
    { file: "HireDate", table: "HireDate" },
  ],
  missingColumns: [],
  extraColumns: [],
  problem: null,
});

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
const rowsOf = (html: string) => [...html.matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)].map((m) => textOf(m[1]!));

describe("a file's preview", () => {
  it("says how many of its rows would be rejected, and of each why, in a last column", () => {
    const html = renderToStaticMarkup(
      <FilePreview
        file={file([
          { line: 2, cells: ["1", "2019-03-01"] },
          { line: 3, cells: ["3", "2021-13-40"], rejected: { column: "HireDate", value: "2021-13-40", reason: "not a date (yyyy-mm-dd)" } },
          { line: 4, cells: ["4"], rejected: { column: null, value: null, reason: "1 value where the header has 2" } },
        ])}
      />,
    );
    expect(textOf(html)).toContain("2 of these rows would be rejected: the last column says why.");
    expect(rowsOf(html)).toEqual([
      "Row EmployeeId into EmployeeId HireDate into HireDate Would be rejected",
      "2 1 2019-03-01",
      "3 3 2021-13-40 HireDate: not a date (yyyy-mm-dd)",
      "4 4 1 value where the header has 2",
    ]);
  });

  it("adds nothing when every row fits", () => {
    const html = renderToStaticMarkup(<FilePreview file={file([{ line: 2, cells: ["1", "2019-03-01"] }])} />);
    expect(html).not.toContain("would be rejected");
    expect(rowsOf(html)[0]).toBe("Row EmployeeId into EmployeeId HireDate into HireDate");
  });
});
