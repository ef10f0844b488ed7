/**
 * Moving a level past either end of the template through the portal's action against the live
 * services: a forged post (no page offers the move) is refused at the top of the page, and the
 * template neither moves nor gets a new version.
 */
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { startLiveServices } from "~/test/live-services";

const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness } = await import("../workspace/test-support");
const { call, api } = await createHarness();
const templateEdit = await import("./template-edit");
const { middleware } = await import("./template-layout");

const [, acme] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";

describe("moving a level past either end of its template", () => {
  it.each([
    ["first", "up", "That level is already first."],
    ["last", "down", "That level is already last."],
  ] as const)("the %s level moved %s is refused at the top: nothing moves and the version stays", async (which, direction, message) => {
    const created = await api(ANALYST, "POST", "/api/v1/master-templates", {
      companyId: acme.id,
      area: "migration",
      name: `Ends ${crypto.randomUUID()}`,
      type: "Core",
    });
    const base = `/api/v1/master-templates/${created.id}`;
    const one = await api(ANALYST, "POST", `${base}/levels`, { version: created.version, name: "Load" });
    const template = await api(ANALYST, "POST", `${base}/levels`, { version: one.version, name: "Transform" });
    const level = which === "first" ? template.levels[0] : template.levels[1];
    const answer = (await call(ANALYST, `/migration/master-templates/${template.id}/edit?companyId=${acme.id}`, templateEdit.action, {
      params: { templateId: template.id },
      middleware: middleware as never[],
      form: { intent: "move-level", levelId: level.id, version: String(template.version), direction },
    })) as { init: { status: number }; data: { errors: string[] } };
    expect(answer.init.status).toBe(400);
    expect(answer.data.errors).toEqual([message]);
    const after = await api(ANALYST, "GET", base);
    expect(after.version).toBe(template.version);
    expect(after.levels.map((l: { name: string }) => l.name)).toEqual(["Load", "Transform"]);
  });
});
