/**
 * A list's GET search form carries the selected company by itself (a GET form's action loses its
 * search), so a search on one company's list never lands on a page without a company.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { ListSearchForm } from "./list-search-form";

function render(company: { id: string } | null) {
  const Stub = createRoutesStub([
    {
      id: "routes/shell",
      path: "/",
      loader: () => ({ company }),
      children: [
        {
          path: "migration/projects",
          Component: () => (
            <ListSearchForm action="/migration/projects" label="Find projects" sort="name" defaultSort="name" pageSize={25} pageSizeId="size" filtered>
              <input name="name" aria-label="Name contains" />
            </ListSearchForm>
          ),
        },
      ],
    },
  ]);
  return renderToStaticMarkup(<Stub initialEntries={["/migration/projects"]} hydrationData={{ loaderData: { "routes/shell": { company } } }} />);
}

describe("ListSearchForm", () => {
  it("sends the selected company with the search, and keeps it in Clear filters", () => {
    const html = render({ id: "c-42" });
    expect(html).toContain('<input type="hidden" name="companyId" value="c-42"/>');
    expect(html).toMatch(/<a [^>]*href="\/migration\/projects\?companyId=c-42"[^>]*>Clear filters<\/a>/);
  });

  it("sends no company field when none is selected", () => {
    expect(render(null)).not.toContain('name="companyId"');
  });
});
