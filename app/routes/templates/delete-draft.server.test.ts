/**
 * Deleting a Draft master template (one made by mistake) through the portal's action against the live
 * services: it goes with its levels and scripts and the user lands on the list; one made available is
 * refused at the top of the page, another company's is not found, and neither is deleted.
 */
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { ONLY_DRAFT_DELETED_MESSAGE } from "../../../contracts/values/templates";
import { startLiveServices } from "~/test/live-services";

const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness, unwrap } = await import("../workspace/test-support");
const harness = await createHarness();
const { call, api } = harness;
const templateEdit = await import("./template-edit");
const { middleware } = await import("./template-layout");

const [, acme, birch] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";

const draft = (companyId: string) => harness.masterTemplate(ANALYST, companyId, `Mistake ${crypto.randomUUID()}`);
const remove = (template: { id: string; version: number }, companyId: string) =>
  call(ANALYST, `/migration/master-templates/${template.id}/edit?companyId=${companyId}`, templateEdit.action, {
    params: { templateId: template.id },
    middleware: middleware as never[],
    form: { intent: "delete", version: String(template.version) },
  });
const found = async (template: { name: string }, companyId: string) =>
  (await api(ANALYST, "GET", "/api/v1/master-templates", undefined, { companyId, area: "migration", name: template.name })).total as number;

describe("deleting a Draft master template", () => {
  it("deletes it and goes to the list, which no longer has it", async () => {
    const template = await draft(acme.id);
    const answer = await remove(template, acme.id);
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(302);
    expect((answer as Response).headers.get("Location")).toBe(`/migration/master-templates?companyId=${acme.id}`);
    expect(await found(template, acme.id)).toBe(0);
  });

  it("refuses one made available at the top of the page: it stays, at its version", async () => {
    const template = await draft(acme.id);
    const available = await api(ANALYST, "POST", `/api/v1/master-templates/${template.id}/status`, { version: template.version, status: "Available" });
    expect(unwrap(await remove(available, acme.id))).toEqual({ status: 409, data: { errors: [ONLY_DRAFT_DELETED_MESSAGE], form: null, result: null } });
    expect(await api(ANALYST, "GET", `/api/v1/master-templates/${template.id}`)).toMatchObject({ status: "Available", version: available.version });
  });

  it("of another company than the selected one (both the user's) is not found, and stays", async () => {
    const theirs = await draft(birch.id);
    expect(unwrap(await remove(theirs, acme.id))?.status).toBe(404);
    expect(await found(theirs, birch.id)).toBe(1);
  });
});
