/**
 * A script's History and Lock audit, rendered on the server as a browser without JavaScript gets them:
 * lists paged through the URL, their page size chosen as every list's is.
 */
import { describe, expect, it } from "vitest";
import { pageSizeChoice, previousHref } from "~/test/page-size-form";
import { renderPage } from "~/test/render-page";
import { templatePathsOf } from "./paths";
import ScriptHistory from "./script-history";
import ScriptLockAudit from "./script-lock-audit";

const paths = templatePathsOf("/migration/templates");
const script = { id: "s1", levelId: "l1", templateId: "t1", version: 11 };
const sizes = ["10*", "25", "50", "100"];

describe("a script's lists", () => {
  it("History chooses its page size in a GET form that keeps the versions compared, and its page links keep both", () => {
    const here = paths.script("t1", "l1", "s1", "history");
    const version = (n: number) => ({ version: n, comment: null, author: "u1", authorName: "Ann", createdAt: "2026-11-27T10:00:00.000Z", lines: 1 });
    const loaderData = { script, versions: { items: [version(1)], page: 2, pageSize: 10, total: 11 }, diff: null, from: 2, to: 5 };
    const html = renderPage(here, `${here}?from=2&to=5&page=2&pageSize=10`, ScriptHistory, loaderData);
    expect(pageSizeChoice(html, "Versions page size", "versions-page-size")).toEqual({
      labelled: true,
      sizes,
      sent: [
        ["from", "2"],
        ["to", "5"],
        ["pageSize", "(chosen)"],
      ],
    });
    expect(previousHref(html)).toBe(`${here}?from=2&to=5&pageSize=10`);
    // Compare keeps the list's page and page size beside the two versions it sends.
    expect(pageSizeChoice(html, "Compare two versions", "none").sent).toEqual([
      ["page", "2"],
      ["pageSize", "10"],
      ["from", "(chosen)"],
      ["to", "(chosen)"],
    ]);
    // Each version is chosen in a labelled select of every version, showing the one compared.
    const select = (id: string) => {
      const [, label, name, options] =
        new RegExp(`<label for="${id}"[^>]*>([^<]*)</label><select id="${id}" name="([^"]*)"[^>]*>(.*?)</select>`).exec(html) ?? [];
      return {
        label,
        name,
        versions: [...(options ?? "").matchAll(/<option value="(\d+)"/g)].length,
        chosen: /<option value="(\d+)" selected=""/.exec(options ?? "")?.[1],
      };
    };
    expect(select("script-version-from")).toEqual({ label: "From version", name: "from", versions: 11, chosen: "2" });
    expect(select("script-version-to")).toEqual({ label: "To version", name: "to", versions: 11, chosen: "5" });
  });

  it("Lock audit chooses its page size in a GET form, and its page links keep it", () => {
    const here = paths.script("t1", "l1", "s1", "lock-audit");
    const event = { id: "e1", at: "2026-11-27T10:00:00.000Z", state: "Locked", userId: "u1", userName: "Ann", reason: null };
    const html = renderPage(here, `${here}?page=2&pageSize=10`, ScriptLockAudit, { script, events: { items: [event], page: 2, pageSize: 10, total: 11 } });
    expect(pageSizeChoice(html, "Lock audit page size", "lock-audit-page-size")).toEqual({ labelled: true, sizes, sent: [["pageSize", "(chosen)"]] });
    expect(previousHref(html)).toBe(`${here}?pageSize=10`);
  });
});
