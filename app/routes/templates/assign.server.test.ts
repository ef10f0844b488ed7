/**
 * "Assign templates" against the live services: the data API leaves out in SQL the master templates
 * the project holds, so past the first hundred the others are still offered, a page at a time and
 * found by name through the URL.
 */
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { createTemplate } from "../../../services/data-api/src/repositories/templates";
import { startLiveServices } from "~/test/live-services";

const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness } = await import("../workspace/test-support");
const { call, api } = await createHarness();
const assign = await import("./assign");
const { middleware: projectMiddleware } = await import("../workspace/project/layout");

const [, acme] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";

type Offered = { search: { name: string; page: number; pageSize: number }; templates: { items: { name: string }[]; total: number; page: number } };

describe("assigning master templates to a project", () => {
  it("offers those it does not hold past the first 100, by name, a page at a time through the URL", async () => {
    const application = await api(ANALYST, "POST", "/api/v1/applications", { companyId: acme.id, name: `Bulk app ${crypto.randomUUID()}`, description: null });
    const project = await api(ANALYST, "POST", "/api/v1/projects", {
      companyId: acme.id,
      name: "Many templates",
      applicationId: application.id,
      sourceType: "BackUp",
      description: null,
    });
    // 105 Available masters, written directly (the API would need four calls each); the first 100 assigned.
    const bulk = `Bulk ${crypto.randomUUID().slice(0, 8)}`;
    const ids: string[] = [];
    for (let i = 1; i <= 105; i++) {
      const name = `${bulk} ${String(i).padStart(3, "0")}`;
      const write = {
        userId: "seed",
        userName: null,
        companyId: acme.id,
        area: "migration" as const,
        projectId: null,
        description: null,
        type: "Core" as const,
      };
      ids.push(await createTemplate(live.dataApiDb, { ...write, name, status: "Available" }));
    }
    await api(ANALYST, "POST", `/api/v1/projects/${project.id}/templates/assign`, { templateIds: ids.slice(0, 100) });

    const offered = async (search: string) =>
      (await call(ANALYST, `/migration/projects/${project.id}/templates/assigned/add?companyId=${acme.id}&${search}`, assign.loader, {
        params: { projectId: project.id },
        middleware: projectMiddleware as never[],
      })) as Offered;
    const found = await offered(`name=${encodeURIComponent(bulk)}`);
    expect(found.search).toEqual({ name: bulk, sort: "name", page: 1, pageSize: 25 });
    expect(found.templates.total).toBe(5);
    expect(found.templates.items.map((t) => t.name)).toEqual([101, 102, 103, 104, 105].map((i) => `${bulk} ${i}`));
    // The next page, by the URL's page and page size.
    const second = await offered(`name=${encodeURIComponent(bulk)}&page=2&pageSize=10`);
    expect(second.templates).toMatchObject({ items: [], total: 5, page: 2 });
  });
});
