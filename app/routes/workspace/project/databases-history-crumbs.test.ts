/**
 * The breadcrumbs of a history entry and of one of its tables name them, as the data dictionary's
 * table page names its table, where they said "Entry" and "Table" whatever was shown.
 */
import { describe, expect, it } from "vitest";
import { handle as entryHandle } from "./databases-history-entry";
import { handle as tableHandle } from "./databases-history-table";

const crumb = (handle: { breadcrumb: (match: never) => string | null | undefined }, loaderData: unknown) => handle.breadcrumb({ loaderData } as never);

describe("a history entry's breadcrumbs", () => {
  it("name the entry by its type and when it started", () => {
    const entry = { id: "h1", type: "FlatFile", createdAt: "2026-11-28T19:04:22.000Z", tables: [] };
    expect(crumb(entryHandle, { entry })).toBe("Flat-file load 2026-11-28 19:04 UTC");
    expect(crumb(entryHandle, { entry: { ...entry, type: "RestoreAndComparison" } })).toBe("Restore and comparison 2026-11-28 19:04 UTC");
  });

  it("name a table of the entry by the table's name", () => {
    const table = { table: "Products", fileName: "Products.csv", rowsRead: 31, rowsLoaded: 30, rowsRejected: 1 };
    expect(crumb(tableHandle, { entry: { id: "h1", tables: [table] }, table })).toBe("Products");
  });

  it("say nothing rather than a wrong name while there is no data (an error page)", () => {
    expect(crumb(entryHandle, undefined)).toBeNull();
    expect(crumb(tableHandle, undefined)).toBeNull();
  });
});
