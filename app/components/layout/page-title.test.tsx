import type { UIMatch } from "react-router";
import { describe, expect, it } from "vitest";
import { handle as areaHandle } from "~/routes/area/layout";
import { handle as workspacesHandle } from "~/routes/workspace/layout";
import { handle as projectHandle } from "~/routes/workspace/project/layout";
import { handle as dictionaryHandle } from "~/routes/workspace/project/data-dictionary/layout";
import { handle as tablesHandle } from "~/routes/workspace/project/data-dictionary/tables";
import { handle as stepHandle } from "~/routes/workspace/create/layout";
import { pageTitleOf } from "./breadcrumbs";

const match = (id: string, pathname: string, handle: unknown, loaderData?: unknown) =>
  ({ id, pathname, handle, loaderData, data: loaderData, params: {} }) as UIMatch<unknown, unknown>;
const FALLBACK = "Data Transformation · Acme";

describe("a page's document title", () => {
  it("names the page first, then what it belongs to, as its breadcrumb trail does", () => {
    const base = "/migration/projects/p1";
    const matches = [
      match("root", "/", undefined),
      match("area", "/migration", areaHandle),
      match("workspaces", "/migration/projects", workspacesHandle),
      match("project", base, projectHandle, { project: { name: "Alpha" } }),
      match("dictionary", `${base}/data-dictionary`, dictionaryHandle),
      match("tables", `${base}/data-dictionary/tables`, tablesHandle),
    ];
    expect(pageTitleOf(matches, FALLBACK)).toBe("Tables · Data dictionary · Alpha · Data Transformation");
    // Two pages of one project differ in their titles (they were both "Alpha · Data Transformation").
    expect(pageTitleOf(matches.slice(0, 4), FALLBACK)).toBe("Alpha · Projects · Migrations · Data Transformation");
  });

  it("takes a route's own title where the crumbs do not say it (a wizard's step), and the fallback where nothing names the page", () => {
    const matches = [
      match("root", "/", undefined),
      match("area", "/migration", areaHandle),
      match("wizard", "/migration/projects/create/p1", stepHandle, { project: { name: "Alpha" }, noun: "project" }),
      match("step", "/migration/projects/create/p1/databases", undefined),
    ];
    expect(pageTitleOf(matches, FALLBACK)).toBe("Step 3 of 4: Databases · Set up Alpha · Data Transformation");
    expect(pageTitleOf([match("root", "/", undefined), match("login", "/login", undefined)], FALLBACK)).toBe(FALLBACK);
  });
});
