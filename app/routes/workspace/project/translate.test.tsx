/**
 * "Translate a file" names where its Table select's tables come from in the mapping project's words:
 * its file data structure (the tab of that name), not a data dictionary it does not show.
 */
import { describe, expect, it } from "vitest";
import { renderPage } from "~/test/render-page";
import TranslatePage from "./translate";

const page = "/translations/mappings/p1/translate";
const render = (tables: { search: string; names: string[]; matching: number }) =>
  renderPage(page, `${page}?companyId=c1`, TranslatePage, {
    projectId: "p1",
    tables,
    translations: { items: [], total: 0, page: 1, pageSize: 10 },
    canWrite: true,
  }).replace(/<[^>]+>/g, " ");

describe("Translate a file", () => {
  it("says the file data structure has no tables when it has none, and which tables its list offers when it has", () => {
    expect(render({ search: "", names: [], matching: 0 })).toContain("The file data structure has no tables.");
    expect(render({ search: "", names: ["employees"], matching: 1 })).toContain("The Table list offers the 1 table.");
  });
});
