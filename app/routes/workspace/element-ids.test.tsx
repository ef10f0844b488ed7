/**
 * The ids a workspace's pages build from the kind's noun: a mapping project's ("mapping project") has a
 * space, and an id with a space breaks what names it in a list of ids: a refused field's
 * aria-describedby ("edit-mapping project-name-error") named no element, so its error was read by no
 * screen reader.
 */
import { describe, expect, it } from "vitest";
import { packRows } from "~/lib/packed-rows";
import { workspaceOf } from "~/test/fixtures";
import { renderPage } from "~/test/render-page";
import ProjectList from "./list";
import ProjectDetails from "./project/details";

/** The page's ids that hold a space, and its references to an id (for, form, aria-describedby's and aria-labelledby's) that name none. */
function brokenIds(html: string) {
  const ids = [...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]!);
  const single = [...html.matchAll(/\s(?:for|form)="([^"]*)"/g)].map((m) => m[1]!);
  const listed = [...html.matchAll(/\saria-(?:describedby|labelledby)="([^"]*)"/g)].flatMap((m) => m[1]!.split(/\s+/));
  return { spaced: ids.filter((id) => /\s/.test(id)), dangling: [...single, ...listed].filter((id) => !ids.includes(id)) };
}

const mappingProject = {
  ...workspaceOf({ id: "m1", name: "PSI map" }),
  description: null,
  version: 3,
  createdAt: "2026-11-28T19:04:22.000Z",
  flatFileParameters: null,
  uploadType: null,
  currentBackupName: null,
  mappingProjectId: null,
};

describe("a mapping project's pages", () => {
  it("name its Details' edit form and fields by ids without a space: a refused name's error is the field's description", () => {
    const refused = { status: "error", initialValue: { intent: "update", name: "", version: "3" }, error: { name: ["Required"] } };
    const html = renderPage(
      "/translations/mappings/:mappingProjectId/details",
      "/translations/mappings/m1/details?companyId=co1",
      ProjectDetails,
      { project: mappingProject, canWrite: true, name: { name: mappingProject.name, note: null }, schemes: [], mappingProjects: null },
      { result: refused },
    );
    expect(html).toMatch(/aria-describedby="edit-mapping-project-name-error"/);
    expect(html).toMatch(/id="edit-mapping-project-name-error"[^>]*><li>Required/);
    expect(brokenIds(html)).toEqual({ spaced: [], dangling: [] });
  });

  it("name the list's search and page size fields by ids without a space", () => {
    const search = { name: "", status: [], sort: "-updatedAt", page: 1, pageSize: 25 };
    const result = { items: packRows([workspaceOf({ id: "m1", name: "PSI map" })]), total: 1, page: 1, pageSize: 25 };
    const html = renderPage("/translations/mappings", "/translations/mappings?companyId=co1", ProjectList, {
      search,
      result,
      companyName: "Acme",
      mayCreate: true,
    });
    expect(html).toContain('id="mapping-project-search"');
    expect(brokenIds(html)).toEqual({ spaced: [], dangling: [] });
  });
});
