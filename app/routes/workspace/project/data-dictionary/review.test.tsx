/**
 * A workspace's bulk update review says where the upload is saved in the workspace's own words (a
 * mapping project's file data structure, a configuration's data dictionary) and, for a mapping
 * project, that a column removed takes its value map with it.
 */
import { describe, expect, it } from "vitest";
import type { ReviewHeader } from "../../../../../contracts/dictionary";
import { renderPage } from "~/test/render-page";
import ProjectReview from "./review";

const review: ReviewHeader = {
  id: "r1",
  fileName: "b.csv",
  createdAt: "2026-11-30T10:00:00.000Z",
  baseVersion: 1,
  mode: "replace",
  rowCount: 2,
  canApply: true,
  errorCount: 0,
  tableCount: 1,
  changingTableCount: 1,
  addedTableCount: 0,
  status: "ready",
};
const empty = { items: [], total: 0, page: 1, pageSize: 10 };
const render = (path: string) =>
  renderPage(path, `${path}?companyId=c1&review=r1`, ProjectReview, { projectId: "p1", review, tables: empty, problems: empty })
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");

describe("a workspace's bulk update review", () => {
  it("names the mapping project's file data structure, and the value maps a removed column takes with it", () => {
    expect(render("/translations/mappings/p1/file-data-structure/bulk-update/review/tables")).toContain(
      "Nothing has changed yet: apply the upload to save it to the mapping project's file data structure, or discard it. A column it removes takes its value map with it.",
    );
  });

  it("names a configuration's and a migration project's data dictionary, with no value maps", () => {
    const configuration = render("/onboarding/configurations/p1/data-dictionary/bulk-update/review/tables");
    expect(configuration).toContain("Nothing has changed yet: apply the upload to save it to the configuration's data dictionary, or discard it.");
    expect(configuration).not.toContain("value map");
    expect(render("/migration/projects/p1/data-dictionary/bulk-update/review/tables")).toContain(
      "Nothing has changed yet: apply the upload to save it to the project's data dictionary, or discard it.",
    );
  });
});
