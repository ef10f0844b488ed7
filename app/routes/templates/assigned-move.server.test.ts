/**
 * Moving a template in the workspace's run order (…/templates/assigned) through the portal's action
 * against the live services: a post the page never sends (a direction that is neither up nor down, no
 * version) is refused at the top of the page, and the run order and the template stay as they were.
 */
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { INCOMPLETE_REQUEST } from "~/lib/forms.server";
import { isRedirect, startLiveServices } from "~/test/live-services";

const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness, unwrap } = await import("../workspace/test-support");
const { call, api, migrationProject } = await createHarness();
const projectLayout = await import("../workspace/project/layout");
const assigned = await import("./assigned");

const [, acme] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";

describe("moving a template in the run order", () => {
  it("refuses a direction other than up or down, or no version, at the top: nothing moves; the post its buttons send moves it", async () => {
    const project = await migrationProject(ANALYST, acme.id, "Run order");
    const templates = `/api/v1/projects/${project.id}/templates`;
    for (const name of ["First", "Second"]) await api(ANALYST, "POST", templates, { name, type: "Core" });
    const order = async () => (await api(ANALYST, "GET", `${templates}?page=1&pageSize=10`)).items as { id: string; name: string; version: number }[];
    const [first] = await order();
    const move = (form: Record<string, string>) =>
      call(ANALYST, `/migration/projects/${project.id}/templates/assigned?companyId=${acme.id}`, assigned.action, {
        params: { projectId: project.id },
        middleware: projectLayout.middleware,
        form: { intent: "move", templateId: first!.id, ...form },
      });

    const forged: Record<string, string>[] = [
      { version: String(first!.version), direction: "sideways" },
      { version: String(first!.version) },
      { direction: "down" },
    ];
    for (const form of forged) {
      const refused = unwrap(await move(form));
      expect(refused?.status).toBe(400);
      expect(refused?.data.errors).toEqual([INCOMPLETE_REQUEST]);
      expect((await order()).map((t) => [t.name, t.version])).toEqual([
        ["First", first!.version],
        ["Second", expect.any(Number)],
      ]);
    }
    expect(
      isRedirect(await move({ version: String(first!.version), direction: "down" }), new RegExp(`^/migration/projects/${project.id}/templates/assigned\\?`)),
    ).toBe(true);
    expect((await order()).map((t) => t.name)).toEqual(["Second", "First"]);
  });
});
