/**
 * A list's row of an unfinished workspace links to the step its setup resumes at, for a user who may
 * write it; a reader's goes to its Details, where the steps (edit pages) would only have sent them
 * back with "That needs write access… nothing was changed".
 */
import { describe, expect, it } from "vitest";
import type { ProjectStatus } from "../../../contracts/values/projects";
import { packRows } from "~/lib/packed-rows";
import { workspaceOf, type WorkspaceFixture } from "~/test/fixtures";
import { renderPage } from "~/test/render-page";
import ProjectList from "./list";

const row = (id: string, name: string, status: ProjectStatus, canWrite: boolean) => workspaceOf({ id, name, status, canWrite });

function list(base: string, rows: WorkspaceFixture[]) {
  const search = { name: "", status: [], sort: "-updatedAt", page: 1, pageSize: 25 };
  const result = { items: packRows(rows), total: rows.length, page: 1, pageSize: 25 };
  return renderPage(base, `${base}?companyId=co1`, ProjectList, { search, result, companyName: "Acme", mayCreate: true });
}

/** Each row's name link: its name and where it goes. */
const rowLinks = (html: string) => [...html.matchAll(/<a class="row-link" href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => [m[2], m[1]]);

describe("a workspace list's rows", () => {
  it("link an unfinished project to its next step for a writer, to its Details for a reader", () => {
    const html = list("/migration/projects", [
      row("p1", "Writable", "SetupDataDictionaryIncomplete", true),
      row("p2", "Readable", "SetupDataDictionaryIncomplete", false),
      row("p3", "Finished", "Active", false),
    ]);
    expect(rowLinks(html)).toEqual([
      ["Writable", "/migration/projects/create/p1/data-dictionary?companyId=co1"],
      ["Readable", "/migration/projects/p2/details?companyId=co1"],
      ["Finished", "/migration/projects/p3/details?companyId=co1"],
    ]);
    expect(html).toContain("Setup continues here");
    expect(html).toContain("Setup not finished");
  });

  it("say a project whose databases are made, its source not loaded yet, continues its setup, at its Details (whose banner links to the load)", () => {
    const html = list("/migration/projects", [row("p1", "Databases made", "SetupRestoreDatabaseIncomplete", true)]);
    expect(rowLinks(html)).toEqual([["Databases made", "/migration/projects/p1/details?companyId=co1"]]);
    expect(html.match(/Setup continues here/g)).toHaveLength(1);
  });

  it("do the same for a configuration", () => {
    const html = list("/onboarding/configurations", [
      { ...row("c1", "Writable", "SetupAddColumnsIncomplete", true), isDefault: true, schemes: ["Healthcare Trust Scheme"] },
      { ...row("c2", "Readable", "SetupAddColumnsIncomplete", false), isDefault: false, schemes: [] },
    ]);
    expect(rowLinks(html)).toEqual([
      ["Writable", "/onboarding/configurations/create/c1/data-dictionary?companyId=co1"],
      ["Readable", "/onboarding/configurations/c2/details?companyId=co1"],
    ]);
    expect(html.match(/Setup continues here/g)).toHaveLength(1);
  });
});

describe("a workspace list's table", () => {
  // Its box scrolls sideways and is a Tab stop (components/ui/table.tsx): the stop is named as the list, not left a nameless box.
  it("sits in a group named as the list, the table's caption still saying its order", () => {
    const html = list("/onboarding/configurations", [row("c3", "Finished", "Active", true)]);
    expect(html).toMatch(/<div tabindex="0" role="group" aria-label="Configurations"[^>]*><table [^>]*aria-label="Configurations"/);
    expect(html).toContain('<caption class="sr-only">Configurations, sorted by');
  });
});
