/**
 * A translation's report says what to do about the values that had no mapping (read the file as a
 * sample on its table's value maps, give them targets, translate again) with a link there, and says
 * when it lists only some of the values or rows.
 */
import { describe, expect, it } from "vitest";
import type { TranslationDetail } from "../../../../contracts/mappings";
import { translationOf } from "~/test/fixtures";
import { renderPage } from "~/test/render-page";
import TranslationPage from "./translation";

const page = "/translations/mappings/p1/translate/tr1";
const report: NonNullable<TranslationDetail["report"]> = {
  columns: [
    {
      name: "grade",
      rule: "Keep",
      unmappedCells: 4,
      unmappedDistinct: 3,
      unmappedValues: [
        { value: "G5", count: 2 },
        { value: "G6", count: 1 },
      ],
    },
    { name: "department", rule: "Reject", unmappedCells: 5, unmappedDistinct: 1, unmappedValues: [{ value: "OPS", count: 5 }] },
  ],
  rejected: [{ row: 4, column: "department", value: "OPS" }],
};
const translation = translationOf({
  fileName: "payroll.csv",
  rowsRead: 30,
  rowsWritten: 25,
  rowsRejected: 5,
  report,
});
const render = (t: TranslationDetail) => renderPage(page, `${page}?companyId=c1`, TranslationPage, { projectId: "p1", translation: t, readAt: 0 });
const text = (html: string) => html.replace(/<[^>]+>/g, "");

describe("a translation's report", () => {
  it("links the values without a mapping to its table's value maps, where the file read as a sample adds them", () => {
    const html = render(translation);
    expect(text(html)).toContain(
      "To map them, read payroll.csv as a sample file on the value maps of employees: its values join the maps, unmapped. Give them their targets there, then translate the file again.",
    );
    expect(html).toContain('href="/translations/mappings/p1/file-data-structure/mappingTable/t1?companyId=c1"');
    // The table no longer has that name: the way is said, without a link.
    const gone = render({ ...translation, tableId: null });
    expect(text(gone)).toContain("To map them, read payroll.csv as a sample file on the value maps of employees:");
    expect(gone).not.toContain("/mappingTable/");
    // Every value had a mapping: nothing to do.
    const mapped = {
      ...report,
      columns: report.columns.map((c) => ({ ...c, unmappedCells: 0, unmappedDistinct: 0, unmappedValues: [] })),
    };
    expect(text(render({ ...translation, report: mapped }))).not.toContain("To map them");
  });

  it("says when it lists only the most frequent values and the first rows rejected", () => {
    const shown = text(render(translation));
    expect(shown).toContain("4 cells, 3 distinct values; keep the source value. The 2 most frequent:");
    expect(shown).toContain("5 cells, 1 distinct value; reject the row.");
    expect(shown).not.toContain("The 1 most frequent");
    expect(shown).toContain("The first 1 of 5:");
    expect(text(render({ ...translation, rowsRejected: 1 }))).not.toContain("The first");
  });

  it("lists the rows rejected as a load's page does: the row, the column and value that rejected it (none for a row rejected whole), and why", () => {
    const whole = { row: 7, column: null, reason: "2 values where the header has 1" };
    const html = render({ ...translation, report: { ...report, rejected: [...report.rejected, whole] } });
    const table = html.slice(html.indexOf('aria-label="Rows rejected"'), html.indexOf("</table>", html.indexOf('aria-label="Rows rejected"')));
    const rows = [...table.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].map(([, row]) =>
      [...row!.matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/g)].map(([, cell]) => text(cell!)),
    );
    expect(rows).toEqual([
      ["Row", "Column", "Value", "Reason"],
      ["4", "department", "OPS", "No mapping, and the column&#x27;s rule rejects the row"],
      ["7", "(the whole row)", "", "2 values where the header has 1"],
    ]);
  });
});
