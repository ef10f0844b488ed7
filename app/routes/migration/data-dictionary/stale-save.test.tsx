/**
 * A dictionary save refused as stale (409: the dictionary changed in another tab or by someone else)
 * with JavaScript: the pages are read again (shouldRevalidate), and the form then shows what the
 * user typed and sends the version it now shows, so the next try is applied. The forms are rendered
 * as the server renders them, with the page's data read again and the refusal's result.
 */
import type { SubmissionResult } from "@conform-to/react";
import type { ComponentType } from "react";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { tableEditorDefaults } from "~/components/dictionary/table-editor";
import * as dictionaryLayout from "./dictionary-layout";
import * as applicationPage from "./application";
import * as tablePage from "./table";
import * as definitionPage from "./data-definition";
import * as projectLayout from "~/routes/workspace/project/data-dictionary/layout";
import * as projectTable from "~/routes/workspace/project/data-dictionary/table-details";
import * as projectNewTable from "~/routes/workspace/project/data-dictionary/table-new";
import * as projectTables from "~/routes/workspace/project/data-dictionary/tables";
import * as wizardStep from "~/routes/workspace/create/data-dictionary";

const STALE = "You changed this dictionary in another tab or window at 14:05 UTC. Nothing was saved.";

/** The refusal as refusedByService answers it: what was posted (at the version the tab had read), the message at the top. */
const refused = (initialValue: NonNullable<SubmissionResult<string[]>["initialValue"]>): SubmissionResult<string[]> => ({
  status: "error",
  initialValue,
  error: { "": [STALE] },
});

/** Renders a route's page at `path` with its loader's and action's data, as the server renders it. */
function render(path: string, Page: ComponentType<never>, loaderData: unknown, result: SubmissionResult<string[]>): string {
  const Any = Page as ComponentType<Record<string, unknown>>;
  const Stub = createRoutesStub([{ path, Component: () => <Any loaderData={loaderData} actionData={{ result }} params={{}} matches={[]} /> }]);
  return renderToStaticMarkup(<Stub initialEntries={[path]} />);
}

/** The value of the form's hidden version field. */
const versionSent = (html: string) => /value="(\d+)"/.exec(/<input[^>]* name="version"[^>]*>/.exec(html)?.[0] ?? "")?.[1];

describe("a stale dictionary save, with JavaScript", () => {
  it("reads the header, the table and application pages (master and project) again after a 409, and only then", () => {
    const routes = [dictionaryLayout, applicationPage, tablePage, definitionPage, projectLayout, projectTable, projectNewTable, projectTables, wizardStep];
    const args = (actionStatus: number) => ({ actionStatus, defaultShouldRevalidate: false }) as ShouldRevalidateFunctionArgs;
    for (const route of routes) {
      expect(route.shouldRevalidate(args(409))).toBe(true);
      expect(route.shouldRevalidate(args(400))).toBe(false);
    }
  });

  it("keeps the table the user wrote and sends the version the page read again", () => {
    const posted = { version: "7", name: "Products", description: "", columns: [{ name: "Sku", type: "nvarchar", length: "40", nullable: "false" }] };
    const html = render(
      "/migration/data-dictionary/edit/d1/data-definition/tables/new",
      tablePage.default,
      { id: "d1", table: null, defaultValue: tableEditorDefaults(null, 8) },
      refused(posted),
    );
    expect(html).toContain(STALE);
    expect(html).toMatch(/name="name" [^>]*value="Products"/);
    expect(html).toMatch(/name="columns\[0\]\.name" [^>]*value="Sku"/);
    expect(versionSent(html)).toBe("8");
  });

  it("keeps the version a column added without JavaScript was sent with: the values are still based on it", () => {
    const added: SubmissionResult<string[]> = { initialValue: { version: "7", name: "Products", description: "", columns: [{ name: "Sku" }, {}] } };
    const html = render(
      "/migration/data-dictionary/edit/d1/data-definition/tables/new",
      tablePage.default,
      { id: "d1", table: null, defaultValue: tableEditorDefaults(null, 8) },
      added,
    );
    expect(versionSent(html)).toBe("7");
  });

  it("keeps the application's name and description the user wrote and sends the version the page read again", () => {
    const dictionary = { id: "d1", name: "Edited elsewhere", description: null, applicationName: "ERP", version: 8 };
    const html = render(
      "/migration/data-dictionary/edit/d1/application",
      applicationPage.default,
      { dictionary, name: { name: dictionary.name, note: null }, mode: "edit" },
      refused({ version: "7", name: "Mine", description: "kept" }),
    );
    expect(html).toContain(STALE);
    expect(html).toMatch(/name="name" [^>]*value="Mine"/);
    expect(html).toContain(">kept</textarea>");
    expect(versionSent(html)).toBe("8");
  });
});
