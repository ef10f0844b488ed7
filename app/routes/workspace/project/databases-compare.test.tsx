/**
 * Compare an earlier delivery: each delivery offered is named by its files and when they were loaded,
 * and what a backup holds says which load left it, so that "month 1" is found among monthly deliveries
 * whose files keep their names.
 */
import { describe, expect, it } from "vitest";
import type { Backup } from "../../../../contracts/backups";
import { backupContents } from "~/components/backups/backups-table";
import { renderPage } from "~/test/render-page";
import CompareSource from "./databases-compare";

const delivery = (id: string, fileName: string, finishedAt: string, taken: string): Backup => ({
  id,
  name: `Payroll-${taken}.backup.tar`,
  kind: "Automatic",
  status: "Ready",
  bytes: 9000,
  tableCount: 4,
  rowCount: 16,
  after: { id: `h-${id}`, type: "FlatFile", fileName, finishedAt },
  createdBy: "u1",
  createdAt: taken,
});

describe("what a backup holds", () => {
  it("names the load that left the data and when it ended, not only its files", () => {
    const month1 = delivery("b1", "2 files", "2026-09-30T07:30:12.000Z", "2026-10-31T07:31:20.000Z");
    expect(backupContents(month1)).toBe("after the flat-file load of 2 files on 2026-09-30 07:30 UTC");
    expect(backupContents({ after: null })).toBe("before anything was loaded");
  });
});

describe("the deliveries offered to compare", () => {
  it("read as their files, when they were loaded, and the rows of both databases their backup holds", () => {
    const here = "/onboarding/configurations/c1/databases/compare-source";
    const items = [
      delivery("b2", "2 files", "2026-10-31T07:31:20.000Z", "2026-11-30T07:32:34.000Z"),
      delivery("b1", "Members.csv", "2026-09-30T07:30:12.000Z", "2026-10-31T07:31:20.000Z"),
    ];
    const html = renderPage(here, here, CompareSource, { projectId: "c1", deliveries: { items, page: 1, pageSize: 25, total: 2 } });
    const labels = [...html.matchAll(/<label[^>]*for="[^"]*backupId[^"]*"[^>]*>(.*?)<\/label>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, ""));
    expect(labels).toEqual([
      "2 files, loaded 2026-10-31 07:31 UTC (16 rows in both databases then)",
      "Members.csv, loaded 2026-09-30 07:30 UTC (16 rows in both databases then)",
    ]);
  });
});
