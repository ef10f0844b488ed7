/**
 * The breadcrumbs of a history entry and of one of its tables name them, as the data dictionary's
 * table page names its table, where they said "Entry" and "Table" whatever was shown; the history
 * list names each entry's link the same way.
 */
import { describe, expect, it } from "vitest";
import { renderPage } from "~/test/render-page";
import History from "./databases-history";
import { handle as entryHandle } from "./databases-history-entry";
import { handle as tableHandle } from "./databases-history-table";
import { entryWords } from "./databases-history-entry.server";

/** The entry page's loader data as far as its crumb reads it: its words, read by its loader. */
const entryPage = (entry: object) => ({ said: entryWords({ entry, about: null, backup: null, parameters: null } as never) });

const crumb = (handle: { breadcrumb: (match: never) => string | null | undefined }, loaderData: unknown) => handle.breadcrumb({ loaderData } as never);

describe("a history entry's breadcrumbs", () => {
  it("name the entry by its type and when it started", () => {
    const entry = { id: "h1", type: "FlatFile", createdAt: "2026-11-28T19:04:22.000Z", tables: [] };
    expect(crumb(entryHandle, entryPage(entry))).toBe("Flat-file load 2026-11-28 19:04 UTC");
    expect(crumb(entryHandle, entryPage({ ...entry, type: "RestoreAndComparison" }))).toBe("Restore and comparison 2026-11-28 19:04 UTC");
  });

  it("name a table of the entry by the table's name", () => {
    const table = { table: "Products", fileName: "Products.csv", rowsRead: 31, rowsLoaded: 30, rowsRejected: 1 };
    expect(crumb(tableHandle, { entry: { id: "h1", tables: [table] }, table })).toBe("Products");
  });

  it("put the entry's crumb before a table's, a link to the entry (the table's page is registered beside the entry's)", () => {
    const table = { table: "Products", fileName: "Products.csv", rowsRead: 31, rowsLoaded: 30, rowsRejected: 1 };
    const entry = { id: "h1", type: "FlatFile", createdAt: "2026-11-28T19:04:22.000Z", tables: [table] };
    const pathname = "/migration/projects/p1/databases/history/h1/table/Products/details";
    expect(tableHandle.parentCrumb({ loaderData: { projectId: "p1", entry, table }, pathname } as never)).toEqual({
      label: "Flat-file load 2026-11-28 19:04 UTC",
      to: "/migration/projects/p1/databases/history/h1/details",
    });
    expect(tableHandle.parentCrumb({ loaderData: undefined, pathname } as never)).toBeNull();
  });

  it("say nothing rather than a wrong name while there is no data (an error page)", () => {
    expect(crumb(entryHandle, undefined)).toBeNull();
    expect(crumb(tableHandle, undefined)).toBeNull();
  });
});

describe("the history list", () => {
  it("names each entry's link by its type and when, as its breadcrumb does, so two loads' links differ", () => {
    const here = "/migration/projects/p1/databases/history/list";
    const entry = (id: string, createdAt: string) => ({
      id,
      type: "FlatFile",
      status: "Loaded",
      createdAt,
      createdBy: "u1",
      tables: [],
      rowsRead: 1,
      rowsLoaded: 1,
    });
    const html = renderPage(here, here, History, {
      projectId: "p1",
      canWrite: true,
      search: { type: [], status: [], page: 1, pageSize: 25, sort: "-createdAt" },
      history: { items: [entry("h2", "2026-11-28T19:04:00.000Z"), entry("h1", "2026-11-28T18:54:00.000Z")], page: 1, pageSize: 25, total: 2 },
      names: { u1: "Ann Analyst" },
    });
    const names = [...html.matchAll(/<a [^>]*aria-label="([^"]+)"[^>]*href="[^"]*\/history\/h\d\/details/g)].map((m) => m[1]);
    expect(names).toEqual(["Flat-file load 2026-11-28 19:04 UTC", "Flat-file load 2026-11-28 18:54 UTC"]);
  });
});

describe("the history list's Status filter", () => {
  it("names each status as the entries say it, so a restore's Restored and a backup's Running are found", () => {
    const here = "/migration/projects/p1/databases/history/list";
    const html = renderPage(here, here, History, {
      projectId: "p1",
      canWrite: true,
      search: { type: [], status: [], page: 1, pageSize: 25, sort: "-createdAt" },
      history: { items: [], page: 1, pageSize: 25, total: 0 },
      names: {},
    });
    const statuses = [...html.matchAll(/<input type="checkbox" name="status" value="(\w+)"\/>([^<]*)<\/label>/g)].map((m) => [m[1], m[2]!.trim()]);
    expect(statuses).toEqual([
      ["Loading", "Loading or running"],
      ["Loaded", "Loaded or restored"],
      ["Refused", "Refused"],
      ["Completed", "Completed"],
      ["Failed", "Failed"],
    ]);
  });
});
