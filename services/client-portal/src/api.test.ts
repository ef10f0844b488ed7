import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminDataSourcesResponseSchema } from "../../../contracts/client-portal.ts";
import { apiErrorSchema } from "../../../contracts/errors.ts";
import { DEMO_COMPANIES, demoAdminDataSources, demoUsers } from "../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS } from "../../shared/testing/databases.ts";
import { createTestSigner } from "../../shared/testing/tokens.ts";
import { NUL_IN_ADDRESS_MESSAGE } from "../../shared/nul-characters.ts";
import { createClientPortal, type ClientPortal } from "./app.ts";
import { findUserByEmail } from "./db/users.ts";
import { seedDemo } from "./seed.ts";
import { createMigratedDatabase, silentLogger, testEnv } from "./test-support.ts";

const users = Object.fromEntries(demoUsers().map((u) => [u.email.split("@")[0], u]));
const analyst = users.analyst!;
const viewer = users.viewer!;
const [cedar, acme, birch] = DEMO_COMPANIES;

describe.each(TEST_DATABASE_KINDS)("client portal API on %s", (kind) => {
  let database: Awaited<ReturnType<typeof createMigratedDatabase>>;
  let signer: Awaited<ReturnType<typeof createTestSigner>>;
  let portal: ClientPortal;

  beforeAll(async () => {
    database = await createMigratedDatabase(kind);
    await seedDemo(database.db, "FusionPSI_TranslationAnalyst");
    signer = await createTestSigner();
    portal = await createClientPortal({ env: testEnv(), db: database.db, logger: silentLogger, bearer: signer.bearer });
  });

  afterAll(async () => {
    await portal?.close();
    await database?.drop();
  });

  const getPermissions = (userId: string, token?: string) =>
    portal.api.request(`/api/v1/permissions/${userId}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});

  describe("GET /api/v1/permissions/:userId", () => {
    it("gives users their own company roles", async () => {
      const res = await getPermissions(analyst.id, await signer.token(analyst.id, analyst.roles));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([
        { companyId: acme.id, productRoleName: "DataTransformation_Analyst" },
        { companyId: birch.id, productRoleName: "DataTransformation_Analyst" },
      ]);
    });

    it("answers an empty list for a user without company roles", async () => {
      const support = users.support!;
      const res = await getPermissions(support.id, await signer.token(support.id, support.roles));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual([]);
    });

    it("refuses another user's permissions to a non-admin with 403 and the JSON error body", async () => {
      const res = await getPermissions(viewer.id, await signer.token(analyst.id, analyst.roles));
      expect(res.status).toBe(403);
      const body = apiErrorSchema.parse(await res.json());
      expect(body).toMatchObject({ status: 403, code: "forbidden", errors: ["You don't have permission to access."] });
    });

    it("lets SuperAdmin and Support read anyone's, the role matched case-insensitively", async () => {
      for (const roles of ["SuperAdmin", "support", "DataTransformation_Viewer;SUPPORT"]) {
        const res = await getPermissions(users.clientadmin!.id, await signer.token("someone-else", roles));
        expect(res.status, roles).toBe(200);
        expect(await res.json()).toEqual(
          expect.arrayContaining([
            { companyId: birch.id, productRoleName: "DataTransformation_ClientAdmin" },
            { companyId: cedar.id, productRoleName: "DataTransformation_Viewer" },
          ]),
        );
      }
    });

    it("answers 404 for a user that does not exist", async () => {
      const res = await getPermissions("no-such-user", await signer.token("admin", "SuperAdmin"));
      expect(res.status).toBe(404);
      expect(apiErrorSchema.parse(await res.json()).code).toBe("not_found");
    });

    it("answers 401 without a token, and for a forged, expired, wrong-audience or wrong-issuer token", async () => {
      const other = await createTestSigner();
      const bad = {
        none: undefined,
        forged: await other.token(analyst.id, analyst.roles),
        expired: await signer.token(analyst.id, analyst.roles, { expiresIn: Math.floor(Date.now() / 1000) - 60 }),
        wrongAudience: await signer.token(analyst.id, analyst.roles, { audience: "urn:something-else" }),
        wrongIssuer: await signer.token(analyst.id, analyst.roles, { issuer: "http://evil.test" }),
        garbage: "not.a.jwt",
      };
      for (const [name, token] of Object.entries(bad)) {
        const res = await getPermissions(analyst.id, token);
        expect(res.status, name).toBe(401);
        expect(apiErrorSchema.parse(await res.json()).code, name).toBe("unauthorized");
      }
    });
  });

  describe("GET /api/v1/companies/:companyId/users/page", () => {
    const getPage = async (companyId: string, query: string, roles = "SuperAdmin") =>
      portal.api.request(`/api/v1/companies/${companyId}/users/page?${query}`, { headers: { authorization: `Bearer ${await signer.token("admin", roles)}` } });

    it("answers a page of the company's people sorted by name, searched by name or e-mail in any case, counted in SQL", async () => {
      const first = await getPage(acme.id, "pageSize=10&page=1");
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({
        items: [
          { id: analyst.id, name: "Ann Analyst", email: "analyst@demo.test" },
          { id: users.translator!.id, name: "Tia Translator", email: "translator@demo.test" },
          { id: viewer.id, name: "Vera Viewer", email: "viewer@demo.test" },
        ],
        total: 3,
        page: 1,
        pageSize: 10,
      });
      expect(await (await getPage(acme.id, "name=TRANSL")).json()).toMatchObject({ items: [{ name: "Tia Translator" }], total: 1, pageSize: 25 });
      expect(await (await getPage(acme.id, "name=viewer%40demo")).json()).toMatchObject({ items: [{ name: "Vera Viewer" }], total: 1 });
      // A "%" is a character searched for, not a wildcard.
      expect(await (await getPage(acme.id, "name=%25")).json()).toMatchObject({ items: [], total: 0 });
      const second = await (await getPage(acme.id, "pageSize=10&page=2")).json();
      expect(second).toMatchObject({ items: [], total: 3, page: 2 });
      const named = await (await getPage(acme.id, `id=${viewer.id}&id=${analyst.id}&include=roles`)).json();
      expect(named.items.map((u: { name: string; productRoleName?: string }) => [u.name, typeof u.productRoleName])).toEqual([
        ["Ann Analyst", "string"],
        ["Vera Viewer", "string"],
      ]);
    });

    it("refuses a page size not offered with 400, and answers a company the caller holds no entry for as not found", async () => {
      expect((await getPage(acme.id, "pageSize=7")).status).toBe(400);
      const res = await portal.api.request(`/api/v1/companies/${cedar.id}/users/page`, {
        headers: { authorization: `Bearer ${await signer.token(analyst.id, analyst.roles)}` },
      });
      expect(res.status).toBe(404);
      expect(apiErrorSchema.parse(await res.json())).toMatchObject({ code: "not_found", errors: ["Company not found."] });
    });

    it("lets a user with any entry for the company ask, even a viewer; SuperAdmin and Support any company, an unknown one having nobody", async () => {
      const clientAdmin = users.clientadmin!;
      const res = await portal.api.request(`/api/v1/companies/${cedar.id}/users/page`, {
        headers: { authorization: `Bearer ${await signer.token(clientAdmin.id, clientAdmin.roles)}` },
      });
      expect(res.status).toBe(200);
      expect((await res.json()).items.map((u: { name: string }) => u.name)).toEqual(["Carl Client", "Max Manager"]);
      for (const roles of ["SuperAdmin", "support"]) {
        const page = await getPage(birch.id, "", roles);
        expect(page.status, roles).toBe(200);
        expect((await page.json()).items.map((u: { name: string }) => u.name)).toEqual(["Ann Analyst", "Carl Client"]);
      }
      expect(await (await getPage("no-such-company", "")).json()).toMatchObject({ items: [], total: 0 });
    });

    it("answers 401 without a token", async () => {
      expect((await portal.api.request(`/api/v1/companies/${acme.id}/users/page`)).status).toBe(401);
    });

    it("serves no whole list of a company's people: a company may have thousands, and every caller asks for a page", async () => {
      const res = await portal.api.request(`/api/v1/companies/${acme.id}/users`, {
        headers: { authorization: `Bearer ${await signer.token("admin", "SuperAdmin")}` },
      });
      expect(res.status).toBe(404);
      expect(apiErrorSchema.parse(await res.json()).code).toBe("not_found");
    });
  });

  describe("GET /api/v1/companies/:companyId/admin-data-sources", () => {
    const getSources = (companyId: string, token?: string) =>
      portal.api.request(`/api/v1/companies/${companyId}/admin-data-sources`, token ? { headers: { authorization: `Bearer ${token}` } } : {});

    it("lists the company's seeded schemes, sorted by name, in the contract's shape", async () => {
      const res = await getSources(acme.id, await signer.token(analyst.id, analyst.roles));
      expect(res.status).toBe(200);
      const body = adminDataSourcesResponseSchema.parse(await res.json());
      expect(body).toEqual(
        demoAdminDataSources(acme.id)
          .map((s) => ({ id: s.id, companyId: acme.id, name: s.name, description: s.description }))
          .sort((a, b) => a.name.localeCompare(b.name)),
      );
      expect(body.map((s) => s.name)).toEqual(["Defined Benefit Scheme", "Defined Contribution Scheme", "Healthcare Trust Scheme"]);
    });

    it("answers a company the caller holds no entry for as not found; admins may ask for any", async () => {
      const refused = await getSources(cedar.id, await signer.token(analyst.id, analyst.roles));
      expect(refused.status).toBe(404);
      expect(apiErrorSchema.parse(await refused.json())).toMatchObject({ code: "not_found", errors: ["Company not found."] });
      const admin = await getSources(birch.id, await signer.token("someone-else", "Support"));
      expect(admin.status).toBe(200);
      expect((await admin.json()).map((s: { companyId: string }) => s.companyId)).toEqual([birch.id, birch.id]);
      const none = await getSources("no-such-company", await signer.token("admin", "SuperAdmin"));
      expect(await none.json()).toEqual([]);
    });

    it("answers 401 without a token", async () => {
      expect((await getSources(acme.id)).status).toBe(401);
    });
  });

  describe("GET /api/v1/branding", () => {
    it("is public and answers the default branding when none is set", async () => {
      const res = await portal.api.request("/api/v1/branding");
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ logoUrl: null, name: "Data Hub", termsAndConditions: null });
    });

    it("answers the tenant's branding, which the sign-in pages show", async () => {
      await database.db
        .updateTable("branding")
        .set({ name: "Acme Portal", logo_url: "https://cdn.example/acme.png", terms_and_conditions: "Be nice." })
        .where("id", "=", 1)
        .execute();
      try {
        const res = await portal.api.request("/api/v1/branding");
        expect(await res.json()).toEqual({ logoUrl: "https://cdn.example/acme.png", name: "Acme Portal", termsAndConditions: "Be nice." });

        const page = await (await portal.api.request("/dashboard")).text();
        expect(page).toContain('<img src="https://cdn.example/acme.png" alt="Acme Portal">');
        expect(page).toContain("<h1>Acme Portal</h1>");
      } finally {
        await database.db.updateTable("branding").set({ name: "Data Hub", logo_url: null, terms_and_conditions: null }).execute();
      }
    });

    it("never renders a script URL as the logo", async () => {
      await database.db.updateTable("branding").set({ logo_url: "javascript:alert(1)" }).execute();
      try {
        const page = await (await portal.api.request("/dashboard")).text();
        expect(page).not.toContain("javascript:");
        expect(page).toMatch(/<svg role="img" aria-label="Data Hub"/);
      } finally {
        await database.db.updateTable("branding").set({ logo_url: null }).execute();
      }
    });
  });

  it("GET /dashboard lists Data Transformation, linking to the portal", async () => {
    const res = await portal.api.request("/dashboard");
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain("<main");
    expect(page).toMatch(/<a href="http:\/\/localhost:3000\/"><strong>Data Transformation<\/strong>/);
  });

  it("serves the default logo for clients that show it too", async () => {
    const res = await portal.api.request("/assets/default-logo.svg");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(await res.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  });

  it("GET /healthz answers ok when the database answers", async () => {
    const res = await portal.api.request("/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("answers unknown API paths with the JSON 404 body", async () => {
    const res = await portal.api.request("/api/v1/nothing-here");
    expect(res.status).toBe(404);
    expect(apiErrorSchema.parse(await res.json()).code).toBe("not_found");
  });

  it("refuses an id holding a NUL with 400 (PostgreSQL's text holds none), and finds no account for an email holding one", async () => {
    const token = await signer.token("admin", "SuperAdmin");
    for (const path of ["/api/v1/permissions/%00", `/api/v1/companies/${acme.id}%00/users/page`, "/api/v1/companies/x/admin-data-sources?q=%00"]) {
      const res = await portal.api.request(path, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, path).toBe(400);
      expect(apiErrorSchema.parse(await res.json()).errors).toEqual([NUL_IN_ADDRESS_MESSAGE]);
    }
    expect(await findUserByEmail(database.db, "analyst@demo.test\u0000")).toBeUndefined();
    expect(await findUserByEmail(database.db, "analyst@demo.test")).toMatchObject({ id: analyst.id });
  });
});

describe("health check", () => {
  it("answers 503 when the database does not answer", async () => {
    const database = await createMigratedDatabase("sqlite");
    const portal = await createClientPortal({ env: testEnv(), db: database.db, logger: silentLogger });
    await database.drop();
    const res = await portal.api.request("/healthz");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "unavailable" });
    await portal.close();
  });
});
