/**
 * The data API against the real client portal (started in-process on its own database, demo-seeded):
 * the admin data sources it serves and the schemes it accepts come from the client portal's table,
 * through the real HTTP client, with the caller's own token.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TRANSLATION_ANALYST_ROLE } from "../../../contracts/roles.ts";
import { DEMO_COMPANIES, demoAdminDataSources } from "../../../scripts/demo-data.ts";
import { createClientPortal, type ClientPortal } from "../../client-portal/src/app.ts";
import { seedDemo as seedClientPortal } from "../../client-portal/src/seed.ts";
import { createMigratedDatabase, silentLogger, testEnv } from "../../client-portal/src/test-support.ts";
import { TEST_DATABASE_KINDS } from "../../shared/testing/databases.ts";
import { createHttpAdminDataSources } from "./admin-data-sources.ts";
import type { Fetch } from "./client-portal-api.ts";
import { createHttpCompanyUsersSource } from "./company-users.ts";
import { createHttpPermissionsSource } from "./permissions.ts";
import { USERS, createTestApi, type TestApi } from "./testing/harness.ts";
import { makeApplication, makeProject } from "./testing/project-fixtures.ts";

const [cedar, acme, birch] = DEMO_COMPANIES;
const CLIENT_PORTAL_URL = "http://client-portal.real";

describe.each(TEST_DATABASE_KINDS)("admin data sources from the real client portal on %s", (kind) => {
  let api: TestApi;
  let clientPortalDb: Awaited<ReturnType<typeof createMigratedDatabase>>;
  let portal: ClientPortal;
  let app: ReturnType<TestApi["appWith"]>;
  /** Every request the data API made of the client portal. */
  const asked: URL[] = [];

  beforeAll(async () => {
    api = await createTestApi(kind);
    clientPortalDb = await createMigratedDatabase(kind);
    await seedClientPortal(clientPortalDb.db, DEFAULT_TRANSLATION_ANALYST_ROLE);
    // The client portal accepts the same tokens as the data API (one issuer, one audience).
    portal = await createClientPortal({ env: testEnv(), db: clientPortalDb.db, logger: silentLogger, bearer: api.signer.bearer });
    const fetch: Fetch = async (url, init) => {
      asked.push(new URL(url));
      return portal.api.request(url, init);
    };
    const options = { baseUrl: CLIENT_PORTAL_URL, fetch };
    app = api.appWith({
      permissions: createHttpPermissionsSource(options),
      companyUsers: createHttpCompanyUsersSource(options),
      adminDataSources: createHttpAdminDataSources(options),
    });
  });
  afterAll(async () => {
    await portal?.close();
    await clientPortalDb?.drop();
    await api?.close();
  });

  async function call(method: string, path: string, user: (typeof USERS)[keyof typeof USERS], body?: unknown) {
    const token = await api.tokenFor(user);
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  }

  it("answers a company's schemes as the client portal keeps them", async () => {
    const res = await call("GET", `/api/v1/companies/${acme.id}/admin-data-sources`, USERS.analyst);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      demoAdminDataSources(acme.id)
        .map((s) => ({ id: s.id, companyId: acme.id, name: s.name, description: s.description }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    );
    // The data API's own rule first: a company the analyst cannot see is a 404, the client portal is not asked.
    expect((await call("GET", `/api/v1/companies/${cedar.id}/admin-data-sources`, USERS.analyst)).status).toBe(404);
  });

  it("checks a configuration's schemes against them, keeping each scheme's name from the client portal", async () => {
    const application = await makeApplication(api, acme.id);
    const [schemeA, schemeB] = demoAdminDataSources(acme.id);
    const created = await call("POST", "/api/v1/audit-projects", USERS.analyst, {
      companyId: acme.id,
      applicationId: application.id,
      name: "Real portal deliveries",
      schemeIds: [schemeB!.id, schemeA!.id],
    });
    expect(created.status).toBe(201);
    expect(created.body.schemes).toEqual([{ scheme: { id: schemeB!.id, name: schemeB!.name } }, { scheme: { id: schemeA!.id, name: schemeA!.name } }]);

    const [birchScheme] = demoAdminDataSources(birch.id);
    const refused = await call("POST", "/api/v1/audit-projects", USERS.analyst, {
      companyId: acme.id,
      applicationId: application.id,
      name: "Cross-company deliveries",
      schemeIds: [birchScheme!.id],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.fieldErrors).toEqual({ schemeIds: ["A chosen scheme is no longer one of this company's: choose again."] });
  });

  it("checks a project access grant by asking the client portal for the one user, never the company's whole list", async () => {
    const application = await makeApplication(api, birch.id);
    const project = await makeProject(api, await api.tokenFor(USERS.analyst), { companyId: birch.id, applicationId: application.id });
    asked.length = 0;
    const granted = await call("PUT", `/api/v1/projects/${project.id}/users/${USERS.clientAdmin.id}`, USERS.analyst, { canRead: true });
    expect(granted.status).toBe(200);
    // A user without a permission entry for the company is not found by id: refused.
    const refused = await call("PUT", `/api/v1/projects/${project.id}/users/${USERS.viewer.id}`, USERS.analyst, { canRead: true });
    expect(refused.status).toBe(400);
    const aboutUsers = asked.filter((u) => u.pathname.startsWith(`/api/v1/companies/${birch.id}/users`));
    expect(aboutUsers.map((u) => [u.pathname, u.searchParams.getAll("id")])).toEqual([
      [`/api/v1/companies/${birch.id}/users/page`, [USERS.clientAdmin.id]],
      [`/api/v1/companies/${birch.id}/users/page`, [USERS.viewer.id]],
    ]);
  });
});
