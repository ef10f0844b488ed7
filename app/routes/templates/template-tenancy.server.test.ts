/**
 * A template page names its template (and script) in the URL: one of another company than the
 * selected one, of another area, or a script of another template answers 404 like an unknown id, to
 * a page and to a post, and the post changes nothing. The analyst works in Acme and Birch, so the
 * data API would answer Birch's template: the portal's own check of the selected company is what
 * keeps it out of Acme's pages.
 */
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { startLiveServices } from "~/test/live-services";

const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness, unwrap } = await import("../workspace/test-support");
const harness = await createHarness();
const { call, api } = harness;
const templateEdit = await import("./template-edit");
const scriptView = await import("./script-view");
const { middleware: templateMiddleware } = await import("./template-layout");
const { middleware: scriptMiddleware } = await import("./script-layout");

const [, acme, birch] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";

const masterTemplate = (companyId: string) => harness.masterTemplate(ANALYST, companyId, `Tenancy ${crypto.randomUUID()}`);

const notFound = (answer: unknown) => unwrap(answer)?.status;

describe("a template named in the URL", () => {
  it("of another company than the selected one (both the user's) is not found, to the page and to a post, and the post changes nothing", async () => {
    const theirs = await masterTemplate(birch.id);
    const params = { templateId: theirs.id };
    const path = `/migration/master-templates/${theirs.id}/edit?companyId=${acme.id}`;
    expect(notFound(await call(ANALYST, path, templateEdit.loader, { params, middleware: templateMiddleware as never[] }))).toBe(404);
    const rename = { intent: "update", version: String(theirs.version), name: "Renamed from Acme", description: "", type: "Core" };
    expect(notFound(await call(ANALYST, path, templateEdit.action, { params, middleware: templateMiddleware as never[], form: rename }))).toBe(404);
    expect((await api(ANALYST, "GET", `/api/v1/master-templates/${theirs.id}`)).name).toBe(theirs.name);
    // In its own company it opens.
    const own = `/migration/master-templates/${theirs.id}/edit?companyId=${birch.id}`;
    expect(unwrap(await call(ANALYST, own, templateEdit.loader, { params, middleware: templateMiddleware as never[] }))).toBeNull();
  });

  it("of another area (a Migrations master under Data Onboarding) is not found", async () => {
    const ours = await masterTemplate(acme.id);
    const path = `/onboarding/master-templates/${ours.id}/edit?companyId=${acme.id}`;
    expect(notFound(await call(ANALYST, path, templateEdit.loader, { params: { templateId: ours.id }, middleware: templateMiddleware as never[] }))).toBe(404);
  });

  it("with a script of another template (or another level) is not found", async () => {
    const [ours, other] = [await masterTemplate(acme.id), await masterTemplate(acme.id)];
    const view = (levelId: string, scriptId: string) =>
      call(ANALYST, `/migration/master-templates/${ours.id}/edit/level/${levelId}/script/view/${scriptId}?companyId=${acme.id}`, scriptView.loader, {
        params: { templateId: ours.id, levelId, scriptId },
        middleware: [...templateMiddleware, ...scriptMiddleware] as never[],
      });
    expect(notFound(await view(ours.levelId, other.scriptId))).toBe(404);
    expect(notFound(await view(other.levelId, ours.scriptId))).toBe(404);
    expect(unwrap(await view(ours.levelId, ours.scriptId))).toBeNull();
  });
});
