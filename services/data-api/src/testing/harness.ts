/**
 * One data API on a fresh, migrated, demo-seeded database of the given engine, with a real token
 * signer and the client-portal stub behind the real HTTP permissions source. One per test file.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PermissionEntry } from "../../../../contracts/client-portal.ts";
import { demoUsers, type DemoUser } from "../../../../scripts/demo-data.ts";
import { createKysely, type DatabaseKind } from "../../../shared/db.ts";
import { createLogger } from "../../../shared/logger.ts";
import { TEST_PROJECT_DATABASES_ADMIN_URL, createTestDatabase } from "../../../shared/testing/databases.ts";
import { createTestSigner } from "../../../shared/testing/tokens.ts";
import type { AccessSettings } from "../../../../contracts/areas.ts";
import { createHttpAdminDataSources } from "../admin-data-sources.ts";
import { createApp, type AppDeps } from "../app.ts";
import { createHttpCompanyUsersSource } from "../company-users.ts";
import { migrateDatabase } from "../db/migrate.ts";
import { createProgressDb } from "../db/progress-db.ts";
import type { Database } from "../db/schema.ts";
import { createDataPlane, type DataPlane } from "../data-plane/servers.ts";
import { createJobRunner } from "../jobs/runner.ts";
import { createHttpPermissionsSource } from "../permissions.ts";
import { seedDemo } from "../seed.ts";
import { createAdminDataSourcesStub } from "./admin-data-sources-stub.ts";
import { CLIENT_PORTAL_TEST_URL, createClientPortalStub } from "./client-portal-stub.ts";
import { createCompanyUsersStub } from "./company-users-stub.ts";
import { makeApplication } from "./project-fixtures.ts";

export const TEST_VERSION = "1.2.3-test";

/** The id project databases of tests record for the throwaway server. */
export const TEST_DATABASE_SERVER = "test";

/**
 * Project databases on the test run's throwaway PostgreSQL (tests/setup/postgres.ts). Without one
 * (SKIP_POSTGRES=1), any use fails saying so.
 */
/** The data plane secret of the tests: a child process that logs in as a project's runner derives the same passwords from it. */
export const TEST_DATA_PLANE_SECRET = "a test secret for project logins, 32+";

export function createTestDataPlane(): DataPlane {
  if (TEST_PROJECT_DATABASES_ADMIN_URL)
    return createDataPlane([{ id: TEST_DATABASE_SERVER, adminUrl: TEST_PROJECT_DATABASES_ADMIN_URL }], { secret: TEST_DATA_PLANE_SECRET });
  const unavailable = () => {
    throw new Error("Project databases need PostgreSQL, which is not running for this test run (SKIP_POSTGRES=1?)");
  };
  // As a server that is down: its connections fail when asked for, as the real ones' promises do.
  const unreachable = async () => unavailable();
  return {
    servers: [{ id: TEST_DATABASE_SERVER, adminUrl: "" }],
    server: unavailable,
    withAdmin: unreachable,
    withLogin: unreachable,
    passwordOf: unavailable,
    loginUrl: unavailable,
    closePools: async () => undefined,
  };
}

const users = demoUsers();
const byEmail = (email: string): DemoUser => {
  const user = users.find((u) => u.email === email);
  if (!user) throw new Error(`no demo user ${email}`);
  return user;
};

/** The demo users (scripts/demo-data.ts) plus one signed-in user the client portal grants nothing. */
export const USERS = {
  superAdmin: byEmail("super@demo.test"),
  support: byEmail("support@demo.test"),
  analyst: byEmail("analyst@demo.test"),
  clientAdmin: byEmail("clientadmin@demo.test"),
  viewer: byEmail("viewer@demo.test"),
  manager: byEmail("manager@demo.test"),
  translator: byEmail("translator@demo.test"),
  unassigned: {
    id: "a0000000-0000-4000-8000-0000000000ff",
    email: "nobody@demo.test",
    name: "Nina Nobody",
    roles: "DataTransformation_Analyst",
    permissions: [],
  } satisfies DemoUser,
};

export async function createTestApi(kind: DatabaseKind) {
  const database = await createTestDatabase(kind);
  const db = createKysely<Database>(database.url);
  // As the data API runs: on SQLite, progress goes through its own connection on another thread.
  const progressDb = createProgressDb<Database>(database.url);
  await migrateDatabase(db);
  await seedDemo(db);

  const signer = await createTestSigner();
  const permissionsTable = new Map<string, PermissionEntry[]>(Object.values(USERS).map((u) => [u.id, u.permissions]));
  const clientPortal = createClientPortalStub(signer.bearer, permissionsTable);
  // Project databases of this test file; jobs run on a runner whose hooks a test may set.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-data-"));
  const dataPlane = createTestDataPlane();
  const jobs = createJobRunner();
  const adminDataSources = createAdminDataSourcesStub(signer.bearer, Object.values(USERS));
  const deps: AppDeps = {
    db,
    progressDb,
    logger: createLogger("data-api-test", (process.env.TEST_LOG_LEVEL as "error" | undefined) ?? "silent"),
    bearer: signer.bearer,
    permissions: createHttpPermissionsSource({ baseUrl: CLIENT_PORTAL_TEST_URL, fetch: clientPortal.fetch }),
    version: TEST_VERSION,
    dataDir,
    dataPlane,
    jobs,
    companyUsers: createHttpCompanyUsersSource({ baseUrl: CLIENT_PORTAL_TEST_URL, fetch: createCompanyUsersStub(signer.bearer, Object.values(USERS)) }),
    adminDataSources: createHttpAdminDataSources({ baseUrl: CLIENT_PORTAL_TEST_URL, fetch: adminDataSources.fetch }),
    // Uploads answer with their finished review however slow the machine: tests of the 202 path
    // (a file still being read) ask for it with appWith({ uploadWaitMs: 0 }).
    uploadWaitMs: 120_000,
    // Tests' webhook receivers listen on loopback; a test of the refusal asks appWith for the default.
    webhooks: { allowPrivateAddresses: true },
  };
  const app = createApp(deps);

  /** What a restarted process would be: a fresh app and job runner on the same database and data folder. */
  /** Every runner of this file's apps: teardown waits for their jobs before the database goes. */
  const runners = [jobs];
  function restartedApp() {
    const runner = createJobRunner();
    runners.push(runner);
    return createApp({ ...deps, jobs: runner });
  }

  /** Another app on the same database, data folder and job runner, with some deps replaced (AZURE, another source). */
  function appWith(overrides: Partial<AppDeps> & { accessSettings?: AccessSettings }) {
    return createApp({ ...deps, ...overrides });
  }

  /** A fresh token per call (unique jti), so the permissions cache never hides one test from another. */
  function tokenFor(user: Pick<DemoUser, "id" | "roles">, roles: string = user.roles) {
    return signer.token(user.id, roles, { claims: { jti: randomUUID() } });
  }

  const { get, send } = requestsOf((url, init) => app.request(url, init));

  /** postForm (requestsOf), through `via` (another app of `appWith`) when given. */
  function postForm(url: string, token: string, fields: FormFields, via: { request: typeof app.request } = app) {
    return requestsOf((u, init) => via.request(u, init)).postForm(url, token, fields);
  }

  async function close() {
    await Promise.all(runners.map((r) => r.idle()));
    await dataPlane.closePools();
    await progressDb?.destroy();
    await db.destroy();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  return {
    app,
    db,
    databaseUrl: database.url,
    signer,
    clientPortal,
    adminDataSources,
    tokenFor,
    get,
    close,
    send,
    postForm,
    dataDir,
    dataPlane,
    jobs,
    restartedApp,
    appWith,
  };
}

export type TestApi = Awaited<ReturnType<typeof createTestApi>>;

/**
 * A test API (createTestApi) with what a file of project tests starts from: an application of
 * `companyId` and a token of `user` (the analyst unless told), the owner of the projects it makes.
 */
export async function createOwnerTestApi(kind: DatabaseKind, companyId: string, user: DemoUser = USERS.analyst) {
  const api = await createTestApi(kind);
  try {
    const applicationId = (await makeApplication(api, companyId)).id;
    return { api, applicationId, owner: await api.tokenFor(user) };
  } catch (error) {
    await api.close();
    throw error;
  }
}

/**
 * The calls the fixtures make (project-fixtures.ts, route-sweep.ts's thingsOf), over `request`: the test
 * app's own, or fetch to a data API running at an address (the portal's tests, app/test/live-services.ts).
 */
export function requestsOf(request: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const auth = (token: string | undefined): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});
  return {
    async get(path: string, token?: string) {
      const res = await request(path, { headers: auth(token) });
      return { status: res.status, headers: res.headers, body: (await res.json()) as any };
    },
    /** Any method, with a JSON body when given. */
    async send(method: string, url: string, token: string | undefined, body?: unknown) {
      const headers = auth(token);
      if (body !== undefined) headers["content-type"] = "application/json";
      return answerOf(await request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    },
    /** A multipart POST as a browser's form sends it: text fields and files (an array repeats the field). The answer's status and JSON. */
    async postForm(url: string, token: string, fields: FormFields) {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) {
        if (typeof value === "string") form.append(key, value);
        else for (const file of Array.isArray(value) ? value : [value]) form.append(key, new Blob([file.content as BlobPart]), file.name);
      }
      return answerOf(await request(url, { method: "POST", headers: auth(token), body: form }));
    },
  };
}

/** An answer's status, headers and JSON body (none for an empty body). */
async function answerOf(res: Response) {
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as any };
}

/** A file of a multipart form (TestApi.postForm). */
export type FormFile = { name: string; content: string | Uint8Array };
type FormFields = Record<string, string | FormFile | readonly FormFile[]>;
