/**
 * The error page shows the portal's own refusal lines, and for the router's own errors (a POST to a page
 * without an action) a sentence for users, never the router's text written for developers.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub, Outlet, UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { workspaceOf } from "~/test/fixtures";
import ProjectLayout from "~/routes/workspace/project/layout";
import { RouteErrorBoundary } from "./route-error-page";

const headings = (html: string) => [...html.matchAll(/<(h[1-6])[^>]*>([^<]*)<\/h[1-6]>/g)].map(([, tag, text]) => `${tag} ${text}`);

function render(error: unknown) {
  const Stub = createRoutesStub([{ id: "page", path: "/p", Component: () => null, ErrorBoundary: RouteErrorBoundary }]);
  return renderToStaticMarkup(<Stub initialEntries={["/p"]} hydrationData={{ errors: { page: error } }} />);
}

describe("the error page", () => {
  it("shows the lines of the portal's own refusal", () => {
    const html = render(new ErrorResponse(404, "Not Found", { errors: ["No such template."] }));
    expect(html).toContain("Not found");
    expect(html).toContain("No such template.");
  });

  it("says what to do for a POST to a page without an action, not the router's text", () => {
    const routerText = 'Error: You made a POST request to "/p" but did not provide an `action` for route "page", so there is no way to handle the request.';
    const html = render(new ErrorResponse(405, "Method Not Allowed", routerText, true));
    expect(html).toContain("This page does not take that request. Go back to the page and use its own buttons.");
    expect(html).not.toContain("action");
  });

  it("links the main page of the company the user is in, not the first company's", () => {
    const Stub = createRoutesStub([
      { id: "routes/shell", path: "/", Component: Outlet, children: [{ id: "page", path: "p", Component: () => null, ErrorBoundary: RouteErrorBoundary }] },
    ]);
    const html = renderToStaticMarkup(
      <Stub
        initialEntries={["/p?companyId=birch"]}
        hydrationData={{
          loaderData: { "routes/shell": { company: { id: "birch" } } },
          errors: { page: new ErrorResponse(404, "Not Found", { errors: ["Project not found."] }) },
        }}
      />,
    );
    expect(html).toContain("Project not found.");
    expect(html).toMatch(/<a [^>]*href="\/\?companyId=birch"[^>]*>Go to main page<\/a>/);
  });

  it("is the page's h1 on its own, an h2 under a project's name (its h1 over its tabs): a page has one h1", () => {
    expect(headings(render(new ErrorResponse(404, "Not Found", { errors: ["No such template."] })))).toEqual(["h1 Not found"]);
    const project = {
      ...workspaceOf({ id: "p1", name: "Payroll move", status: "Active", sourceType: "FlatFile" }),
      statusLabel: "Active",
      source: "Flat file",
      lockReasonLabel: null,
      isDefault: false,
    };
    const layout = { project, access: { canRead: true, canWrite: true }, readAt: 0 };
    const Stub = createRoutesStub([
      {
        id: "routes/shell",
        path: "/",
        Component: Outlet,
        children: [
          {
            id: "workspace",
            path: "migration/projects/:projectId",
            Component: () => <ProjectLayout loaderData={layout} params={{ projectId: "p1" }} matches={[] as never} />,
            children: [{ id: "page", path: "data-dictionary/tables/:tableId/details", Component: () => null, ErrorBoundary: RouteErrorBoundary }],
          },
        ],
      },
    ]);
    const html = renderToStaticMarkup(
      <Stub
        initialEntries={["/migration/projects/p1/data-dictionary/tables/t9/details?companyId=co1"]}
        hydrationData={{
          loaderData: { "routes/shell": { company: { id: "co1" } }, workspace: layout },
          errors: { page: new ErrorResponse(404, "Not Found", { errors: ["Table not found."] }) },
        }}
      />,
    );
    expect(html).toContain("Table not found.");
    expect(headings(html)).toEqual(["h1 Payroll move", "h2 Not found"]);
  });
});
