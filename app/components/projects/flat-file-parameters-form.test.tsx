/**
 * The load page's "Change how files are read" pages the tables whose Fixed Length widths it edits: at
 * 10, 25, 50 or 100 a page, chosen in a GET form of its own (outside the POST form of the widths),
 * which keeps the page's other parameters, and whose size the Previous and Next links keep.
 */
import { describe, expect, it } from "vitest";
import type { ColumnWidthsResponse } from "../../../contracts/projects";
import { DEFAULT_FLAT_FILE_PARAMETERS } from "../../../contracts/values/flat-files";
import { pageSizeChoice, previousHref } from "~/test/page-size-form";
import { renderPage } from "~/test/render-page";
import { FlatFileParametersForm } from "./flat-file-parameters-form";

const load = "/migration/projects/p1/databases/flat-file/update-source";

/** The form at page 2 of `total` tables, `pageSize` a page, under the table search "ord" with Orders01 chosen. */
function render(total: number, pageSize: number) {
  const url = `${load}?companyId=c1&name=ord&table=Orders01&widthsPage=2&widthsPageSize=${pageSize}`;
  const items = Array.from({ length: Math.min(pageSize, total - pageSize) }, (_, i) => ({ name: `Orders${i}`, columns: ["Id"], defaultWidths: [10] }));
  const widths: ColumnWidthsResponse = { items, total, page: 2, pageSize };
  const Page = () => (
    <FlatFileParametersForm
      rows={[]}
      parameters={{ ...DEFAULT_FLAT_FILE_PARAMETERS, delimiter: "FixedLength" }}
      version={3}
      widths={widths}
      search="ord"
      open
    />
  );
  return renderPage(load, url, Page, {});
}

describe("the column widths' page size", () => {
  it("is offered in its own GET form, which keeps the table search, the table chosen and the company, and goes back to the first page", () => {
    const html = render(13, 10);
    expect(pageSizeChoice(html, "Column widths page size", "widths-page-size")).toEqual({
      labelled: true,
      sizes: ["10*", "25", "50", "100"],
      sent: [
        ["companyId", "c1"],
        ["name", "ord"],
        ["table", "Orders01"],
        ["widthsPageSize", "(chosen)"],
      ],
    });
    // Not inside the POST form of the widths (forms do not nest).
    expect(html).toMatch(/<\/form><form [^>]*aria-label="Column widths page size"/);
    expect(previousHref(html)).toBe(`${load}?companyId=c1&name=ord&table=Orders01`);
  });

  it("is kept by Previous and Next when not the default 10", () => {
    const html = render(30, 25);
    expect(pageSizeChoice(html, "Column widths page size", "widths-page-size").sizes).toEqual(["10", "25*", "50", "100"]);
    expect(previousHref(html)).toBe(`${load}?companyId=c1&name=ord&table=Orders01&widthsPageSize=25`);
  });

  it("is not offered for 10 tables or fewer, which fit one page", () => {
    expect(render(10, 10)).not.toContain('aria-label="Column widths page size"');
  });
});
