import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { WizardSteps } from "~/components/projects/wizard-steps";
import { handle as detailsHandle } from "./details";
import { handle as stepHandle } from "./layout";

const detailsMeta = detailsHandle.title;
const stepMeta = stepHandle.title;

/** The document title a route's handle gives at `pathname` (with the wizard layout's data for the later steps). */
function titleOf(title: (match: never, pathname: string) => string, pathname: string) {
  const loaderData = { project: { id: "p1", name: "Alpha", status: "SetupDataDictionaryIncomplete" }, noun: "project" };
  return title({ loaderData, pathname: "/ignored" } as never, pathname);
}

describe("the wizard's pages", () => {
  it("each step has a title of its own, saying which step of how many", () => {
    expect(titleOf(detailsMeta, "/migration/projects/create")).toBe("Step 1 of 4: Details · Create project · Data Transformation");
    expect(titleOf(stepMeta, "/migration/projects/create/p1/data-dictionary")).toBe("Step 2 of 4: Data dictionary · Set up Alpha · Data Transformation");
    expect(titleOf(stepMeta, "/migration/projects/create/p1/databases")).toBe("Step 3 of 4: Databases · Set up Alpha · Data Transformation");
    expect(titleOf(stepMeta, "/onboarding/configurations/create/p1/templates")).toBe("Step 3 of 3: Templates · Set up Alpha · Data Transformation");
    expect(titleOf(detailsMeta, "/translations/mappings/create/new/basic-settings")).toBe(
      "Step 1 of 3: Basic settings · Create mapping project · Data Transformation",
    );
    expect(titleOf(stepMeta, "/translations/mappings/create/p1/file-data-structure")).toBe(
      "Step 2 of 3: File data structure · Set up Alpha · Data Transformation",
    );
  });

  it("the step list says which steps are done and which is the current one", () => {
    const path = "/migration/projects/create/p1/databases";
    const Stub = createRoutesStub([{ path, Component: () => <WizardSteps current="databases" project={{ id: "p1", status: "SetupUploadTypeIncomplete" }} /> }]);
    const html = renderToStaticMarkup(<Stub initialEntries={[path]} />);
    const items = [...html.matchAll(/<li[^>]*>(.*?)<\/li>/g)].map((m) => m[1]!);
    expect(items).toHaveLength(4);
    for (const done of items.slice(0, 2)) expect(done).toContain('<span class="sr-only"> (completed)</span>');
    expect(items[2]).toMatch(/aria-current="step"[^>]*>.*Databases/);
    expect(items[2]).not.toContain("completed");
    expect(items[3]).not.toContain("completed");
    expect(html.match(/aria-current/g)).toHaveLength(1);
  });
});
