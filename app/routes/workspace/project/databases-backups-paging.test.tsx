/**
 * The backups Restore and Compare offer, rendered on the server as a browser without JavaScript gets
 * them: paged through the URL, their page size chosen as every list's is, their defaults (10 and 25) kept.
 */
import { describe, expect, it } from "vitest";
import { backupOf } from "~/test/fixtures";
import { pageSizeChoice, previousHref } from "~/test/page-size-form";
import { renderPage } from "~/test/render-page";
import Compare from "./databases-compare";
import Restore from "./databases-restore";

const pageOf = (page: number, pageSize: number) => ({ items: [backupOf()], page, pageSize, total: pageSize + 1 });
const sent = [["pageSize", "(chosen)"]];

describe("the backups offered", () => {
  const restore = "/migration/projects/p1/databases/backup/update-source";
  const compare = "/migration/projects/p1/databases/compare-source";

  it("by Restore: 10 to a page unless another size is chosen in its GET form, which the page links keep", () => {
    const render = (pageSize: number) =>
      renderPage(restore, `${restore}?page=2&pageSize=${pageSize}`, Restore, { projectId: "p1", version: 3, backups: pageOf(2, pageSize), undo: null });
    expect(pageSizeChoice(render(50), "Backups page size", "backups-page-size")).toEqual({ labelled: true, sizes: ["10", "25", "50*", "100"], sent });
    expect(previousHref(render(50))).toBe(`${restore}?pageSize=50`);
    expect(pageSizeChoice(render(10), "Backups page size", "backups-page-size").sizes).toEqual(["10*", "25", "50", "100"]);
    expect(previousHref(render(10))).toBe(restore);
  });

  it("by Compare: 25 to a page unless another size is chosen in its GET form, which the page links keep", () => {
    const render = (pageSize: number) =>
      renderPage(compare, `${compare}?page=2&pageSize=${pageSize}`, Compare, { projectId: "p1", deliveries: pageOf(2, pageSize) });
    expect(pageSizeChoice(render(10), "Deliveries page size", "deliveries-page-size")).toEqual({ labelled: true, sizes: ["10*", "25", "50", "100"], sent });
    expect(previousHref(render(10))).toBe(`${compare}?pageSize=10`);
    expect(previousHref(render(25))).toBe(compare);
  });
});

describe("the undo's confirmation", () => {
  it("reads, as text (w3m, a page copied as text), Undo and Cancel as two words", () => {
    const restore = "/migration/projects/p1/databases/backup/update-source";
    const entry = { id: "h1", type: "FlatFile", createdAt: "2026-11-30T11:04:00.000Z" };
    const html = renderPage(restore, `${restore}?undo=h1`, Restore, {
      projectId: "p1",
      version: 3,
      backups: pageOf(1, 10),
      undo: { entry, backup: backupOf() },
    });
    expect(html.replace(/<[^>]+>/g, "")).toContain("Undo Cancel");
  });
});
