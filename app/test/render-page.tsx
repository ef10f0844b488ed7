/**
 * A route's page rendered on the server at a URL, as a browser without JavaScript gets it: for the
 * tests of what a page offers (its links, its forms) before anything is posted.
 */
import type { ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub, Outlet } from "react-router";

/**
 * `Page` (a route module's default export) at `url`, matched by `path`, with its loader's and action's
 * data, inside the shell whose selected company is the URL's `companyId` (useCompanyId reads the shell's)
 * and whose other data is `shell` (e.g. the areas the user opens, which useOpenAreas reads).
 */
export function renderPage(path: string, url: string, Page: ComponentType<never>, loaderData: unknown, actionData?: unknown, shell: object = {}): string {
  const Route = Page as unknown as ComponentType<Record<string, unknown>>;
  const companyId = new URL(url, "http://portal").searchParams.get("companyId");
  const Stub = createRoutesStub([
    {
      id: "routes/shell",
      Component: Outlet,
      children: [{ path, Component: () => <Route loaderData={loaderData} actionData={actionData} params={{}} matches={[]} /> }],
    },
  ]);
  return renderToStaticMarkup(
    <Stub initialEntries={[url]} hydrationData={{ loaderData: { "routes/shell": { ...shell, company: companyId ? { id: companyId } : null } } }} />,
  );
}

/** The intents of the page's POST forms, in order. */
export const postedIntents = (html: string) => [...html.matchAll(/<form[^>]*method="post"[^]*?name="intent" value="([^"]+)"/g)].map((m) => m[1]);
