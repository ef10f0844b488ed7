/**
 * The data dictionary's tabs: the data page showing the destination (?database=destination) is headed and
 * crumbed "Destination data", and its tab said "Source data" (and led to the source); it now names what
 * the page shows, and stays on it.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub, Outlet } from "react-router";
import { describe, expect, it } from "vitest";
import { renderPage } from "~/test/render-page";
import ProjectDictionaryLayout from "./layout";

const base = "/migration/projects/p1/data-dictionary";

/** The tabs' links, as [name, href], on the data page showing `database`. */
function tabs(database: "source" | "destination"): [string, string][] {
  const layoutData = { projectId: "p1", dictionary: { tableCount: 1, columnCount: 2, sourceDictionaryName: null }, canEdit: false };
  const Layout = ProjectDictionaryLayout as unknown as React.ComponentType<Record<string, unknown>>;
  const Stub = createRoutesStub([
    {
      id: "routes/shell",
      Component: Outlet,
      children: [
        {
          id: "dictionary",
          path: base,
          Component: () => <Layout loaderData={layoutData} params={{}} matches={[]} />,
          children: [{ id: "source-data", path: "source-data", Component: () => null }],
        },
      ],
    },
  ]);
  const url = `${base}/source-data?companyId=c1${database === "destination" ? "&database=destination" : ""}`;
  const html = renderToStaticMarkup(
    <Stub
      initialEntries={[url]}
      hydrationData={{ loaderData: { "routes/shell": { company: { id: "c1" } }, dictionary: layoutData, "source-data": { database } } }}
    />,
  );
  const nav = /<nav aria-label="Data dictionary">(.*?)<\/nav>/s.exec(html)?.[1] ?? "";
  return [...nav.matchAll(/<a [^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/g)].map((m) => [m[2]!, m[1]!.replace(/&amp;/g, "&")]);
}

describe("the data dictionary's tabs", () => {
  it("name the data page showing the destination Destination data, a link that stays on the destination", () => {
    expect(tabs("destination")).toEqual([
      ["Data definition", `${base}/data-definition/tables?companyId=c1`],
      ["Destination data", `${base}/source-data?companyId=c1&database=destination`],
    ]);
  });

  it("name it Source data otherwise", () => {
    expect(tabs("source")).toEqual([
      ["Data definition", `${base}/data-definition/tables?companyId=c1`],
      ["Source data", `${base}/source-data?companyId=c1`],
    ]);
  });
});

describe("the current one of the data dictionary's tabs", () => {
  const current = (page: string) => {
    const html = renderPage(page, `${page}?companyId=co1`, ProjectDictionaryLayout, {
      projectId: "p1",
      dictionary: { tableCount: 2, columnCount: 5, sourceDictionaryName: null },
      canEdit: true,
    });
    return [...html.matchAll(/<a [^>]*aria-current="page"[^>]*>([^<]*)<\/a>/g)].map((m) => m[1]);
  };

  it("is said and shown on every page below it: a table's page is the definition's, an upload's review the bulk update's", () => {
    expect(current(`${base}/data-definition/tables`)).toEqual(["Data definition"]);
    expect(current(`${base}/tables/Customers/details`)).toEqual(["Data definition"]);
    expect(current(`${base}/source-data`)).toEqual(["Source data"]);
    expect(current(`${base}/bulk-update/upload-data`)).toEqual(["Bulk update"]);
    expect(current(`${base}/bulk-update/review/tables`)).toEqual(["Bulk update"]);
  });
});
