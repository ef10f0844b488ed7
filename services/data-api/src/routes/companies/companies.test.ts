import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEMO_COMPANIES, demoAdminDataSources } from "../../../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS } from "../../../../shared/testing/databases.ts";
import { COMPANY_NOT_FOUND_MESSAGE, PERMISSIONS_UNAVAILABLE_MESSAGE } from "../../access.ts";
import { ADMIN_DATA_SOURCES_UNAVAILABLE_MESSAGE } from "../../admin-data-sources.ts";
import { USERS, createTestApi, type TestApi } from "../../testing/harness.ts";

const [cedar, acme, birch] = DEMO_COMPANIES;
const everyCompanyByName = [acme, birch, cedar].map((c) => ({ id: c.id, name: c.name }));

describe.each(TEST_DATABASE_KINDS)("companies on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api?.close());
  beforeEach(() => {
    api.clientPortal.setMode("up");
    api.clientPortal.calls.length = 0;
  });

  describe("GET /api/v1/companies/all", () => {
    it.each([
      ["SuperAdmin", USERS.superAdmin],
      ["Support", USERS.support],
    ])("gives %s every company, sorted by name, without asking the client portal", async (_role, user) => {
      const res = await api.get("/api/v1/companies/all", await api.tokenFor(user));
      expect(res.status).toBe(200);
      // Seeded as Cedar, Acme, Birch: the order comes from the API's sorting, not from insertion.
      expect(res.body).toEqual(everyCompanyByName);
      expect(api.clientPortal.calls).toEqual([]);
    });

    it("matches the admin roles case-insensitively, also inside a role list", async () => {
      const lower = await api.get("/api/v1/companies/all", await api.tokenFor(USERS.analyst, "superadmin"));
      expect(lower.body).toEqual(everyCompanyByName);
      const list = await api.get("/api/v1/companies/all", await api.tokenFor(USERS.analyst, "DataTransformation_Analyst; SUPPORT"));
      expect(list.body).toEqual(everyCompanyByName);
    });

    it("gives the analyst only the companies their permissions name, sorted by name", async () => {
      const token = await api.tokenFor(USERS.analyst);
      const res = await api.get("/api/v1/companies/all", token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([
        { id: acme.id, name: "Acme Health" },
        { id: birch.id, name: "Birch Logistics" },
      ]);
      // Asked for the caller's own permissions, with the caller's own token.
      expect(api.clientPortal.calls).toEqual([{ userId: USERS.analyst.id, authorization: `Bearer ${token}` }]);
    });

    it("counts any product role: the client admin also sees the company where they are only a viewer", async () => {
      const res = await api.get("/api/v1/companies/all", await api.tokenFor(USERS.clientAdmin));
      expect(res.body.map((c: { name: string }) => c.name)).toEqual(["Birch Logistics", "Cedar Retail"]);
    });

    it("gives a user without permissions an empty list", async () => {
      const res = await api.get("/api/v1/companies/all", await api.tokenFor(USERS.unassigned));
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it.each([
      ["cannot be reached", "down"],
      ["answers an error", "error"],
      ["answers something that is not a permission list", "garbage"],
    ] as const)("answers 503 and no companies when the client portal %s", async (_what, mode) => {
      api.clientPortal.setMode(mode);
      const res = await api.get("/api/v1/companies/all", await api.tokenFor(USERS.analyst));
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 503, errors: [PERMISSIONS_UNAVAILABLE_MESSAGE] });
    });

    it("recovers on the next request once the client portal answers again", async () => {
      const token = await api.tokenFor(USERS.analyst);
      api.clientPortal.setMode("down");
      expect((await api.get("/api/v1/companies/all", token)).status).toBe(503);
      api.clientPortal.setMode("up");
      const res = await api.get("/api/v1/companies/all", token);
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(2);
    });
  });

  describe("GET /api/v1/companies/{id}/admin-data-sources", () => {
    const path = (id: string) => `/api/v1/companies/${encodeURIComponent(id)}/admin-data-sources`;

    // The company's schemes, from the client portal (the harness's stub serves the demo seed).
    const schemesOf = (companyId: string) =>
      demoAdminDataSources(companyId)
        .map((s) => ({ id: s.id, companyId, name: s.name, description: s.description }))
        .sort((a, b) => a.name.localeCompare(b.name));

    it("answers the data sources of a company the caller works in", async () => {
      const res = await api.get(path(acme.id), await api.tokenFor(USERS.analyst));
      expect(res.status).toBe(200);
      expect(res.body).toEqual(schemesOf(acme.id));
      expect(res.body.map((s: { name: string }) => s.name)).toEqual(["Defined Benefit Scheme", "Defined Contribution Scheme", "Healthcare Trust Scheme"]);
    });

    it("answers any company's data sources to SuperAdmin", async () => {
      const res = await api.get(path(cedar.id), await api.tokenFor(USERS.superAdmin));
      expect(res.status).toBe(200);
      expect(res.body).toEqual(schemesOf(cedar.id));
    });

    it("refuses the schemes (403) to a role of the company that does not open Data Onboarding, as the configurations' routes do", async () => {
      // Vera is Acme's Viewer, Max Cedar's Manager, Carl Birch's ClientAdmin (Migrations only) and Cedar's Viewer.
      for (const [user, company] of [
        [USERS.viewer, acme],
        [USERS.manager, cedar],
        [USERS.clientAdmin, birch],
        [USERS.clientAdmin, cedar],
      ] as const) {
        const token = await api.tokenFor(user);
        const res = await api.get(path(company.id), token);
        expect(res.status, `${user.email} in ${company.name}`).toBe(403);
        expect(res.body).toMatchObject({ status: 403, errors: ["You don't have permission to access."] });
        // The configurations' own rule says the same for the company.
        expect((await api.get(`/api/v1/audit-projects/checkdefaultproject/${company.id}`, token)).status).toBe(403);
      }
    });

    it("does not exist on the Azure cloud target, where Data Onboarding does not", async () => {
      const azure = api.appWith({ accessSettings: { cloudTarget: "AZURE", translationAnalystRole: "FusionPSI_TranslationAnalyst" } });
      for (const user of [USERS.superAdmin, USERS.analyst]) {
        const res = await azure.request(path(acme.id), { headers: { authorization: `Bearer ${await api.tokenFor(user)}` } });
        expect(res.status, user.email).toBe(404);
      }
    });

    it("answers 503, not an empty list, when the client portal cannot give the schemes", async () => {
      api.adminDataSources.setMode("down");
      try {
        const res = await api.get(path(acme.id), await api.tokenFor(USERS.analyst));
        expect(res.status).toBe(503);
        expect(res.body.errors).toEqual([ADMIN_DATA_SOURCES_UNAVAILABLE_MESSAGE]);
      } finally {
        api.adminDataSources.setMode("up");
      }
    });

    it("answers 404 for another company's id, exactly as for an id that does not exist", async () => {
      const otherCompany = await api.get(path(cedar.id), await api.tokenFor(USERS.analyst));
      const unknown = await api.get(path("00000000-0000-4000-8000-000000000000"), await api.tokenFor(USERS.analyst));
      for (const res of [otherCompany, unknown]) {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ status: 404, code: "not_found", errors: [COMPANY_NOT_FOUND_MESSAGE] });
      }
      const { requestId: _a, ...otherBody } = otherCompany.body;
      const { requestId: _b, ...unknownBody } = unknown.body;
      expect(otherBody).toEqual(unknownBody);
    });

    it("answers 404 to SuperAdmin for an id that does not exist", async () => {
      const res = await api.get(path("no-such-company"), await api.tokenFor(USERS.superAdmin));
      expect(res.status).toBe(404);
    });

    it("answers 404 to a user without permissions, even for a company that exists", async () => {
      const res = await api.get(path(acme.id), await api.tokenFor(USERS.unassigned));
      expect(res.status).toBe(404);
    });

    it("answers 503, not the data, when the permissions cannot be loaded", async () => {
      api.clientPortal.setMode("down");
      const res = await api.get(path(acme.id), await api.tokenFor(USERS.analyst));
      expect(res.status).toBe(503);
      expect(res.body.errors).toEqual([PERMISSIONS_UNAVAILABLE_MESSAGE]);
    });

    it("requires a bearer token", async () => {
      const res = await api.get(path(acme.id));
      expect(res.status).toBe(401);
    });
  });
});
