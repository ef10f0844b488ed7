/**
 * A comparison's entry and its line in the History list name the earlier data by what it holds, as the
 * comparison page and the backup lists do ("the data after the flat-file load of Members.csv on …"), where
 * they named the backup's file ("Comparison of Payroll-…backup.tar with the data then current").
 */
import { describe, expect, it } from "vitest";
import { liveRegionTexts } from "~/test/live-regions";
import { renderPage } from "~/test/render-page";
import History from "./databases-history";
import HistoryEntryPage from "./databases-history-entry";
import { jobOf } from "~/test/fixtures";
import { entryWords } from "./databases-history-entry.server";

const after = { id: "h1", type: "FlatFile", fileName: "Members.csv", finishedAt: "2026-11-29T07:30:12.000Z" };
const comparison = {
  id: "h3",
  projectId: "p1",
  type: "Comparison",
  jobId: null,
  fileName: "Payroll-Acme-monthly-2026-11-29-073120.backup.tar",
  fileBytes: 0,
  tableName: "",
  mode: "replace",
  onRejected: "loadNothing",
  status: "Loaded",
  rowsRead: 16,
  rowsLoaded: 0,
  rowsRejected: 0,
  message: null,
  createdBy: "u1",
  createdAt: "2026-11-29T07:40:00.000Z",
  finishedAt: "2026-11-29T07:40:02.000Z",
  tables: [],
};
const backup = {
  id: "b1",
  name: comparison.fileName,
  kind: "Automatic",
  status: "Ready",
  bytes: 2048,
  tableCount: 2,
  rowCount: 16,
  after,
  createdBy: "u1",
  createdAt: "2026-11-29T07:31:20.000Z",
};
/** The page of tables of an entry that compared nothing (or not yet). */
const noTables = { items: [], total: 0, page: 1, pageSize: 10 };
const text = (html: string) => html.replace(/<[^>]*>/g, "").replace(/\s+/g, " ");

/** The heading of the comparison's page, its backup kept (`backup`) or no longer (null). */
function entryHeading(kept: typeof backup | null) {
  const here = "/onboarding/configurations/p1/databases/history/h3/details";
  const html = renderPage(here, here, HistoryEntryPage, {
    ...{ projectId: "p1", entry: comparison, job: null, names: { u1: "Ann Analyst" }, undoBackup: null, afterBackup: null },
    ...{ backup: kept, comparison: null, tables: noTables, differing: false, canChange: true, isLocked: false, readAt: Date.now() },
    said: entryWords({ entry: comparison, about: null, backup: kept, parameters: null } as never),
  });
  return /<h2 id="entry-title"[^>]*>(.*?)<\/h2>/.exec(html)?.[1];
}

describe("a comparison's entry", () => {
  it("is headed by what the backup it compared holds", () => {
    expect(entryHeading(backup)).toBe("Comparison of the data after the flat-file load of Members.csv on 2026-11-29 07:30 UTC with the data then current");
  });

  it("is headed by the backup's file when the backup is no longer kept", () => {
    expect(entryHeading(null)).toBe(`Comparison of ${comparison.fileName} with the data then current`);
  });
});

describe("the History list", () => {
  it("names a comparison's earlier data by what it holds, and its backup's file once it is gone", () => {
    const here = "/onboarding/configurations/p1/databases/history/list";
    const html = renderPage(here, here, History, {
      projectId: "p1",
      canWrite: true,
      search: { type: [], status: [], page: 1, pageSize: 25, sort: "-createdAt" },
      history: {
        items: [
          { ...comparison, compared: { after } },
          { ...comparison, id: "h2", compared: null },
        ],
        page: 1,
        pageSize: 25,
        total: 2,
      },
      names: { u1: "Ann Analyst" },
    });
    const files = [...html.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].slice(1).map((row) => text([...row[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)][3]![1]!));
    expect(files).toEqual(["the data after the flat-file load of Members.csv on 2026-11-29 07:30 UTC", comparison.fileName]);
  });
});

describe("a load's entry while its job runs", () => {
  it("does not read out the job's percentage at every tick: a screen reader is told its phases (JobAnnouncer)", () => {
    const here = "/migration/projects/p1/databases/history/h1/details";
    const loading = {
      ...after,
      id: "h1",
      status: "Loading",
      createdBy: "u1",
      createdAt: "2026-11-29T07:30:00.000Z",
      rowsRead: 0,
      rowsLoaded: 0,
      rowsRejected: 0,
      tables: [],
      message: null,
    };
    const job = jobOf({
      projectId: "p1",
      progress: 40,
      steps: [{ name: "Load Members.csv into Members", status: "Started", startedAt: "2026-11-29T07:30:01.000Z", finishedAt: null, message: null }],
    });
    const html = renderPage(here, here, HistoryEntryPage, {
      ...{ projectId: "p1", entry: loading, parameters: null, job, names: { u1: "Ann Analyst" }, undoBackup: null, afterBackup: null },
      ...{ backup: null, comparison: null, tables: noTables, differing: false, about: null, canChange: true, isLocked: true, readAt: Date.now() },
      said: entryWords({ entry: loading, about: null, backup: null, parameters: null } as never),
    });
    expect(text(html)).toContain("40% done");
    expect(liveRegionTexts(html).join(" | ")).not.toContain("% done");
  });
});
