import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Configuration } from "../../../../../contracts/configurations.ts";
import { configurationSchema } from "../../../../../contracts/configurations.ts";
import { COLUMN_WIDTHS_MESSAGE, searchedWorkspaceShape, type Job } from "../../../../../contracts/projects.ts";
import { DEMO_COMPANIES, demoAdminDataSources } from "../../../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS, TEST_POSTGRES_ADMIN_URL } from "../../../../shared/testing/databases.ts";
import { findProjectDictionaryRef } from "../../repositories/dictionaries.ts";
import { USERS, createTestApi, type TestApi } from "../../testing/harness.ts";
import { addProjectTable, column, createConfigurationDatabases, makeApplication, makeConfiguration, makeProject } from "../../testing/project-fixtures.ts";

const [cedar, acme, birch] = DEMO_COMPANIES;
const [acmeDB, acmeDC, acmeHT] = demoAdminDataSources(acme.id);
const [birchDB] = demoAdminDataSources(birch.id);
const [cedarDC, cedarLife] = demoAdminDataSources(cedar.id);
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

/** Onboarding configurations: the data API's /api/v1/audit-projects (spec §7), a workspace like a project. */
describe.each(TEST_DATABASE_KINDS)("onboarding configurations (audit projects) on %s", (kind) => {
  let api: TestApi;
  let acmeApp: { id: string };
  let birchApp: { id: string };
  let cedarApp: { id: string };
  /** Acme Health's first configuration, made by Ann Analyst: the company's default. */
  let payroll: Configuration;
  const token = (user: (typeof USERS)[keyof typeof USERS]) => api.tokenFor(user);
  const read = async (id: string) => (await api.get(`/api/v1/audit-projects/${id}`, await token(USERS.superAdmin))).body as Configuration;
  const countIn = async (companyId: string) =>
    (await api.get(`/api/v1/audit-projects/search?companyId=${companyId}`, await token(USERS.superAdmin))).body.total as number;

  beforeAll(async () => {
    api = await createTestApi(kind);
    acmeApp = await makeApplication(api, acme.id, "Payroll system");
    birchApp = await makeApplication(api, birch.id, "Birch HR");
    cedarApp = await makeApplication(api, cedar.id, "Cedar HR");
    payroll = await makeConfiguration(api, await token(USERS.analyst), {
      companyId: acme.id,
      applicationId: acmeApp.id,
      name: "Monthly payroll",
      schemeIds: [acmeDC!.id, acmeDB!.id],
    });
  });
  afterEach(async () => {
    api.jobs.hooks = {};
    await api.jobs.idle();
  });
  afterAll(() => api?.close());

  describe("POST /api/v1/audit-projects", () => {
    it("creates the configuration with its two schemes in the order chosen, the company's first as its default", async () => {
      expect(configurationSchema.parse(payroll)).toEqual(payroll);
      expect(payroll).toMatchObject({
        companyId: acme.id,
        name: "Monthly payroll",
        applicationId: acmeApp.id,
        applicationName: "Payroll system",
        sourceType: "FlatFile",
        status: "SetupAddColumnsIncomplete",
        isLocked: false,
        uploadType: null,
        flatFileParameters: null,
        version: 1,
        isDefault: true,
        schemes: [{ scheme: { id: acmeDC!.id, name: acmeDC!.name } }, { scheme: { id: acmeDB!.id, name: acmeDB!.name } }],
      });
      expect(await findProjectDictionaryRef(api.db, payroll.id)).toMatchObject({ companyId: acme.id, applicationId: acmeApp.id, projectId: payroll.id });
      const users = await api.get(`/api/v1/audit-projects/${payroll.id}/users`, await token(USERS.analyst));
      expect(users.body.items).toEqual([{ userId: USERS.analyst.id, canRead: true, canWrite: true, grantedAt: expect.any(String) }]);
      expect((await api.get(`/api/v1/audit-projects/${payroll.id}`, await token(USERS.analyst))).body).toEqual(payroll);
    });

    it("makes a later configuration not the default, and counts a repeated scheme once", async () => {
      const later = await makeConfiguration(api, await token(USERS.analyst), {
        companyId: acme.id,
        applicationId: acmeApp.id,
        schemeIds: [acmeHT!.id, acmeHT!.id],
      });
      expect(later.isDefault).toBe(false);
      expect(later.schemes).toEqual([{ scheme: { id: acmeHT!.id, name: acmeHT!.name } }]);
    });

    const body = (extra: Record<string, unknown> = {}) => ({
      companyId: acme.id,
      applicationId: acmeApp.id,
      name: "Refused one",
      schemeIds: [acmeDB!.id],
      ...extra,
    });

    it.each([
      ["no scheme", { schemeIds: [] }],
      ["no schemeIds at all", { schemeIds: undefined }],
    ])("refuses %s with 400 at schemeIds, creating nothing", async (_what, extra) => {
      const before = await countIn(acme.id);
      const res = await api.send("POST", "/api/v1/audit-projects", await token(USERS.analyst), body(extra));
      expect(res.status).toBe(400);
      expect(res.body.fieldErrors).toEqual({ schemeIds: ["Choose at least one scheme"] });
      expect(await countIn(acme.id)).toBe(before);
    });

    it("refuses another company's scheme, and an unknown one, with 400 at schemeIds saying it once, never the id, creating nothing", async () => {
      const before = await countIn(acme.id);
      const res = await api.send(
        "POST",
        "/api/v1/audit-projects",
        await token(USERS.analyst),
        body({ schemeIds: [acmeDB!.id, birchDB!.id, "no-such-scheme"] }),
      );
      expect(res.status).toBe(400);
      expect(res.body.fieldErrors).toEqual({ schemeIds: ["A chosen scheme is no longer one of this company's: choose again."] });
      expect(await countIn(acme.id)).toBe(before);
    });

    it("refuses a name another configuration of the company has, in any case, with 409 at name; a project or another company may share it", async () => {
      const before = await countIn(acme.id);
      const res = await api.send("POST", "/api/v1/audit-projects", await token(USERS.analyst), body({ name: "MONTHLY PAYROLL" }));
      expect(res.status).toBe(409);
      expect(res.body.fieldErrors).toEqual({ name: ["A configuration with this name already exists in this company"] });
      expect(await countIn(acme.id)).toBe(before);

      const t = await token(USERS.analyst);
      await makeProject(api, t, { companyId: acme.id, applicationId: acmeApp.id, name: "Monthly payroll" });
      await makeConfiguration(api, t, { companyId: birch.id, applicationId: birchApp.id, name: "Monthly payroll", schemeIds: [birchDB!.id] });
      // And a project's name does not block a configuration either.
      await makeProject(api, t, { companyId: acme.id, applicationId: acmeApp.id, name: "Pensions intake" });
      await makeConfiguration(api, t, { companyId: acme.id, applicationId: acmeApp.id, name: "Pensions intake", schemeIds: [acmeDB!.id] });
    });

    it("makes a configuration once per create form (its id): sent again it answers the one made; a project's id is refused naming nothing", async () => {
      const t = await token(USERS.analyst);
      const before = await countIn(acme.id);
      const id = crypto.randomUUID();
      const form = body({ id, name: "Sent twice" });
      const first = await api.send("POST", "/api/v1/audit-projects", t, form);
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ id, name: "Sent twice", isDefault: false });
      const again = await api.send("POST", "/api/v1/audit-projects", t, form);
      expect([again.status, again.body]).toEqual([201, first.body]);
      expect(await countIn(acme.id)).toBe(before + 1);
      // Another kind's id (a migration project's): its own form, not this one's.
      const project = await api.send("POST", "/api/v1/projects", t, { id: crypto.randomUUID(), companyId: acme.id, applicationId: acmeApp.id, name: "Sent twice", sourceType: "BackUp" });
      expect(project.status).toBe(201);
      const other = await api.send("POST", "/api/v1/audit-projects", t, body({ id: project.body.id, name: "Sent twice" }));
      expect(other.status).toBe(409);
      expect(other.body.errors).toEqual(["This form was sent already: nothing more was made. Reload the page to create another."]);
      expect(await countIn(acme.id)).toBe(before + 1);
    });

    it("refuses a second default with 409 at isDefault naming the current one, creating nothing", async () => {
      const before = await countIn(acme.id);
      const res = await api.send("POST", "/api/v1/audit-projects", await token(USERS.analyst), body({ isDefault: true }));
      expect(res.status).toBe(409);
      expect(res.body.fieldErrors).toEqual({ isDefault: ["Acme Health already has a default configuration: Monthly payroll"] });
      expect(await countIn(acme.id)).toBe(before);
    });

    it("refuses an application of another company at applicationId", async () => {
      const res = await api.send("POST", "/api/v1/audit-projects", await token(USERS.analyst), body({ applicationId: birchApp.id }));
      expect(res.status).toBe(400);
      expect(res.body.fieldErrors).toEqual({ applicationId: ["Choose an application of this company."] });
    });

    it("answers 503 and creates nothing when the client portal cannot give the company's schemes", async () => {
      const before = await countIn(acme.id);
      api.adminDataSources.setMode("down");
      try {
        const res = await api.send("POST", "/api/v1/audit-projects", await token(USERS.analyst), body({ name: "While down" }));
        expect(res.status).toBe(503);
      } finally {
        api.adminDataSources.setMode("up");
      }
      expect(await countIn(acme.id)).toBe(before);
    });

    it("answers 404 for a company the caller cannot see, 403 to a ClientAdmin and to a Viewer of the company", async () => {
      expect(
        (await api.send("POST", "/api/v1/audit-projects", await token(USERS.analyst), { ...body(), companyId: cedar.id, applicationId: cedarApp.id })).status,
      ).toBe(404);
      const clientAdmin = await api.send("POST", "/api/v1/audit-projects", await token(USERS.clientAdmin), {
        companyId: birch.id,
        applicationId: birchApp.id,
        name: "Not for ClientAdmins",
        schemeIds: [birchDB!.id],
      });
      expect(clientAdmin.status).toBe(403);
      expect(clientAdmin.body.errors).toEqual(["You don't have permission to access."]);
      expect((await api.send("POST", "/api/v1/audit-projects", await token(USERS.viewer), body())).status).toBe(403);
      expect((await api.send("POST", "/api/v1/audit-projects", undefined, body())).status).toBe(401);
    });
  });

  describe("GET /api/v1/audit-projects/checkdefaultproject/{companyId}", () => {
    it("says no default until the company's first configuration, then names it", async () => {
      const admin = await token(USERS.superAdmin);
      const before = await api.get(`/api/v1/audit-projects/checkdefaultproject/${cedar.id}`, admin);
      expect(before.status).toBe(200);
      expect(before.body).toEqual({ hasDefault: false, defaultConfiguration: null });
      const first = await makeConfiguration(api, admin, {
        companyId: cedar.id,
        applicationId: cedarApp.id,
        name: "Cedar deliveries",
        schemeIds: [cedarDC!.id],
      });
      expect(first.isDefault).toBe(true);
      const after = await api.get(`/api/v1/audit-projects/checkdefaultproject/${cedar.id}`, admin);
      expect(after.body).toEqual({ hasDefault: true, defaultConfiguration: { id: first.id, name: "Cedar deliveries" } });
      expect((await api.get(`/api/v1/audit-projects/checkdefaultproject/${acme.id}`, await token(USERS.analyst))).body).toEqual({
        hasDefault: true,
        defaultConfiguration: { id: payroll.id, name: "Monthly payroll" },
      });
    });

    it("answers 404 for a company the caller cannot see and 403 to a ClientAdmin", async () => {
      expect((await api.get(`/api/v1/audit-projects/checkdefaultproject/${cedar.id}`, await token(USERS.analyst))).status).toBe(404);
      expect((await api.get(`/api/v1/audit-projects/checkdefaultproject/${UNKNOWN_ID}`, await token(USERS.superAdmin))).status).toBe(404);
      expect((await api.get(`/api/v1/audit-projects/checkdefaultproject/${birch.id}`, await token(USERS.clientAdmin))).status).toBe(403);
    });
  });

  describe("PATCH /api/v1/audit-projects/{id}", () => {
    async function fresh(extra: Partial<{ schemeIds: string[] }> = {}) {
      return makeConfiguration(api, await token(USERS.analyst), {
        companyId: acme.id,
        applicationId: acmeApp.id,
        schemeIds: [acmeDB!.id, acmeDC!.id],
        ...extra,
      });
    }

    it("changes name, description and the schemes (replaced, in the order given), moving the version on", async () => {
      const configuration = await fresh();
      const res = await api.send("PATCH", `/api/v1/audit-projects/${configuration.id}`, await token(USERS.analyst), {
        version: configuration.version,
        name: "Renamed deliveries",
        description: "Monthly files",
        schemeIds: [acmeHT!.id, acmeDB!.id],
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: "Renamed deliveries",
        description: "Monthly files",
        version: configuration.version + 1,
        schemes: [{ scheme: { id: acmeHT!.id, name: acmeHT!.name } }, { scheme: { id: acmeDB!.id, name: acmeDB!.name } }],
        isDefault: false,
      });
    });

    it("refuses removing every scheme with 400 at schemeIds and changes nothing", async () => {
      const configuration = await fresh();
      const res = await api.send("PATCH", `/api/v1/audit-projects/${configuration.id}`, await token(USERS.analyst), {
        version: configuration.version,
        name: "Schemeless",
        schemeIds: [],
      });
      expect(res.status).toBe(400);
      expect(res.body.fieldErrors).toEqual({ schemeIds: ["A configuration serves at least one scheme"] });
      expect(await read(configuration.id)).toEqual(configuration);
    });

    it("refuses another company's scheme with 400 at schemeIds and changes nothing", async () => {
      const configuration = await fresh();
      const res = await api.send("PATCH", `/api/v1/audit-projects/${configuration.id}`, await token(USERS.analyst), {
        version: configuration.version,
        schemeIds: [acmeDB!.id, birchDB!.id],
      });
      expect(res.status).toBe(400);
      expect(res.body.fieldErrors).toEqual({ schemeIds: ["A chosen scheme is no longer one of this company's: choose again."] });
      expect(await read(configuration.id)).toEqual(configuration);
    });

    it("refuses a stale version with 409 and changes nothing", async () => {
      const configuration = await fresh();
      const t = await token(USERS.analyst);
      const first = await api.send("PATCH", `/api/v1/audit-projects/${configuration.id}`, t, { version: configuration.version, description: "first" });
      const stale = await api.send("PATCH", `/api/v1/audit-projects/${configuration.id}`, t, {
        version: configuration.version,
        name: "Second",
        schemeIds: [acmeHT!.id],
      });
      expect(stale.status).toBe(409);
      // The analyst's own save made the version there now: their other tab, with when.
      expect(stale.body.errors).toEqual([
        expect.stringMatching(/^You changed this configuration in another tab or window at \d\d:\d\d UTC\. Nothing was saved.$/),
      ]);
      expect(await read(configuration.id)).toEqual(first.body);
    });

    it("refuses another configuration's name with 409 at name", async () => {
      const configuration = await fresh();
      const res = await api.send("PATCH", `/api/v1/audit-projects/${configuration.id}`, await token(USERS.analyst), {
        version: configuration.version,
        name: "monthly payroll",
      });
      expect(res.status).toBe(409);
      expect(res.body.fieldErrors).toEqual({ name: ["A configuration with this name already exists in this company"] });
    });

    it("moves the default with isDefault: true, in one step: the company keeps exactly one", async () => {
      const t = await token(USERS.analyst);
      const other = await fresh();
      const res = await api.send("PATCH", `/api/v1/audit-projects/${other.id}`, t, { version: other.version, isDefault: true });
      expect(res.status).toBe(200);
      expect(res.body.isDefault).toBe(true);
      expect((await read(payroll.id)).isDefault).toBe(false);
      expect((await api.get(`/api/v1/audit-projects/checkdefaultproject/${acme.id}`, t)).body.defaultConfiguration).toEqual({ id: other.id, name: other.name });
      const defaults = await api.db.selectFrom("projects").select("id").where("company_id", "=", acme.id).where("is_default", "=", 1).execute();
      expect(defaults).toEqual([{ id: other.id }]);

      // And back, so the other cases see Monthly payroll as the default again.
      const current = await read(payroll.id);
      expect((await api.send("PATCH", `/api/v1/audit-projects/${payroll.id}`, t, { version: current.version, isDefault: "true" })).body.isDefault).toBe(true);
      expect((await read(other.id)).isDefault).toBe(false);
    });

    it("moves the previous default's version when another becomes the default: a save from a page that showed it as the default is refused as stale", async () => {
      const t = await token(USERS.analyst);
      const shown = await read(payroll.id);
      expect(shown.isDefault).toBe(true);
      const other = await fresh();
      expect((await api.send("PATCH", `/api/v1/audit-projects/${other.id}`, t, { version: other.version, isDefault: true })).status).toBe(200);
      const now = await read(payroll.id);
      expect(now).toMatchObject({ isDefault: false, version: shown.version + 1 });

      const stale = await api.send("PATCH", `/api/v1/audit-projects/${payroll.id}`, t, { version: shown.version, description: "From the older page" });
      expect(stale.status).toBe(409);
      // The analyst's own save of the other configuration moved it: their other tab.
      expect(stale.body.errors).toEqual([
        expect.stringMatching(/^You changed this configuration in another tab or window at \d\d:\d\d UTC\. Nothing was saved.$/),
      ]);
      expect(await read(payroll.id)).toEqual(now);

      // And back, so the other cases see Monthly payroll as the default again.
      expect((await api.send("PATCH", `/api/v1/audit-projects/${payroll.id}`, t, { version: now.version, isDefault: true })).body.isDefault).toBe(true);
    });

    it("refuses isDefault: false on the default with 400 at isDefault; false on another one changes nothing", async () => {
      const t = await token(USERS.analyst);
      const current = await read(payroll.id);
      const res = await api.send("PATCH", `/api/v1/audit-projects/${payroll.id}`, t, { version: current.version, isDefault: false });
      expect(res.status).toBe(400);
      expect(res.body.fieldErrors).toEqual({
        isDefault: ["A company always keeps one default configuration: mark another configuration as the default instead"],
      });
      expect(await read(payroll.id)).toEqual(current);
      const other = await fresh();
      expect((await api.send("PATCH", `/api/v1/audit-projects/${other.id}`, t, { version: other.version, isDefault: false })).body.isDefault).toBe(false);
    });

    it("moves the status as projects do: not by hand during setup, Active ⇄ Inactive afterwards", async () => {
      const configuration = await fresh();
      const t = await token(USERS.analyst);
      const patch = async (status: string) => {
        const version = (await read(configuration.id)).version;
        return api.send("PATCH", `/api/v1/audit-projects/${configuration.id}`, t, { version, status });
      };
      const setup = await patch("Active");
      expect(setup.status).toBe(400);
      expect(setup.body.fieldErrors.status).toEqual(["The status of a configuration in SetupAddColumnsIncomplete cannot be changed by hand."]);
      await api.db.updateTable("projects").set({ status: "Active" }).where("id", "=", configuration.id).execute();
      expect((await patch("Inactive")).body.status).toBe("Inactive");
      expect((await patch("Active")).body.status).toBe("Active");
    });

    it("refuses a write to a locked configuration with 409 naming the lock", async () => {
      const configuration = await fresh();
      await api.db
        .updateTable("projects")
        .set({ is_locked: 1, lock_reason: "DatabaseCreation", lock_state: "Locked" })
        .where("id", "=", configuration.id)
        .execute();
      const res = await api.send("PATCH", `/api/v1/audit-projects/${configuration.id}`, await token(USERS.analyst), {
        version: configuration.version,
        name: "x",
      });
      expect(res.status).toBe(409);
      expect(res.body.errors[0]).toMatch(/^The configuration is locked \(Database creation\)/);
    });
  });

  describe("who may see a configuration", () => {
    let cedarConfiguration: Configuration;
    let birchConfiguration: Configuration;
    beforeAll(async () => {
      const admin = await token(USERS.superAdmin);
      cedarConfiguration = await makeConfiguration(api, admin, { companyId: cedar.id, applicationId: cedarApp.id, schemeIds: [cedarLife!.id] });
      birchConfiguration = await makeConfiguration(api, admin, {
        companyId: birch.id,
        applicationId: birchApp.id,
        name: "Restricted intake",
        schemeIds: [birchDB!.id],
      });
    });

    const paths = (id: string) => [
      `/api/v1/audit-projects/${id}`,
      `/api/v1/audit-projects/${id}/access`,
      `/api/v1/audit-projects/${id}/users`,
      `/api/v1/audit-projects/${id}/jobs`,
      `/api/v1/audit-projects/${id}/databases`,
      `/api/v1/audit-projects/${id}/data-dictionary`,
      `/api/v1/audit-projects/${id}/data-dictionary/tables`,
    ];

    it("answers another company's configuration id exactly as an unknown id, everywhere", async () => {
      const t = await token(USERS.analyst);
      for (const [theirs, none] of paths(cedarConfiguration.id).map((p, i) => [p, paths(UNKNOWN_ID)[i]!] as const)) {
        const a = await api.get(theirs, t);
        const b = await api.get(none, t);
        expect(a.status, theirs).toBe(404);
        expect(b.status, none).toBe(404);
        const { requestId: _a, ...bodyA } = a.body;
        const { requestId: _b, ...bodyB } = b.body;
        expect(bodyA, theirs).toEqual(bodyB);
      }
      const patch = await api.send("PATCH", `/api/v1/audit-projects/${cedarConfiguration.id}`, t, { version: 1, name: "Mine" });
      expect(patch.status).toBe(404);
      expect(patch.body.errors).toEqual(["Configuration not found."]);
    });

    it("refuses a ClientAdmin of the company (a Migration-only role) and a Viewer with 403", async () => {
      const clientAdmin = await token(USERS.clientAdmin);
      for (const path of paths(birchConfiguration.id)) expect((await api.get(path, clientAdmin)).status, path).toBe(403);
      expect((await api.get(`/api/v1/audit-projects/search?companyId=${birch.id}`, clientAdmin)).status).toBe(403);
      const viewer = await token(USERS.viewer);
      expect((await api.get(`/api/v1/audit-projects/${payroll.id}`, viewer)).status).toBe(403);
      expect((await api.get(`/api/v1/audit-projects/search?companyId=${acme.id}`, viewer)).status).toBe(403);
    });

    it("hides a configuration from an Analyst of the company who is not on its access list", async () => {
      const admins = await makeConfiguration(api, await token(USERS.superAdmin), { companyId: acme.id, applicationId: acmeApp.id, schemeIds: [acmeDB!.id] });
      expect((await api.get(`/api/v1/audit-projects/${admins.id}`, await token(USERS.analyst))).status).toBe(404);
    });

    it("answers a configuration's id under /projects, and a project's under /audit-projects, as unknown ids", async () => {
      const t = await token(USERS.superAdmin);
      const project = await makeProject(api, t, { companyId: acme.id, applicationId: acmeApp.id });
      for (const suffix of ["", "/access", "/users", "/jobs", "/data-dictionary"]) {
        const asProject = await api.get(`/api/v1/projects/${payroll.id}${suffix}`, t);
        expect(asProject.status, suffix).toBe(404);
        expect(asProject.body.errors).toEqual(["Project not found."]);
        const asConfiguration = await api.get(`/api/v1/audit-projects/${project.id}${suffix}`, t);
        expect(asConfiguration.status, suffix).toBe(404);
        expect(asConfiguration.body.errors).toEqual(["Configuration not found."]);
      }
      expect((await api.send("PATCH", `/api/v1/projects/${payroll.id}`, t, { version: 1, name: "x" })).status).toBe(404);
      expect((await api.send("POST", `/api/v1/audit-projects/${project.id}/try-create-databases`, t)).status).toBe(404);
    });
  });

  describe("GET /api/v1/audit-projects/search", () => {
    // Birch Logistics' configurations: Ann's "Monthly payroll" and "Restricted intake" from the cases
    // above, and these (a SuperAdmin makes them), so totals are exact.
    const birchNames = ["Onboarding board", "Weekly hours", "Pension 100%"];
    beforeAll(async () => {
      const admin = await token(USERS.superAdmin);
      for (const [i, name] of birchNames.entries()) {
        await makeConfiguration(api, admin, { companyId: birch.id, applicationId: birchApp.id, name, schemeIds: [birchDB!.id] });
        await api.db
          .updateTable("projects")
          .set({ updated_at: `2024-02-0${i + 1}T00:00:00.000Z` })
          .where("name", "=", name)
          .execute();
      }
      // A project in Birch that must never show among its configurations.
      await makeProject(api, admin, { companyId: birch.id, applicationId: birchApp.id, name: "Onboarding migration" });
    });

    const search = async (query: string, user = USERS.superAdmin) => api.get(`/api/v1/audit-projects/search?companyId=${birch.id}&${query}`, await token(user));
    const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((c) => c.name);

    it("answers the company's configurations only (no projects), with schemes and default, sorted and paginated", async () => {
      const res = await search("sort=name");
      expect(res.status).toBe(200);
      expect(names(res)).toEqual(["Monthly payroll", "Onboarding board", "Pension 100%", "Restricted intake", "Weekly hours"]);
      expect(res.body).toMatchObject({ total: 5, page: 1, pageSize: 25 });
      // A SuperAdmin writes every one.
      for (const item of res.body.items) expect(configurationSchema.extend(searchedWorkspaceShape).parse(item)).toEqual({ ...item, canWrite: true });
      expect(res.body.items.filter((c: Configuration) => c.isDefault)).toHaveLength(1);
      expect(res.body.items[0].schemes).toEqual([{ scheme: { id: birchDB!.id, name: birchDB!.name } }]);
      const page2 = await search("sort=-name&pageSize=10&page=2");
      expect(page2.body).toMatchObject({ items: [], total: 5, page: 2 });
      const projects = await api.get(`/api/v1/projects/search?companyId=${birch.id}&name=onboarding`, await token(USERS.superAdmin));
      expect(projects.body.items.map((p: { name: string }) => p.name)).toEqual(["Onboarding migration"]);
    });

    it("filters by a name fragment in any case, never matching the kind's own key prefix", async () => {
      expect(names(await search("name=BOARD"))).toEqual(["Onboarding board"]);
      expect(names(await search("name=onboarding:"))).toEqual([]);
      expect(names(await search(`name=${encodeURIComponent("100%")}`))).toEqual(["Pension 100%"]);
    });

    it("filters by status (the key repeated) and application, and answers only what the caller may read", async () => {
      await api.db.updateTable("projects").set({ status: "Active" }).where("name", "=", "Weekly hours").execute();
      expect(names(await search("status=Active&status=Inactive"))).toEqual(["Weekly hours"]);
      expect(names(await search(`applicationId=${birchApp.id}&status=Active`))).toEqual(["Weekly hours"]);
      expect(names(await search("", USERS.analyst))).toEqual(["Monthly payroll"]);
      expect((await search("status=Nope")).status).toBe(400);
    });
  });

  describe("the shared workspace routes under /audit-projects", () => {
    it.skipIf(!TEST_POSTGRES_ADMIN_URL)("goes Active when its databases are made if it has a template already (made from its Templates tab), not to the templates step", async () => {
      const owner = await token(USERS.analyst);
      const configuration = await makeConfiguration(api, owner, { companyId: acme.id, applicationId: acmeApp.id, schemeIds: [acmeDB!.id] });
      const base = `/api/v1/audit-projects/${configuration.id}`;
      await addProjectTable(api, configuration.id, { name: "Members", columns: [column("MemberId", "int")] });
      const made = await api.send("POST", `${base}/templates`, owner, { name: "Made early", type: "Core", description: null });
      expect(made.status).toBe(201);
      // Not at the templates step yet: the template alone ends no step.
      expect((await read(configuration.id)).status).toBe("SetupAddColumnsIncomplete");
      await createConfigurationDatabases(api, owner, configuration.id);
      expect(await read(configuration.id)).toMatchObject({ status: "Active", isLocked: false, lockReason: null });
    });

    it.skipIf(!TEST_POSTGRES_ADMIN_URL)("access, users, data-dictionary tables and try-create-databases, ending at SetupAssignTemplatesIncomplete", async () => {
      const owner = await token(USERS.analyst);
      const configuration = await makeConfiguration(api, owner, { companyId: acme.id, applicationId: acmeApp.id, schemeIds: [acmeDB!.id] });
      const base = `/api/v1/audit-projects/${configuration.id}`;

      expect((await api.get(`${base}/access`, owner)).body).toEqual({ canRead: true, canWrite: true });
      const granted = await api.send("PUT", `${base}/users/${USERS.superAdmin.id}`, owner, { canRead: true });
      expect(granted.status).toBe(400); // not a user of Acme Health in the client portal
      expect(granted.body.fieldErrors).toEqual({ userId: ["This user has no access to the company"] });
      const viewerGrant = await api.send("PUT", `${base}/users/${USERS.viewer.id}`, owner, { canRead: true });
      expect(viewerGrant.status).toBe(200);
      expect(viewerGrant.body).toMatchObject({ userId: USERS.viewer.id, canRead: true, canWrite: false });
      const list = await api.get(`${base}/users`, owner);
      expect(list.body.items.map((u: { userId: string }) => u.userId)).toEqual([USERS.viewer.id, USERS.analyst.id]);

      // Not ready: no tables, then a table without columns. The status stays SetupAddColumnsIncomplete.
      const empty = await api.send("POST", `${base}/try-create-databases`, owner);
      expect(empty.status).toBe(409);
      expect(empty.body.errors).toEqual(["The data dictionary has no tables: add at least one."]);
      const dictionary = (await api.get(`${base}/data-dictionary`, owner)).body;
      const added = await api.send("POST", `${base}/data-dictionary/tables`, owner, {
        version: dictionary.version,
        name: "Members",
        description: null,
        columns: [],
      });
      expect(added.status).toBe(201);
      expect((await api.send("POST", `${base}/try-create-databases`, owner)).body.errors).toEqual(["1 table has no columns: every table needs at least one."]);
      const table = added.body.table;
      const filled = await api.send("PATCH", `${base}/data-dictionary/tables`, owner, {
        version: added.body.version,
        tableId: table.id,
        name: "Members",
        description: null,
        columns: [column("MemberId", "int", { isKey: true, nullable: false }), column("Name", "nvarchar")],
      });
      expect(filled.status).toBe(200);
      await addProjectTable(api, configuration.id, { name: "Contributions", columns: [column("MemberId", "int"), column("Amount", "decimal")] });
      const tables = await api.get(`${base}/data-dictionary/tables`, owner);
      expect(tables.body.items.map((t: { name: string; columnCount: number }) => [t.name, t.columnCount])).toEqual([
        ["Members", 2],
        ["Contributions", 2],
      ]);
      expect((await api.get(`${base}/data-dictionary/tables/${table.id}/table-details`, owner)).body.columns).toHaveLength(2);
      // Onboarding has no upload-type step: a complete dictionary still reads SetupAddColumnsIncomplete.
      expect((await read(configuration.id)).status).toBe("SetupAddColumnsIncomplete");

      const before = await api.get(`${base}/databases`, owner);
      expect(before.body).toEqual({
        databases: [
          { kind: "source", name: "Source database", exists: false, tableCount: 0, tables: [] },
          { kind: "destination", name: "Destination database", exists: false, tableCount: 0, tables: [] },
        ],
      });

      const started = await api.send("POST", `${base}/try-create-databases`, owner);
      expect(started.status).toBe(202);
      expect(started.body).toMatchObject({ projectId: configuration.id, kind: "DatabaseCreation", status: "IN_PROGRESS" });
      await api.jobs.idle();
      expect(await read(configuration.id)).toMatchObject({ status: "SetupAssignTemplatesIncomplete", isLocked: false, lockReason: null });
      const jobs = (await api.get(`${base}/jobs`, owner)).body as { isLocked: boolean; jobs: Job[] };
      expect(jobs).toMatchObject({ isLocked: false, lockReason: null, lockState: "Unlocked" });
      expect(jobs.jobs.map((j) => [j.kind, j.status])).toEqual([["DatabaseCreation", "SUCCESS"]]);

      const after = await api.get(`${base}/databases`, owner);
      expect(after.status).toBe(200);
      for (const database of after.body.databases) {
        expect(database).toMatchObject({ exists: true });
        expect(database.tables).toEqual([
          { name: "Contributions", columnCount: 2, rowCount: 0, rowCountEstimated: false, bytes: expect.any(Number), lastChangedAt: null },
          { name: "Members", columnCount: 2, rowCount: 0, rowCountEstimated: false, bytes: expect.any(Number), lastChangedAt: null },
        ]);
      }
      const filtered = await api.get(`${base}/databases?table=MEMB`, owner);
      expect(filtered.body.databases.map((d: { tables: { name: string }[] }) => d.tables.map((t) => t.name))).toEqual([["Members"], ["Members"]]);
      // The dictionary is fixed once the databases exist: a retry is refused.
      expect((await api.send("POST", `${base}/try-create-databases`, owner)).status).toBe(409);

      // A delivery loads into the configuration's source database as into a project's.
      const loaded = await api.postForm(`${base}/flat-file/loads`, owner, {
        file: { name: "members.csv", content: "MemberId,Name\n1,007\n" },
        table: "members",
      });
      expect(loaded.status).toBe(202);
      await api.jobs.idle();
      const history = (await api.get(`${base}/history`, owner)).body;
      expect(history.items).toMatchObject([
        { fileName: "members.csv", tableName: "Members", status: "Loaded", rowsLoaded: 1, tables: [{ table: "Members", rowsLoaded: 1 }] },
      ]);
      const withRows = (await api.get(`${base}/databases?table=Members`, owner)).body;
      // Last changed by that load, when it finished.
      expect(withRows.databases[0].tables).toEqual([
        { name: "Members", columnCount: 2, rowCount: 1, rowCountEstimated: false, bytes: expect.any(Number), lastChangedAt: history.items[0].finishedAt },
      ]);
      // Its status stays where onboarding puts it.
      expect((await read(configuration.id)).status).toBe("SetupAssignTemplatesIncomplete");

      // A second delivery: the first can be compared with the current data, and the second undone.
      const reloaded = await api.postForm(`${base}/flat-file/loads`, owner, {
        file: { name: "members-2.csv", content: "MemberId,Name\n1,008\n2,New\n" },
        table: "Members",
      });
      expect(reloaded.status).toBe(202);
      await api.jobs.idle();
      const deliveries = (await api.get(`${base}/backups?deliveries=true`, owner)).body;
      expect(deliveries.items.map((b: { after: { fileName: string } }) => b.after.fileName)).toEqual(["members.csv"]);
      const compared = await api.send("POST", `${base}/comparisons`, owner, { backupId: deliveries.items[0].id });
      expect(compared.status).toBe(202);
      await api.jobs.idle();
      const comparison = (await api.get(`${base}/history/${compared.body.entry.id}/comparison`, owner)).body.items;
      expect(comparison.find((t: { table: string }) => t.table === "Members")).toMatchObject({
        added: 1,
        removed: 0,
        changed: 1,
        samples: { added: [["2", "New"]], changed: [{ key: ["1"], changes: [{ column: "Name", earlier: "007", current: "008" }] }] },
      });
      const secondEntry = (await api.get(`${base}/history?type=FlatFile`, owner)).body.items[0];
      const undone = await api.send("POST", `${base}/restores`, owner, { undo: secondEntry.id, version: (await api.get(base, owner)).body.version });
      expect(undone.status).toBe(202);
      await api.jobs.idle();
      expect((await api.get(`${base}/databases/source/tables/Members/rows`, owner)).body.items).toEqual([["1", "007"]]);
    });

    it("saves flat-file parameters as a project does, each table's fixed-length widths checked against its columns", async () => {
      const owner = await token(USERS.analyst);
      const configuration = await makeConfiguration(api, owner, { companyId: acme.id, applicationId: acmeApp.id, schemeIds: [acmeDB!.id] });
      await addProjectTable(api, configuration.id, { name: "Members", columns: [column("MemberId", "int"), column("Name", "nvarchar", { length: 20 })] });
      const saveAt = (version: number, body: object, as = owner) =>
        api.send("POST", `/api/v1/audit-projects/${configuration.id}/updateFlatFileParameters`, as, { version, ...body });
      const save = async (body: object, as = owner) => saveAt((await read(configuration.id)).version, body, as);
      const fixed = { extension: ".dta", delimiter: "FixedLength", encoding: "UTF-16BE", dateOrder: "DMY" };

      const saved = await save({ ...fixed, columnWidths: { members: "5, 20" } });
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({
        id: configuration.id,
        schemes: [expect.anything()],
        flatFileParameters: { ...fixed, columnWidths: { Members: [5, 20] } },
      });
      expect((await read(configuration.id)).flatFileParameters).toMatchObject({ columnWidths: { Members: [5, 20] } });
      // What the load page shows beside the widths saved: a page of the tables, each with its columns and the dictionary's widths.
      const widths = async (query: string) => (await api.get(`/api/v1/audit-projects/${configuration.id}/flat-file/column-widths${query}`, owner)).body;
      const members = { name: "Members", columns: ["MemberId", "Name"], defaultWidths: [11, 20] };
      expect(await widths("")).toEqual({ items: [members], total: 1, page: 1, pageSize: 25 });
      expect(await widths("?name=MEM&page=1&pageSize=10")).toEqual({ items: [members], total: 1, page: 1, pageSize: 10 });
      expect(await widths("?name=nothing")).toMatchObject({ items: [], total: 0 });

      const wrong = await save({ ...fixed, columnWidths: { Members: "5", Others: "1" } });
      expect(wrong.status).toBe(400);
      expect(wrong.body.fieldErrors).toEqual({
        "columnWidths.Members": ["Members has 2 columns: give 2 widths (1 given)"],
        "columnWidths.Others": ["The configuration's dictionary has no table 'Others'"],
      });
      expect((await save({ ...fixed, columnWidths: { Members: "5,x" } })).body.fieldErrors).toEqual({ "columnWidths.Members": [COLUMN_WIDTHS_MESSAGE] });
      expect((await read(configuration.id)).flatFileParameters).toMatchObject({ columnWidths: { Members: [5, 20] } });
      // Only its writers: a Viewer of the company may not.
      expect((await save(fixed, await token(USERS.viewer))).status).toBe(403);
      // Based on a version that moved on (another tab's save): refused, nothing changed.
      const stale = await saveAt(configuration.version, { ...fixed, columnWidths: { Members: "1, 2" } });
      expect(stale.status).toBe(409);
      expect(stale.body.errors).toEqual([expect.stringMatching(/^You changed this configuration in another tab or window at .* Nothing was saved.$/)]);
      expect((await read(configuration.id)).flatFileParameters).toMatchObject({ columnWidths: { Members: [5, 20] } });
    });

    it("names the configuration when its job refuses to start: locked, or moved on, after the request was checked", async () => {
      const configuration = await makeConfiguration(api, await token(USERS.analyst), {
        companyId: acme.id,
        applicationId: acmeApp.id,
        schemeIds: [acmeHT!.id],
      });
      await addProjectTable(api, configuration.id, { name: "Members", columns: [column("MemberId", "int")] });
      const row = () => api.db.updateTable("projects").where("id", "=", configuration.id);
      // requireWorkspace reads the row before it asks for the caller's permissions: another request
      // changes it right then, so the route's checks pass and startJob finds the change.
      let meanwhile = async () => {};
      const app = api.appWith({
        permissions: {
          async forCaller() {
            await meanwhile();
            return USERS.analyst.permissions;
          },
        },
      });
      const tryCreate = async () => {
        const res = await app.request(`/api/v1/audit-projects/${configuration.id}/try-create-databases`, {
          method: "POST",
          headers: { authorization: `Bearer ${await token(USERS.analyst)}` },
        });
        return { status: res.status, body: (await res.json()) as { code: string; errors: string[] } };
      };

      meanwhile = async () => void (await row().set({ is_locked: 1, lock_reason: "Backup", lock_state: "Locked" }).execute());
      expect(await tryCreate()).toMatchObject({
        status: 409,
        body: { code: "project_locked", errors: ["The configuration is locked (Backup) while a background job runs. Try again when it has finished."] },
      });

      await row().set({ is_locked: 0, lock_reason: null, lock_state: "Unlocked" }).execute();
      meanwhile = async () => void (await row().set({ status: "Active" }).execute());
      expect(await tryCreate()).toMatchObject({
        status: 409,
        body: { code: "project_locked", errors: ["Database creation cannot start while the configuration's status is “Active”."] },
      });
      expect((await api.get(`/api/v1/audit-projects/${configuration.id}/jobs`, await token(USERS.analyst))).body.jobs).toEqual([]);
    });
  });

  describe("on the Azure cloud target", () => {
    it("answers 404 at every /api/v1/audit-projects endpoint, while /api/v1/projects works", async () => {
      const azure = api.appWith({ accessSettings: { cloudTarget: "AZURE", translationAnalystRole: "FusionPSI_TranslationAnalyst" } });
      const t = await token(USERS.superAdmin);
      const request = (method: string, path: string, body?: unknown) =>
        azure.request(path, {
          method,
          headers: { authorization: `Bearer ${t}`, ...(body ? { "content-type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
      const calls: [string, string, unknown?][] = [
        ["GET", `/api/v1/audit-projects/search?companyId=${acme.id}`],
        ["GET", `/api/v1/audit-projects/${payroll.id}`],
        ["POST", "/api/v1/audit-projects", { companyId: acme.id, applicationId: acmeApp.id, name: "Azure", schemeIds: [acmeDB!.id] }],
        ["PATCH", `/api/v1/audit-projects/${payroll.id}`, { version: 1, name: "Azure" }],
        ["GET", `/api/v1/audit-projects/checkdefaultproject/${acme.id}`],
        ["GET", `/api/v1/audit-projects/${payroll.id}/databases`],
        ["GET", `/api/v1/audit-projects/${payroll.id}/access`],
        ["GET", `/api/v1/audit-projects/${payroll.id}/users`],
        ["GET", `/api/v1/audit-projects/${payroll.id}/jobs`],
        ["POST", `/api/v1/audit-projects/${payroll.id}/try-create-databases`],
        ["GET", `/api/v1/audit-projects/${payroll.id}/data-dictionary`],
        ["GET", `/api/v1/audit-projects/${payroll.id}/data-dictionary/tables`],
      ];
      for (const [method, path, body] of calls) {
        const res = await request(method, path, body);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(await res.json()).toMatchObject({ status: 404, code: "not_found", errors: ["Not found."] });
      }
      expect(await countIn(acme.id)).toBeGreaterThan(0);
      expect((await request("GET", `/api/v1/projects/search?companyId=${acme.id}`)).status).toBe(200);
    });
  });

  it("publishes the audit-projects paths in the OpenAPI document", async () => {
    const res = await api.get("/api/v1/openapi.json");
    expect(res.status).toBe(200);
    const paths = Object.keys(res.body.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        "/api/v1/audit-projects",
        "/api/v1/audit-projects/search",
        "/api/v1/audit-projects/{id}",
        "/api/v1/audit-projects/checkdefaultproject/{id}",
        "/api/v1/audit-projects/{id}/databases",
        "/api/v1/audit-projects/{id}/access",
        "/api/v1/audit-projects/{id}/users",
        "/api/v1/audit-projects/{id}/jobs",
        "/api/v1/audit-projects/{id}/try-create-databases",
        "/api/v1/audit-projects/{id}/updateFlatFileParameters",
        "/api/v1/projects/{id}/updateFlatFileParameters",
        "/api/v1/audit-projects/{id}/data-dictionary",
        "/api/v1/audit-projects/{id}/data-dictionary/tables",
        "/api/v1/projects/{id}/access",
        "/api/v1/projects/{id}/upload-type",
      ]),
    );
    expect(res.body.paths["/api/v1/audit-projects"].post.requestBody.content["application/json"].schema.properties).toHaveProperty("schemeIds");
    expect(res.body.paths["/api/v1/audit-projects/{id}"].get.responses["200"].content["application/json"].schema.properties).toHaveProperty("schemes");
    // The configuration-only routes are not under /projects.
    expect(paths).not.toContain("/api/v1/projects/checkdefaultproject/{id}");
    expect(paths).not.toContain("/api/v1/audit-projects/{id}/upload-type");
  });
});
