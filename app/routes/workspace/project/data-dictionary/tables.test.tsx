/**
 * The project's own data dictionary's tables, rendered as a browser without JavaScript gets them: a
 * list paged through the URL, its page size chosen in the search form as every list's is.
 */
import { describe, expect, it } from "vitest";
import { pageSizeChoice } from "~/test/page-size-form";
import { renderPage } from "~/test/render-page";
import ProjectTables from "./tables";

const path = "/migration/projects/p1/data-dictionary/data-definition/tables";
const loaderData = {
  projectId: "p1",
  companyId: "c1",
  version: 4,
  query: { name: "orders", page: 2, pageSize: 10 },
  page: { items: [{ id: "t11", name: "Orders11", description: null, order: 11, columnCount: 1 }], page: 2, pageSize: 10, total: 11 },
  canEdit: false,
  deleting: null,
  pending: null,
};
const html = renderPage(path, `${path}?companyId=c1&name=orders&page=2&pageSize=10`, ProjectTables, loaderData);

describe("the project's tables", () => {
  it("offer the lists' page sizes in their search form, the chosen one selected, and page at that size", () => {
    expect(pageSizeChoice(html, "Find tables", "tables-page-size")).toEqual({
      labelled: true,
      sizes: ["10*", "25", "50", "100"],
      sent: [
        ["companyId", "c1"],
        ["name", "orders"],
        ["pageSize", "(chosen)"],
      ],
    });
    expect(html).toContain("Page 2 of 2 · 11 tables");
    // Previous keeps the search and the page size.
    const previous = /<a [^>]*rel="prev"[^>]*href="([^"]+)"|<a [^>]*href="([^"]+)"[^>]*rel="prev"/.exec(html);
    expect((previous?.[1] ?? previous?.[2])?.replaceAll("&amp;", "&")).toBe(`${path}?companyId=c1&name=orders&pageSize=10`);
  });
});
