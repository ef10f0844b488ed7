/**
 * A template write refused as stale (409: the template changed in another tab or by someone else)
 * with JavaScript: every template and script page that sends the template's version reads itself
 * again (shouldRevalidate), so the form then sends the version it now shows and the next try is
 * applied, with what the user typed kept. Without it, "Add script" kept the version it was refused
 * at and refused every retry until the user reloaded the page, losing the SQL they had typed.
 */
import type { SubmissionResult } from "@conform-to/react";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import * as assigned from "./assigned";
import * as scriptCreate from "./script-create";
import * as scriptDetails from "./script-details";
import * as scriptEdit from "./script-edit";
import * as scriptLayout from "./script-layout";
import * as scriptVersion from "./script-version";
import * as templateEdit from "./template-edit";
import * as templateLayout from "./template-layout";

const STALE = "You changed this template in another tab or window at 14:05 UTC. Nothing was saved.";

describe("a stale template save, with JavaScript", () => {
  it("reads every page that sends the template's version again after a 409, and not after a 400", () => {
    const args = (actionStatus: number) => ({ actionStatus, defaultShouldRevalidate: false }) as ShouldRevalidateFunctionArgs;
    for (const route of [assigned, scriptCreate, scriptDetails, scriptEdit, scriptLayout, scriptVersion, templateEdit, templateLayout]) {
      expect(route.shouldRevalidate(args(409))).toBe(true);
      expect(route.shouldRevalidate(args(400))).toBe(false);
    }
  });

  it("keeps the script the user typed in Add script and sends the version the page read again", () => {
    const result: SubmissionResult<string[]> = {
      status: "error",
      initialValue: { version: "7", name: "Load customers", sql: "insert into target.customers select * from source.customers;", comment: "" },
      error: { "": [STALE] },
    };
    const loaderData = { templateId: "t1", templateVersion: 8, level: { id: "l1", name: "Load" } };
    const path = "/migration/master-templates/t1/edit/level/l1/script/create";
    const Page = scriptCreate.default as unknown as (props: Record<string, unknown>) => React.ReactNode;
    const Stub = createRoutesStub([{ path, Component: () => <Page loaderData={loaderData} actionData={{ result }} params={{}} matches={[]} /> }]);
    const html = renderToStaticMarkup(<Stub initialEntries={[path]} />);
    expect(html).toContain(STALE);
    expect(html).toMatch(/name="name" [^>]*value="Load customers"/);
    expect(html).toContain("insert into target.customers select * from source.customers;");
    expect(/<input[^>]* name="version"[^>]*>/.exec(html)?.[0]).toContain('value="8"');
  });

  it("says a restore refused as stale at the top of the version's page, whose Restore form sends the newest version the page read", () => {
    const refusal =
      "You changed this script in another tab or window at 14:05 UTC. Version 3 was saved after the version 2 your restore was based on: version 1 was not restored.";
    const loaderData = {
      script: { id: "s1", levelId: "l1", templateId: "t1", version: 3 },
      version: { version: 1, sql: "select 1;", comment: null, createdAt: "2026-01-01T00:00:00.000Z", author: "u1", authorName: "Ann" },
      canRestore: true,
      needsLock: false,
    };
    const path = "/migration/master-templates/t1/edit/level/l1/script/edit/s1/version/1";
    const Page = scriptVersion.default as unknown as (props: Record<string, unknown>) => React.ReactNode;
    const Stub = createRoutesStub([
      { path, Component: () => <Page loaderData={loaderData} actionData={{ errors: [refusal] }} params={{ version: "1" }} matches={[]} /> },
    ]);
    const html = renderToStaticMarkup(<Stub initialEntries={[path]} />);
    expect(html).toContain(refusal);
    expect(/<input[^>]* name="version"[^>]*>/.exec(html)?.[0]).toContain('value="3"');
  });
});
