/**
 * The create page's "Unfinished" card offers the company's unfinished setups: a user who may write one continues it at
 * its step; a reader opens its Details, where the step (an edit page) would only have sent them back with "That needs
 * write access… nothing was changed".
 */
import { describe, expect, it } from "vitest";
import type { ProjectStatus } from "../../../../contracts/values/projects";
import { workspaceOf, type WorkspaceFixture } from "~/test/fixtures";
import { renderPage } from "~/test/render-page";
import CreateWorkspace from "./details";

const unfinished = (id: string, name: string, status: ProjectStatus, canWrite: boolean) => workspaceOf({ id, name, status, canWrite });

function createPage(path: string, items: WorkspaceFixture[]) {
  const loaderData = {
    applications: [{ value: "a1", label: "Legacy ERP" }],
    schemes: [{ value: "s1", label: "Healthcare Trust Scheme" }],
    defaultConfiguration: null,
    unfinished: { items, total: items.length },
  };
  return renderPage(path, `${path}?companyId=co1`, CreateWorkspace, loaderData);
}

/** The card's links: their text and where they go. */
function cardLinks(html: string) {
  const card = /<h2 id="unfinished-title"[^]*?<\/ul>/.exec(html)?.[0] ?? "";
  return [...card.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => [m[2], m[1]]);
}

describe("the create page's unfinished setups", () => {
  it("link a writer's project to its next step and a reader's to its Details, read only", () => {
    const html = createPage("/migration/projects/create", [
      unfinished("p1", "Writable", "SetupUploadTypeIncomplete", true),
      unfinished("p2", "Readable", "SetupDataDictionaryIncomplete", false),
    ]);
    expect(cardLinks(html)).toEqual([
      ["Continue Writable", "/migration/projects/create/p1/databases?companyId=co1"],
      ["Open Readable (read only)", "/migration/projects/p2/details?companyId=co1"],
    ]);
  });

  it("do the same for a configuration", () => {
    const html = createPage("/onboarding/configurations/create", [
      unfinished("c1", "Readable", "SetupAssignTemplatesIncomplete", false),
      unfinished("c2", "Writable", "SetupAddColumnsIncomplete", true),
    ]);
    expect(cardLinks(html)).toEqual([
      ["Open Readable (read only)", "/onboarding/configurations/c1/details?companyId=co1"],
      ["Continue Writable", "/onboarding/configurations/create/c2/data-dictionary?companyId=co1"],
    ]);
  });
});
