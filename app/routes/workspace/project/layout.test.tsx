/**
 * The workspace's header, rendered on the server as a page without JavaScript gets it: what it offers
 * about an unfinished setup depends on who reads it (the setup's steps and the load are edit pages).
 */
import { describe, expect, it } from "vitest";
import { PROJECT_STATUS_LABELS, type ProjectStatus } from "../../../../contracts/values/projects";
import { backgroundProcessData, workspaceOf } from "~/test/fixtures";
import { renderPage } from "~/test/render-page";
import ProjectLayout from "./layout";
import BackgroundProcess from "./background-process";

const base = "/onboarding/configurations/c1";
const layout = (status: ProjectStatus, canWrite: boolean, kind: "onboarding" | "migration" = "onboarding") => {
  const page = kind === "onboarding" ? `${base}/details` : "/migration/projects/c1/details";
  const project = workspaceOf({ id: "c1", name: "Quarterly members", status, schemes: ["Healthcare Trust Scheme"], isDefault: false });
  // As the loader answers it: the labels read there.
  const header = { ...project, statusLabel: PROJECT_STATUS_LABELS[status], source: "Healthcare Trust Scheme" };
  return renderPage(page, `${page}?companyId=co1`, ProjectLayout, { project: header, access: { canRead: true, canWrite } });
};
const background = (canWrite: boolean) =>
  renderPage(`${base}/background-process`, `${base}/background-process?companyId=co1`, BackgroundProcess, backgroundProcessData({ canCancel: canWrite }));

describe("an unfinished setup", () => {
  it("offers a writer to continue it, at the step it resumes at", () => {
    const html = layout("SetupAddColumnsIncomplete", true);
    expect(html).toContain(`href="/onboarding/configurations/create/c1/data-dictionary?companyId=co1"`);
    expect(html).toContain(">Continue setup</a>");
    expect(background(true)).toContain(">Continue setup</a>");
  });

  it("tells a reader who continues it, with no link to a step that would refuse them", () => {
    const html = layout("SetupAddColumnsIncomplete", false);
    expect(html).toContain("The configuration&#x27;s setup is not finished: a user with write access continues it.");
    expect(html).not.toContain("Continue setup");
    expect(html).not.toContain("/create/c1/");
    expect(background(false)).not.toContain("Continue setup");
  });

  it("offers the load of the source data after a project's databases to a writer only", () => {
    const writer = layout("SetupRestoreDatabaseIncomplete", true, "migration");
    expect(writer).toContain(">Load a flat file</a>");
    // Its setup is unfinished (the lists say so), and this is where it continues: the load, not a link back to this page.
    expect(writer).not.toContain("Continue setup");
    const html = layout("SetupRestoreDatabaseIncomplete", false, "migration");
    expect(html).toContain("The databases are created: a user with write access loads the source data next.");
    expect(html).not.toContain("Load a flat file");
  });
});

describe("the workspace's tabs", () => {
  const at = (page: string) => {
    const project = workspaceOf({ id: "c1", name: "Quarterly members", status: "Active", sourceType: "FlatFile" });
    const html = renderPage(page, `${page}?companyId=co1`, ProjectLayout, { project, access: { canRead: true, canWrite: true } });
    return [...html.matchAll(/<a [^>]*aria-current="page"[^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);
  };

  it("say which one is current on every page of its section, as they show it: a load, the history, an entry are Databases", () => {
    expect(at("/migration/projects/c1/details")).toEqual(["Details"]);
    expect(at("/migration/projects/c1/databases/current")).toEqual(["Databases"]);
    expect(at("/migration/projects/c1/databases/flat-file/update-source")).toEqual(["Databases"]);
    expect(at("/migration/projects/c1/databases/history/h1/details")).toEqual(["Databases"]);
    expect(at("/migration/projects/c1/data-dictionary/tables/t1/details")).toEqual(["Data dictionary"]);
    expect(at("/migration/projects/c1/templates/run-history")).toEqual(["Templates"]);
    expect(at("/migration/projects/c1/users/sql-permissions")).toEqual(["SQL permissions"]);
  });
});
