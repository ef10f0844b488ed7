import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PermissionEntry } from "../../../contracts/client-portal.ts";
import { DEMO_COMPANIES } from "../../../scripts/demo-data.ts";
import { bearerAuth } from "../../shared/bearer.ts";
import { createKysely } from "../../shared/db.ts";
import { installErrorHandlers } from "../../shared/http.ts";
import { createLogger } from "../../shared/logger.ts";
import { createTestDatabase, type TestDatabase } from "../../shared/testing/databases.ts";
import { createTestSigner } from "../../shared/testing/tokens.ts";
import type { AccessSettings, Area } from "../../../contracts/areas.ts";
import { FORBIDDEN_MESSAGE, requireAreaRole, requireMigrationRole } from "./access.ts";
import type { AppDeps, AppEnv } from "./context.ts";
import { createJobRunner } from "./jobs/runner.ts";
import { createTestDataPlane } from "./testing/harness.ts";
import { migrateDatabase } from "./db/migrate.ts";
import type { Database } from "./db/schema.ts";
import { PermissionsUnavailableError } from "./permissions.ts";
import { seedDemo } from "./seed.ts";

const [cedar, acme] = DEMO_COMPANIES;

// requireMigrationRole and requireAreaRole on their own, with permission entries each case writes as it needs them
// (the harness's demo users cannot show every spelling of a product role).
describe("requireMigrationRole", () => {
  let database: TestDatabase;
  let app: Hono<AppEnv>;
  let signer: Awaited<ReturnType<typeof createTestSigner>>;
  let db: ReturnType<typeof createKysely<Database>>;
  const permissions = new Map<string, PermissionEntry[] | "down">();
  // Mutable: a case may switch the cloud target or the translation analyst role.
  const settings: AccessSettings = { cloudTarget: "AWS", translationAnalystRole: "FusionPSI_TranslationAnalyst" };

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    db = createKysely<Database>(database.url);
    await migrateDatabase(db);
    await seedDemo(db);
    signer = await createTestSigner();
    const logger = createLogger("access-test", "silent");
    const deps: AppDeps = {
      db,
      logger,
      bearer: signer.bearer,
      version: "test",
      dataDir: database.url + ".projects",
      dataPlane: createTestDataPlane(),
      jobs: createJobRunner(),
      companyUsers: { find: async () => null },
      adminDataSources: { list: async () => [] },
      accessSettings: settings,
      permissions: {
        async forCaller(caller) {
          const entries = permissions.get(caller.userId) ?? [];
          if (entries === "down") throw new PermissionsUnavailableError("down");
          return entries;
        },
      },
    };
    app = new Hono<AppEnv>();
    installErrorHandlers(app, logger);
    app.use(async (c, next) => {
      c.set("deps", deps);
      await next();
    });
    app.use(bearerAuth(signer.bearer));
    app.get("/check/:companyId", async (c) => {
      const company = await requireMigrationRole(c, c.req.param("companyId"), { write: c.req.query("write") === "1", notFoundMessage: c.req.query("notFound") });
      return c.json(company);
    });
    app.get("/area/:area/:companyId", async (c) => {
      const company = await requireAreaRole(c, c.req.param("area") as Area, c.req.param("companyId"), { write: false });
      return c.json(company);
    });
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  async function check(userId: string, roles: string, entries: PermissionEntry[] | "down", companyId: string = acme.id, query = "") {
    permissions.set(userId, entries);
    const token = await signer.token(userId, roles);
    const res = await app.request(`/check/${companyId}${query}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as any };
  }

  it.each(["DataTransformation_Analyst", "DATATRANSFORMATION_ANALYST", "datatransformation_clientadmin", "DataTransformation_ClientAdmin"])(
    "lets a %s of the company read and write",
    async (role) => {
      for (const query of ["", "?write=1"]) {
        const res = await check(`u-${role}`, "DataTransformation_Analyst", [{ companyId: acme.id, productRoleName: role }], acme.id, query);
        expect(res).toEqual({ status: 200, body: { id: acme.id, name: acme.name } });
      }
    },
  );

  it.each(["SuperAdmin", "support", "DataTransformation_Viewer;SUPERADMIN"])("lets the identity role %s into any company without permissions", async (roles) => {
    const res = await check(`admin-${roles}`, roles, "down", cedar.id);
    expect(res.status).toBe(200);
  });

  it.each(["DataTransformation_Viewer", "DataTransformation_Manager", "Analyst"])("answers 403 to a %s of the company", async (role) => {
    const res = await check(`v-${role}`, "DataTransformation_Analyst", [{ companyId: acme.id, productRoleName: role }]);
    expect(res.status).toBe(403);
    expect(res.body.errors).toEqual([FORBIDDEN_MESSAGE]);
  });

  it("lets the translation module's analyst read (a mapping project names an application) but not write, and not on Azure", async () => {
    const entries = [{ companyId: acme.id, productRoleName: "FusionPSI_TranslationAnalyst" }];
    expect((await check("translator", "FusionPSI_TranslationAnalyst", entries)).status).toBe(200);
    const write = await check("translator", "FusionPSI_TranslationAnalyst", entries, acme.id, "?write=1");
    expect(write.status).toBe(403);
    expect(write.body.errors).toEqual([FORBIDDEN_MESSAGE]);
    settings.cloudTarget = "AZURE";
    try {
      expect((await check("translator", "FusionPSI_TranslationAnalyst", entries)).status).toBe(403);
    } finally {
      settings.cloudTarget = "AWS";
    }
  });

  it("counts only the role held for that company, not one held elsewhere", async () => {
    const entries = [
      { companyId: cedar.id, productRoleName: "DataTransformation_Analyst" },
      { companyId: acme.id, productRoleName: "DataTransformation_Viewer" },
    ];
    expect((await check("mixed", "DataTransformation_Analyst", entries, acme.id)).status).toBe(403);
    expect((await check("mixed", "DataTransformation_Analyst", entries, cedar.id)).status).toBe(200);
  });

  it("answers 404 for a company the caller cannot see, with the caller's message when given", async () => {
    const entries = [{ companyId: cedar.id, productRoleName: "DataTransformation_Analyst" }];
    const plain = await check("elsewhere", "DataTransformation_Analyst", entries, acme.id);
    expect(plain.status).toBe(404);
    expect(plain.body.errors).toEqual(["Company not found."]);
    const named = await check("elsewhere", "DataTransformation_Analyst", entries, acme.id, "?notFound=Data%20dictionary%20not%20found.");
    expect(named.body.errors).toEqual(["Data dictionary not found."]);
  });

  it("answers 503 when the permissions cannot be loaded", async () => {
    expect((await check("down", "DataTransformation_Analyst", "down")).status).toBe(503);
  });

  describe("requireAreaRole", () => {
    async function area(name: Area, role: string, companyId: string = acme.id) {
      const userId = `area-${name}-${role}`;
      permissions.set(userId, [{ companyId: acme.id, productRoleName: role }]);
      const token = await signer.token(userId, "DataTransformation_Analyst");
      const res = await app.request(`/area/${name}/${companyId}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, body: (await res.json()) as any };
    }

    it("lets an Analyst of the company into Onboarding, and refuses a ClientAdmin, a Viewer and a Manager with 403", async () => {
      expect((await area("onboarding", "DataTransformation_Analyst")).status).toBe(200);
      for (const role of ["DataTransformation_ClientAdmin", "DataTransformation_Viewer", "DataTransformation_Manager"]) {
        const res = await area("onboarding", role);
        expect(res.status, role).toBe(403);
        expect(res.body.errors).toEqual([FORBIDDEN_MESSAGE]);
      }
    });

    it("lets the configured translation analyst role into Translations only", async () => {
      settings.translationAnalystRole = "Acme_TranslationAnalyst";
      try {
        expect((await area("translations", "acme_translationanalyst")).status).toBe(200);
        expect((await area("translations", "FusionPSI_TranslationAnalyst")).status).toBe(403);
        expect((await area("onboarding", "Acme_TranslationAnalyst")).status).toBe(403);
      } finally {
        settings.translationAnalystRole = "FusionPSI_TranslationAnalyst";
      }
    });

    it("never counts a permission entry that names an identity role (SuperAdmin) for a non-admin", async () => {
      expect((await area("migration", "SuperAdmin")).status).toBe(403);
    });

    it("answers 404 on Azure for Onboarding and Translations, whoever asks; Migration stays", async () => {
      settings.cloudTarget = "AZURE";
      try {
        expect((await area("onboarding", "DataTransformation_Analyst")).status).toBe(404);
        expect((await area("translations", "DataTransformation_Analyst")).status).toBe(404);
        expect((await area("migration", "DataTransformation_Analyst")).status).toBe(200);
      } finally {
        settings.cloudTarget = "AWS";
      }
    });
  });
});
