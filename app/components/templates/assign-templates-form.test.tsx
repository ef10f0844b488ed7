/**
 * "Assign templates" carries the ticks of other pages without JavaScript: as hidden fields of its one
 * form, which its Search, its page buttons and its assign button all submit.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { TemplateSummary } from "../../../contracts/templates";
import { templateSummaryOf } from "~/test/fixtures";
import { AssignTemplatesForm, type AssignableSearch } from "./assign-templates-form";

const template = (id: string, name: string) => templateSummaryOf({ id, name, scriptCount: 2 });

/** The opening tag of the button named `name`. */
const button = (html: string, name: string) => html.match(new RegExp(`<button[^>]*>(?=${name}</button>)`))?.[0] ?? "";

function render(url: string, search: AssignableSearch, items: TemplateSummary[], total: number, refused?: { errors: string[]; ticked: string[] }) {
  const Stub = createRoutesStub([
    {
      id: "routes/shell",
      path: "/",
      loader: () => ({ company: { id: "c1" } }),
      children: [
        {
          path: "migration/projects/p1/templates/assigned/add",
          Component: () => (
            <AssignTemplatesForm
              search={search}
              result={{ items, total, page: search.page, pageSize: search.pageSize }}
              errors={refused?.errors ?? []}
              ticked={refused?.ticked}
              noun="project"
            />
          ),
        },
      ],
    },
  ]);
  return renderToStaticMarkup(<Stub initialEntries={[url]} hydrationData={{ loaderData: { "routes/shell": { company: { id: "c1" } } } }} />);
}

describe("AssignTemplatesForm", () => {
  it("on page 2, keeps page 1's ticks as hidden fields of the form its page buttons and assign button submit, and counts them", () => {
    const url = "/migration/projects/p1/templates/assigned/add?companyId=c1&pageSize=10&page=2&selected=a1&selected=a2&selected=b1";
    const search = { name: "", sort: "name", page: 2, pageSize: 10, selected: ["a1", "a2", "b1"], selectionCapped: false, leftOut: [] } as const;
    // Page 1's ticks by name, as the search of the ticks answered them.
    const named = [
      { id: "a1", name: "Alpha" },
      { id: "a2", name: "Apex" },
      { id: "b1", name: "Bravo" },
    ];
    const html = render(url, { ...search, selected: [...search.selected], leftOut: [], named }, [template("b1", "Bravo"), template("b2", "Charlie")], 12);
    const form = html.slice(html.indexOf("<form"), html.indexOf("</form>"));
    // Posted to this URL by its Search and page buttons (the action redirects to the page asked for): never a URL too long for the server.
    const opening = /^<form[^>]*>/.exec(form)?.[0] ?? "";
    expect(opening).toContain('id="assign-templates"');
    expect(opening).toContain('method="post"');
    // Never restored by the browser after Back: the ticks shown are those the URL carries, which the count counts.
    expect(opening).toContain('autoComplete="off"');
    expect(opening).toContain('action="/migration/projects/p1/templates/assigned/add?companyId=c1&amp;pageSize=10&amp;page=2&amp;selected=a1');
    expect(form).toContain('<input type="hidden" name="selected" value="a1"/><input type="hidden" name="selected" value="a2"/>');
    // This page's tick is its checkbox, not a hidden field, so that unticking it drops it.
    expect(form).not.toMatch(/<input type="hidden" name="selected" value="b1"/);
    // Inside the form element, with the page buttons and the assign button: text browsers (w3m, lynx) ignore the form
    // attribute, and showed neither checkbox while "Assign templates" did nothing.
    expect(form).toMatch(/<input type="checkbox"[^>]*value="b1"\/>/);
    expect(form).toMatch(/<input type="checkbox"[^>]*value="b2"\/>/);
    for (const name of ["Search", "Previous", "Assign templates"]) expect(button(form, name), name).not.toBe("");
    expect(html).toMatch(/<input type="checkbox" form="assign-templates"[^>]*name="selected" checked="" value="b1"\/>/);
    expect(html).toMatch(/<input type="checkbox" form="assign-templates"[^>]*name="selected" value="b2"\/>/);
    expect(html).toContain("3 templates selected, 2 on other pages: “Alpha” and “Apex”.");
    // Previous submits the form (page 1), the ticks going with it; Assign posts it to this URL.
    for (const attribute of ['type="submit"', 'form="assign-templates"', 'name="page"', 'value="1"']) expect(button(html, "Previous")).toContain(attribute);
    const assign = button(html, "Assign templates");
    for (const attribute of ['form="assign-templates"', 'formMethod="post"', 'name="intent"', 'value="assign"']) expect(assign).toContain(attribute);
    expect(assign).toContain(
      'formAction="/migration/projects/p1/templates/assigned/add?companyId=c1&amp;pageSize=10&amp;page=2&amp;selected=a1&amp;selected=a2&amp;selected=b1"',
    );
    expect(html).toMatch(
      /<a [^>]*href="\/migration\/projects\/p1\/templates\/assigned\/add\?companyId=c1&amp;page=2&amp;pageSize=10"[^>]*>Clear selection<\/a>/,
    );
  });

  it("shows a refused post's ticks as they were posted, the refusal at the top", () => {
    const url = "/migration/projects/p1/templates/assigned/add?companyId=c1&pageSize=10&page=2&selected=a1&selected=b1";
    const search = { name: "", sort: "name" as const, page: 2, pageSize: 10, selected: ["a1", "b1"], selectionCapped: false, leftOut: [], named: [] };
    const html = render(url, search, [template("b1", "Bravo"), template("b2", "Charlie")], 12, {
      errors: ["At most 100 templates can be chosen at once."],
      ticked: ["a1", "b2"],
    });
    expect(html).toContain("At most 100 templates can be chosen at once.");
    expect(html).toMatch(/<input type="checkbox" form="assign-templates"[^>]*name="selected" value="b1"\/>/);
    expect(html).toMatch(/<input type="checkbox" form="assign-templates"[^>]*name="selected" checked="" value="b2"\/>/);
  });

  it("keeps the ticks through a search that finds nothing, and offers to assign them", () => {
    const url = "/migration/projects/p1/templates/assigned/add?companyId=c1&name=zz&selected=a1";
    const search = {
      name: "zz",
      sort: "name" as const,
      page: 1,
      pageSize: 25,
      selected: ["a1"],
      selectionCapped: false,
      leftOut: [],
      named: [{ id: "a1", name: "Alpha" }],
    };
    const html = render(url, search, [], 0);
    expect(html).toContain('<input type="hidden" name="selected" value="a1"/>');
    expect(html).toContain("1 template selected on other pages: “Alpha”.");
    expect(button(html, "Assign templates")).toContain('formMethod="post"');
  });

  it("clears the search with a submit button of the form, so this page's ticks (its checkboxes) go too; Clear selection drops them all", () => {
    const url = "/migration/projects/p1/templates/assigned/add?companyId=c1&name=r&selected=a1&selected=b1";
    const search = { name: "r", sort: "name", page: 1, pageSize: 25, selected: ["a1", "b1"], selectionCapped: false, leftOut: [] } as const;
    const html = render(url, { ...search, selected: [...search.selected], leftOut: [], named: [] }, [template("b1", "Bravo"), template("b2", "Charlie")], 2);
    const form = html.slice(html.indexOf("<form"), html.indexOf("</form>"));
    // Inside the form whose checkboxes b1 and b2 are (form="assign-templates"), after Search (Enter still searches).
    expect(form).toMatch(/>Search<\/button> ?<button [^>]*>Clear search<\/button>/);
    for (const attribute of ['type="submit"', 'name="clear"', 'value="search"']) expect(button(form, "Clear search")).toContain(attribute);
    expect(html).not.toMatch(/<a [^>]*>Clear search<\/a>/);
    expect(html).toMatch(/<input type="checkbox" form="assign-templates"[^>]*name="selected" checked="" value="b1"\/>/);
    expect(html).toMatch(/<a [^>]*href="\/migration\/projects\/p1\/templates\/assigned\/add\?companyId=c1&amp;name=r"[^>]*>Clear selection<\/a>/);
  });

  it("names the ticked templates that can no longer be assigned, left out of the count and of the form", () => {
    const url = "/migration/projects/p1/templates/assigned/add?companyId=c1&page=2&selected=a1&selected=gone&selected=b1";
    const search = { name: "", sort: "name", page: 2, pageSize: 10, selected: ["a1", "b1"], selectionCapped: false, leftOut: ["Old master"] } as const;
    const html = render(url, { ...search, selected: [...search.selected], leftOut: [...search.leftOut], named: [] }, [template("b1", "Bravo")], 11);
    expect(html).toContain("“Old master” is no longer available to assign; it was left out.");
    expect(html).toContain("2 templates selected, 1 on other page.");
    expect(html).not.toContain('value="gone"');
  });
});
