/**
 * A column's value map is registered beside its table's page, not below it: its breadcrumbs still name
 * the table between the file data structure and the column, a link back to the table's value maps.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub, Outlet } from "react-router";
import { describe, expect, it } from "vitest";
import { Breadcrumbs } from "~/components/layout/breadcrumbs";
import { handle } from "./mapping-column";

describe("the breadcrumbs of a column's value map", () => {
  it("name the table, linking to its value maps, then the column", () => {
    const base = "/translations/mappings/m1/file-data-structure";
    const Stub = createRoutesStub([
      {
        id: "dictionary",
        path: base,
        handle: { breadcrumb: "File data structure" },
        Component: () => (
          <>
            <Breadcrumbs />
            <Outlet />
          </>
        ),
        children: [{ id: "mapping-column", path: "mappingTable/:tableId/column/:columnId", handle, Component: () => null }],
      },
    ]);
    const loaderData = { "mapping-column": { projectId: "m1", tableId: "t1", page: { tableName: "employees", column: { name: "grade" } } } };
    const html = renderToStaticMarkup(<Stub initialEntries={[`${base}/mappingTable/t1/column/c1`]} hydrationData={{ loaderData }} />);
    const crumbs = [...html.matchAll(/<li[^>]*>(.*?)<\/li>/g)].map((m) =>
      m[1]!
        .replace(/<svg.*?<\/svg>/g, "")
        .replace(/<[^>]*>/g, "")
        .trim(),
    );
    expect(crumbs).toEqual(["File data structure", "employees", "grade"]);
    expect(html).toContain(`href="${base}/mappingTable/t1"`);
  });
});
