/**
 * "Run the templates" as a browser without JavaScript gets it, on page 2 of a workspace's templates: every
 * field belongs to the one form whose Search and Previous/Next post them here for the next URL, what was
 * chosen on other pages travels in it as hidden fields (a script, as its select's option), and "Start the
 * run" posts that form to this URL.
 */
import { describe, expect, it } from "vitest";
import type { ChosenScript, RunChoice } from "../../../contracts/templates";
import { renderPage } from "~/test/render-page";
import RunTemplates from "./run";

const page = "/migration/projects/p1/templates/run";
const choice = (n: number): RunChoice => ({
  id: `t${n}`,
  name: `Template ${n}`,
  levels: [{ id: `l${n}`, name: "Load", scripts: [{ id: `s${n}`, name: `Script ${n}` }] }],
});
const search = "?companyId=c1&type=Full&scope=templates&templateIds=t1&templateIds=t102&levelIds=l7&scriptId=s3&onError=continue&pageSize=100&page=2";

const script3: ChosenScript = { id: "s3", templateName: "Template 3", levelName: "Load", name: "Script 3" };

function secondPage(dropped = { templateIds: false, levelIds: false }, chosenScript: ChosenScript | null = script3) {
  return renderPage(page, `${page}${search}`, RunTemplates, {
    notRunnable: null,
    search: {
      name: "",
      sort: "name",
      page: 2,
      pageSize: 100,
      type: "Full",
      scope: "templates",
      templateIds: ["t1", "t102"],
      levelIds: ["l7"],
      scriptId: "s3",
      onError: "continue",
      dropped,
    },
    templates: { items: [101, 102, 103, 104, 105].map(choice), total: 105, page: 2, pageSize: 100, chosenScript },
  });
}

/** The <input> of `name` and `value` as rendered (attributes in React's order). */
const input = (html: string, name: string, value: string) => new RegExp(`<input[^>]*name="${name}"[^>]*value="${value}"[^>]*>`).exec(html)?.[0] ?? "";
/** The opening tag of the button that reads `text`. */
const button = (html: string, text: string) => new RegExp(`(<button[^>]*>)${text}</button>`).exec(html)?.[1] ?? "";

describe("the run page past the first 100 templates", () => {
  it("offers the 101st template, its level and its script, as fields of the one form", () => {
    const html = secondPage();
    expect(input(html, "templateIds", "t101")).toMatch(/type="checkbox"/);
    expect(input(html, "templateIds", "t101")).toContain('form="run"');
    expect(input(html, "levelIds", "l101")).toContain('form="run"');
    // Under the heading of its template and level.
    expect(html).toMatch(/<optgroup label="Template 101: Load"><option value="s101">Script 101<\/option><\/optgroup>/);
    expect(html).toContain("Page 2 of 2 · 105 templates");
    // Previous submits the form (with every choice of this page) rather than follow a link.
    for (const attribute of ['type="submit"', 'form="run"', 'name="page"', 'value="1"']) expect(button(html, "Previous")).toContain(attribute);
    // Start the run posts the same form to this page, its search kept.
    for (const attribute of [
      'type="submit"',
      'form="run"',
      'name="intent"',
      'value="start"',
      'formMethod="post"',
      `formAction="${page}?companyId=c1&amp;type=Full`,
    ])
      expect(button(html, "Start the run")).toContain(attribute);
  });

  it("keeps what was chosen on other pages and on this one: ticks, type, what to run, script, on error", () => {
    const html = secondPage();
    const form = /<form[^>]*id="run"[^>]*>[^]*?<\/form>/.exec(html)?.[0] ?? "";
    expect(form).toContain('role="search"');
    // Its Search and page buttons post it to this URL (however many ticks, never a URL too long for the server): redirected from there.
    const opening = /^<form[^>]*>/.exec(form)?.[0] ?? "";
    for (const attribute of ['method="post"', `action="${page}?companyId=c1&amp;type=Full`]) expect(opening).toContain(attribute);
    // Page 1's tick and a level of another page: hidden fields of the form; this page's tick, its checkbox, ticked.
    expect(input(form, "templateIds", "t1")).toContain('type="hidden"');
    expect(input(form, "levelIds", "l7")).toContain('type="hidden"');
    expect(input(html, "templateIds", "t102")).toMatch(/type="checkbox"[^>]*checked=""/);
    expect(input(form, "templateIds", "t102")).toBe("");
    expect(html).toContain("1 more template chosen on other pages.");
    expect(html).toContain("1 more level chosen on other pages.");
    // The script chosen on another page stays chosen, as an option of its select named as this page's are.
    expect(html).toMatch(/<option value="s3" selected="">Template 3: Load: Script 3 \(on another page\)<\/option>/);
    // Not found by the data API (removed meanwhile): still chosen, said so.
    expect(secondPage(undefined, null)).toMatch(/<option value="s3" selected="">The script chosen on another page<\/option>/);
    expect(input(html, "type", "Full")).toContain('checked=""');
    expect(input(html, "scope", "templates")).toContain('checked=""');
    expect(input(html, "onError", "continue")).toContain('checked=""');
  });

  it("says, under the field, when the URL carried more ticks than a run takes and the rest were dropped", () => {
    expect(secondPage()).not.toContain("were dropped");
    const html = secondPage({ templateIds: true, levelIds: false });
    expect(html).toContain("1 more template chosen on other pages. A run takes at most 100 templates: the ticks past the 100th were dropped.");
    expect(html).not.toContain("A run takes at most 100 levels");
  });
});
