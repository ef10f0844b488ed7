/**
 * A workspace's template pages sit under the workspace's own h1 (its name, over its tabs): the
 * template's name and "Create template" are h2 there, and h1 only on a master template's own page. Two
 * h1s, the second with the workspace's heading id, named both regions by the workspace.
 */
import { describe, expect, it } from "vitest";
import { templateSummaryOf } from "~/test/fixtures";
import { renderPage } from "~/test/render-page";
import CreateTemplate from "./create";
import TemplateLayout from "./template-layout";

const headings = (html: string) => [...html.matchAll(/<(h[1-6])[^>]*>([^<]*)<\/h[1-6]>/g)].map(([, tag, text]) => `${tag} ${text}`);

describe("a template's heading", () => {
  it("is the page's h1 among master templates, an h2 under a workspace's name", () => {
    const template = templateSummaryOf({ name: "Main" });
    const layout = (page: string) => headings(renderPage(page, page, TemplateLayout, { template }));
    expect(layout("/migration/master-templates/t1/edit")).toEqual(["h1 Main"]);
    expect(layout("/migration/projects/p1/templates/t1/edit")).toEqual(["h2 Main"]);
    expect(layout("/onboarding/configurations/c1/templates/t1/edit")).toEqual(["h2 Main"]);
  });

  it("of a new one is the page's h1 among master templates, an h2 under a workspace's name, never with the workspace's heading id", () => {
    const create = (page: string) => renderPage(page, page, CreateTemplate, { madeId: crypto.randomUUID() });
    expect(headings(create("/migration/master-templates/create"))).toEqual(["h1 Create template"]);
    const inWorkspace = create("/migration/projects/p1/templates/create");
    expect(headings(inWorkspace)).toEqual(["h2 Create template"]);
    expect(inWorkspace).not.toContain('id="page-title"');
  });
});
