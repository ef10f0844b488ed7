import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES, demoAdminDataSources } from "../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS } from "../../shared/testing/databases.ts";
import { DEMO_CONFIGURATION, seedDemoContent } from "./demo-content.ts";
import { USERS, createTestApi } from "./testing/harness.ts";

const acme = DEMO_COMPANIES[1];

describe.each(TEST_DATABASE_KINDS)("demo content on %s", (kind) => {
  let api: Awaited<ReturnType<typeof createTestApi>>;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());

  it("gives Acme Health an application, a loaded dictionary and a project the analyst owns, once", async () => {
    expect(await seedDemoContent(api.db)).toBe(true);
    expect(await seedDemoContent(api.db)).toBe(false);

    const t = await api.tokenFor(USERS.analyst);
    const apps = await api.get(`/api/v1/applications?companyId=${acme.id}`, t);
    expect(apps.body.items.map((a: { name: string }) => a.name)).toEqual(["Legacy ERP"]);

    const dictionaries = await api.get(`/api/v1/data-dictionaries?companyId=${acme.id}`, t);
    expect(dictionaries.body).toMatchObject({ items: [{ name: "ERP core tables", tableCount: 3, columnCount: 13 }], total: 1 });

    const projects = await api.get(`/api/v1/projects/search?companyId=${acme.id}`, t);
    expect(projects.body.items).toMatchObject([{ name: "ERP customer migration", status: "SetupUploadTypeIncomplete" }]);
    const dictionary = await api.get(`/api/v1/projects/${projects.body.items[0].id}/data-dictionary`, t);
    expect(dictionary.body).toMatchObject({ tableCount: 3, columnCount: 13, sourceDictionaryName: "ERP core tables" });
  });

  it("gives Acme Health its default configuration, Monthly payroll deliveries, serving two of its schemes, owned by the analyst", async () => {
    await seedDemoContent(api.db);
    const t = await api.tokenFor(USERS.analyst);
    const search = await api.get(`/api/v1/audit-projects/search?companyId=${acme.id}`, t);
    expect(search.body.total).toBe(1);
    const [configuration] = search.body.items;
    expect(configuration).toMatchObject({
      name: "Monthly payroll deliveries",
      applicationName: "Legacy ERP",
      status: "SetupAddColumnsIncomplete",
      isDefault: true,
      schemes: DEMO_CONFIGURATION.schemes.map((s) => ({ scheme: { id: s.id, name: s.name } })),
    });
    expect(configuration.schemes).toHaveLength(2);
    // The same ids the client portal seeds for Acme Health.
    const acmeSchemes = demoAdminDataSources(acme.id).map((s) => s.id);
    for (const s of configuration.schemes) expect(acmeSchemes).toContain(s.scheme.id);
    const users = await api.get(`/api/v1/audit-projects/${configuration.id}/users`, t);
    expect(users.body.items).toEqual([{ userId: USERS.analyst.id, canRead: true, canWrite: true, grantedAt: expect.any(String) }]);
    expect((await api.get(`/api/v1/audit-projects/checkdefaultproject/${acme.id}`, t)).body).toEqual({
      hasDefault: true,
      defaultConfiguration: { id: configuration.id, name: "Monthly payroll deliveries" },
    });
    expect(await seedDemoContent(api.db)).toBe(false);
  });
});
