import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { handle as workspaceHandle } from "~/routes/workspace/project/layout";
import { handle as templateHandle } from "~/routes/templates/template-layout";
import { CompanyPicker, initials } from "./company-picker";

const companies = [
  { id: "c1", name: "Acme Health" },
  { id: "c2", name: "Birch" },
] as Parameters<typeof CompanyPicker>[0]["companies"];

function render(company: (typeof companies)[number] | null) {
  const Stub = createRoutesStub([{ path: "/migration/projects", Component: () => <CompanyPicker companies={companies} company={company} /> }]);
  return renderToStaticMarkup(<Stub initialEntries={["/migration/projects"]} />);
}

describe("the company picker in the collapsed rail", () => {
  it("shows the company's initials (hidden from assistive technology), the select keeping the name as value and title", () => {
    const html = render(companies[0]!);
    expect(html).toMatch(/<span aria-hidden="true" class="company-badge[^"]*">AH<\/span><select id="company-picker"/);
    expect(html).toContain('title="Company: Acme Health"');
    expect(html).toMatch(/<label for="company-picker"[^>]*>Company<\/label>/);
  });

  it("has no badge without a company: the select shows as it is", () => {
    expect(render(null)).not.toContain("company-badge");
  });

  it("initials: the first letters of two words, or a single word's first two", () => {
    expect(initials("Acme Health")).toBe("AH");
    expect(initials("  cedar   retail group ")).toBe("CR");
    expect(initials("Birch")).toBe("BI");
    expect(initials("Émile")).toBe("ÉM");
  });
});

describe("where switching company goes from a page", () => {
  const picker = () => <CompanyPicker companies={companies} company={companies[0]!} />;
  const actionAt = (url: string) => {
    const Stub = createRoutesStub([
      {
        path: "/migration/projects/:projectId",
        handle: workspaceHandle,
        children: [{ path: "templates/:templateId/edit", handle: templateHandle, Component: picker }],
      },
      { path: "/migration/master-templates/:templateId/edit", handle: templateHandle, Component: picker },
    ]);
    return /<form[^>]*action="([^"]*)"/.exec(renderToStaticMarkup(<Stub initialEntries={[url]} />))?.[1];
  };

  it("from a project's template goes to the list of projects: the project and its templates are the old company's", () => {
    // The template's own list (the project's assigned templates) would be the project in the other company: not found.
    expect(actionAt("/migration/projects/p1/templates/t1/edit")).toBe("/migration/projects");
  });

  it("from a master template goes to the master templates", () => {
    expect(actionAt("/migration/master-templates/t1/edit")).toBe("/migration/master-templates");
  });
});
