/**
 * Deleting a script and removing a workspace's template take a confirmation a link away (?delete=,
 * ?remove=), rendered on the server as a page without JavaScript gets it: one click deletes nothing.
 */
import { describe, expect, it } from "vitest";
import { scriptOf, templateSummaryOf } from "~/test/fixtures";
import { postedIntents, renderPage } from "~/test/render-page";
import AssignedTemplates from "./assigned";
import ScriptDetails from "./script-details";

const template = (id: string, name: string, masterTemplateId: string | null) =>
  templateSummaryOf({ id, name, levelCount: 2, scriptCount: 3, masterTemplateId, masterVersion: masterTemplateId ? 4 : null, version: 7 });

describe("removing a workspace's template", () => {
  const page = "/migration/projects/p1/templates/assigned";
  const loaderData = {
    templates: { items: [template("t1", "Core load", "m1"), template("t2", "Local fixes", null)], total: 2, page: 1, pageSize: 100 },
    canWrite: true,
  };
  const show = (search: string) => renderPage(page, `${page}${search}`, AssignedTemplates, loaderData);

  it("offers Remove as a link to its confirmation: no form on the list removes anything", () => {
    const html = show("");
    expect(postedIntents(html)).not.toContain("remove");
    expect(html).toContain(`href="${page}?remove=t2"`);
  });

  it("confirms a copy of a master saying the master is unchanged", () => {
    const html = show("?remove=t1");
    expect(html).toContain("Remove template Core load?");
    expect(html).toContain("The master template is unchanged");
    expect(postedIntents(html)).toContain("remove");
    expect(html).toMatch(/name="templateId" value="t1"/);
    expect(html).toMatch(new RegExp(`href="${page}"[^>]*>Cancel<`));
  });

  it("takes the focus on its heading as it opens, with or without JavaScript, but not from a refusal's message", () => {
    // The row's link that opened it sits below it: a keyboard or screen reader user was left there, told nothing.
    expect(show("?remove=t2")).toMatch(/<h2 id="[^"]*-heading" tabindex="-1" autofocus=""[^>]*>Delete template Local fixes\?<\/h2>/);
    // A refused delete comes back with the card still open: its message, above the card, is the page's first autofocus.
    const refused = renderPage(page, `${page}?remove=t2`, AssignedTemplates, loaderData, { errors: ["Template not found."] });
    expect(/<[^>]*autofocus=""[^>]*>/.exec(refused)?.[0]).toContain('role="alert"');
  });

  it("confirms a template made here saying it is deleted with its levels and scripts", () => {
    const html = show("?remove=t2");
    expect(html).toContain("Delete template Local fixes?");
    expect(html).toContain("it is deleted with its 2 levels and 3 scripts");
    expect(html).not.toContain("master template is unchanged");
  });
});

describe("deleting a script", () => {
  const page = "/migration/master-templates/script/edit/s1/details";
  const script = scriptOf({ version: 3 });
  const show = (search: string) =>
    renderPage(page, `${page}${search}`, ScriptDetails, {
      script,
      lines: 2,
      templateVersion: 5,
      editable: true,
    });

  it("is a link to its confirmation, which holds the only delete", () => {
    const html = show("");
    expect(postedIntents(html)).toEqual(["rename"]);
    expect(html).toContain(`href="${page}?delete=s1"`);
    const confirming = show("?delete=s1");
    expect(confirming).toContain("Delete script Customers?");
    expect(confirming).toContain("Its 3 versions and its lock audit are deleted with it");
    expect(postedIntents(confirming)).toEqual(["rename", "delete"]);
  });
});
