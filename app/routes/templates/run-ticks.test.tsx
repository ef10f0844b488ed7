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

/** The ticks of other pages as the data API named them: page 1's template and a level of page 7. */
const named = { chosenTemplates: [{ id: "t1", name: "Template 1" }], chosenLevels: [{ id: "l7", templateName: "Template 7", name: "Load" }] };

function secondPage(
  dropped = { templateIds: false, levelIds: false },
  chosenScript: ChosenScript | null = script3,
  chosen = named,
  templateIds = ["t1", "t102"],
) {
  return renderPage(page, `${page}${search}`, RunTemplates, {
    notRunnable: null,
    search: {
      name: "",
      sort: "name",
      page: 2,
      pageSize: 100,
      type: "Full",
      scope: "templates",
      templateIds,
      levelIds: ["l7"],
      scriptId: "s3",
      onError: "continue",
      dropped,
    },
    templates: { items: [101, 102, 103, 104, 105].map(choice), total: 105, page: 2, pageSize: 100, chosenScript, ...chosen },
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
    // Never restored by the browser after Back (without JavaScript, a box the URL leaves out came back ticked): the page shows its URL's choices.
    for (const attribute of ['method="post"', `action="${page}?companyId=c1&amp;type=Full`, 'autoComplete="off"']) expect(opening).toContain(attribute);
    // Page 1's tick and a level of another page: hidden fields of the form; this page's tick, its checkbox, ticked.
    expect(input(form, "templateIds", "t1")).toContain('type="hidden"');
    expect(input(form, "levelIds", "l7")).toContain('type="hidden"');
    expect(input(html, "templateIds", "t102")).toMatch(/type="checkbox"[^>]*checked=""/);
    // This page's tick is its checkbox only: no hidden field of it, which unticking would leave behind.
    expect(input(form, "templateIds", "t102")).toMatch(/type="checkbox"/);
    expect(form).not.toMatch(/<input type="hidden" name="templateIds" value="t102"/);
    expect(html).toContain("1 more template chosen on other pages: “Template 1”.");
    expect(html).toContain("1 more level chosen on other pages: “Template 7: Load”.");
    // The script chosen on another page stays chosen, as an option of its select named as this page's are.
    expect(html).toMatch(/<option value="s3" selected="">Template 3: Load: Script 3 \(on another page\)<\/option>/);
    // Not found by the data API (removed meanwhile): still chosen, said so.
    expect(secondPage(undefined, null)).toMatch(/<option value="s3" selected="">The script chosen on another page<\/option>/);
    expect(input(html, "type", "Full")).toContain('checked=""');
    expect(input(html, "scope", "templates")).toContain('checked=""');
    expect(input(html, "onError", "continue")).toContain('checked=""');
  });

  it("holds every field and button inside its form element, for text browsers that ignore the form attribute", () => {
    // w3m and lynx show a control outside the form element as no part of it: "Start the run" did nothing, the ticks went nowhere.
    const form = /<form[^>]*id="run"[^>]*>[^]*?<\/form>/.exec(secondPage())?.[0] ?? "";
    for (const [name, value] of [
      ["type", "Full"],
      ["scope", "templates"],
      ["templateIds", "t102"],
      ["levelIds", "l101"],
      ["onError", "continue"],
    ])
      expect(input(form, name!, value!), `${name}=${value}`).not.toBe("");
    expect(form).toMatch(/<select[^>]*name="scriptId"/);
    for (const name of ["Search", "Previous", "Start the run"]) expect(button(form, name), name).not.toBe("");
  });

  it("names the templates chosen on other pages, the first three and how many more, and counts those the data API did not find", () => {
    const ids = ["t1", "t2", "t3", "t4", "t5", "t6"];
    const all = { ...named, chosenTemplates: ids.map((id) => ({ id, name: `Template ${id.slice(1)}` })) };
    expect(secondPage(undefined, script3, all, ids)).toContain("6 more templates chosen on other pages: “Template 1”, “Template 2”, “Template 3” and 3 more.");
    // Four named: all four rather than "and 1 more".
    expect(secondPage(undefined, script3, all, ids.slice(0, 4))).toContain(
      "4 more templates chosen on other pages: “Template 1”, “Template 2”, “Template 3” and “Template 4”.",
    );
    // Two ticked, one removed meanwhile: the other named, the removed one counted.
    expect(secondPage(undefined, script3, named, ["t1", "t9"])).toContain("2 more templates chosen on other pages: “Template 1” and 1 more.");
    expect(secondPage(undefined, script3, { chosenTemplates: [], chosenLevels: [] }, ["t9"])).toContain("1 more template chosen on other pages.");
  });

  it("says, under the field, when the URL carried more ticks than a run takes and the rest were dropped", () => {
    expect(secondPage()).not.toContain("were dropped");
    const html = secondPage({ templateIds: true, levelIds: false });
    expect(html).toContain("1 more template chosen on other pages: “Template 1”. A run takes at most 100 templates: the ticks past the 100th were dropped.");
    expect(html).not.toContain("A run takes at most 100 levels");
  });
});
