/**
 * Moving a level past either end of the template through the portal's action against the live
 * services: a forged post (no page offers the move) is refused at the top of the page, and the
 * template neither moves nor gets a new version. And a form posted after what it edits went in
 * another tab (a level deleted, the template archived): the page shows no form for it any more, so
 * its refusal is said at the top of the page too.
 */
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { startLiveServices } from "~/test/live-services";

const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness } = await import("../workspace/test-support");
const { call, api, masterTemplate } = await createHarness();
const templateEdit = await import("./template-edit");
const { middleware } = await import("./template-layout");

const [, acme] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";

/** A master template of Acme named `<name> <uuid>` with the levels Load (its script Customers, masterTemplate's) and Transform, as the data API answers it. */
async function loadThenTransform(name: string) {
  const { id, version } = await masterTemplate(ANALYST, acme.id, `${name} ${crypto.randomUUID()}`);
  return api(ANALYST, "POST", `/api/v1/master-templates/${id}/levels`, { version, name: "Transform" });
}

describe("moving a level past either end of its template", () => {
  it.each([
    ["first", "up", "That level is already first."],
    ["last", "down", "That level is already last."],
  ] as const)("the %s level moved %s is refused at the top: nothing moves and the version stays", async (which, direction, message) => {
    const template = await loadThenTransform("Ends");
    const base = `/api/v1/master-templates/${template.id}`;
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

type Answer = { init: { status: number }; data: { errors: string[]; form: string | null } };

describe("a template's form whose level or template went in another tab", () => {
  it("is refused at the top of the page, where it is read, and changes nothing", async () => {
    const page = await loadThenTransform("Gone");
    const base = `/api/v1/master-templates/${page.id}`;
    const [load, transform] = page.levels as { id: string; name: string }[];
    const post = (form: Record<string, string>) =>
      call(ANALYST, `/migration/master-templates/${page.id}/edit?companyId=${acme.id}`, templateEdit.action, {
        params: { templateId: page.id },
        middleware: middleware as never[],
        form,
      }) as Promise<Answer>;

    // Another tab deletes Transform; this one, still showing it, renames it (with the version it read, or the new one).
    const afterDelete = await api(ANALYST, "DELETE", `${base}/levels/${transform!.id}?version=${page.version}`);
    const renameGone = (version: number) => post({ intent: "rename-level", levelId: transform!.id, version: String(version), name: "Renamed" });
    expect(await renameGone(page.version)).toMatchObject({
      init: { status: 409 },
      data: { errors: [expect.stringMatching(/^You changed this template in another tab or window at .*\. Nothing was saved\.$/)] },
    });
    expect(await renameGone(afterDelete.version)).toMatchObject({ init: { status: 404 }, data: { errors: ["Level not found."] } });
    // Another tab archives the template (Draft → Available → Archived; Load has its script); this one saves its details, adds a level.
    const available = await api(ANALYST, "POST", `${base}/status`, { version: afterDelete.version, status: "Available" });
    const archived = await api(ANALYST, "POST", `${base}/status`, { version: available.version, status: "Archived" });
    const forms: Record<string, string>[] = [
      { intent: "update", version: String(archived.version), name: "New name", description: "", type: "Core" },
      { intent: "add-level", version: String(archived.version), name: "Check" },
      { intent: "rename-level", levelId: load!.id, version: String(archived.version), name: "Loaded" },
    ];
    for (const form of forms) {
      const answer = await post(form);
      expect(answer.init.status).toBe(409);
      expect(answer.data.errors).toEqual(["This template is archived: it is read-only."]);
    }
    const after = await api(ANALYST, "GET", base);
    expect([after.name, after.version, after.levels.map((l: { name: string }) => l.name)]).toEqual([page.name, archived.version, ["Load"]]);
  });
});
