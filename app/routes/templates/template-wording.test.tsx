/**
 * What a master template is assigned to, in the words of its area: a migration's projects, onboarding's
 * configurations, translations' mapping projects (which copy templates but never run them).
 */
import { describe, expect, it } from "vitest";
import type { Template } from "../../../contracts/templates";
import { templateSummaryOf } from "~/test/fixtures";
import { renderPage } from "~/test/render-page";
import MasterTemplates from "./list";
import TemplateEdit from "./template-edit";

const template = (status: Template["status"]): Template => ({
  ...templateSummaryOf({ area: "onboarding", name: "Payroll", status, levelCount: 0, scriptCount: 0 }),
  levels: [],
});

const editPage = (area: string, status: Template["status"]) =>
  renderPage(`/${area}/master-templates/t1/edit`, `/${area}/master-templates/t1/edit?companyId=c1`, TemplateEdit, {
    template: template(status),
    name: { name: "Payroll", note: null },
    canWrite: true,
    master: true,
  });

const emptyList = (area: string) =>
  renderPage(`/${area}/master-templates`, `/${area}/master-templates?companyId=c1`, MasterTemplates, {
    search: { name: "", status: [], type: [], sort: "name", page: 1, pageSize: 25 },
    result: { items: [], total: 0, page: 1, pageSize: 25 },
    area,
    companyName: "Acme Health",
    created: null,
    canWrite: true,
  });

describe("a master template's page says what its area assigns it to", () => {
  it("a Draft one can be assigned once Available: to configurations in onboarding, mapping projects in translations, projects in migration", () => {
    expect(editPage("onboarding", "Draft")).toContain("Only Available templates can be assigned to configurations.");
    expect(editPage("translations", "Draft")).toContain("Only Available templates can be assigned to mapping projects.");
    expect(editPage("migration", "Draft")).toContain("Only Available templates can be assigned to projects.");
  });

  it("an Archived one can no longer be assigned to the area's workspaces", () => {
    expect(editPage("onboarding", "Archived")).toContain("it is read-only and can no longer be assigned to configurations.");
  });

  it("the empty list says who copies the templates, and runs them only where they run", () => {
    expect(emptyList("onboarding")).toContain("SQL scripts, in levels, that configurations copy and run.");
    expect(emptyList("translations")).toContain("SQL scripts, in levels, that mapping projects copy. Create the first one.");
    expect(emptyList("migration")).toContain("SQL scripts, in levels, that projects copy and run.");
  });
});
