import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ColumnNode, sql, UpdateQueryNode, type KyselyPlugin } from "kysely";
import { createKysely } from "../../../../shared/db.ts";
import type { Database } from "../../db/schema.ts";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import type { Project } from "../../../../../contracts/projects.ts";
import type { Template } from "../../../../../contracts/templates.ts";
import { TEST_DATABASE_KINDS } from "../../../../shared/testing/databases.ts";
import { USERS, createTestApi, requestsOf, type TestApi } from "../../testing/harness.ts";
import { column, makeApplication, makeMappingProject } from "../../testing/project-fixtures.ts";

const [, acme, birch] = DEMO_COMPANIES;
const BASE = "/api/v1/mapping-projects";

describe.each(TEST_DATABASE_KINDS)("translation mapping projects on %s", (kind) => {
  let api: TestApi;
  let analyst: string;
  beforeAll(async () => {
    api = await createTestApi(kind);
    analyst = await api.tokenFor(USERS.analyst);
  });
  afterAll(() => api?.close());

  async function mapping(name?: string, companyId: string = acme.id) {
    const app = await makeApplication(api, companyId);
    return makeMappingProject(api, companyId === acme.id ? analyst : await api.tokenFor(USERS.superAdmin), { companyId, applicationId: app.id, name });
  }
  async function masterTemplate(name: string, type: "Core" | "Mapping", area = "translations") {
    const master = "/api/v1/master-templates";
    let t: Template = (await api.send("POST", master, analyst, { companyId: acme.id, area, name, type })).body;
    t = (await api.send("POST", `${master}/${t.id}/levels`, analyst, { version: t.version, name: "Maps" })).body;
    await api.send("POST", `${master}/${t.id}/levels/${t.levels[0]!.id}/scripts`, analyst, { version: t.version, name: "Grades", sql: "select 1;" });
    t = (await api.get(`${master}/${t.id}`, analyst)).body;
    return (await api.send("POST", `${master}/${t.id}/status`, analyst, { version: t.version, status: "Available" })).body as Template;
  }

  it("creates one with its basic settings, unique by name in the company, and lists it searched, sorted and paged", async () => {
    const created = await mapping("Payroll codes");
    expect(created).toMatchObject({ name: "Payroll codes", status: "SetupAddColumnsIncomplete", companyId: acme.id });
    const app = await makeApplication(api, acme.id);
    const again = await api.send("POST", BASE, analyst, { companyId: acme.id, applicationId: app.id, name: "PAYROLL codes" });
    expect(again.status).toBe(409);
    expect(again.body.fieldErrors.name).toEqual(["A mapping project with this name already exists in this company"]);
    // Another company's application is refused at its field, as one that does not exist; nothing is made.
    const birchApp = await makeApplication(api, birch.id);
    const cross = await api.send("POST", BASE, analyst, { companyId: acme.id, applicationId: birchApp.id, name: "Cross codes" });
    expect(cross.status).toBe(400);
    expect(cross.body.fieldErrors).toEqual({ applicationId: ["Choose an application of this company."] });
    expect((await api.get(`${BASE}/search?companyId=${acme.id}&name=Cross`, analyst)).body.total).toBe(0);
    // A migration project of the same name is another kind: allowed.
    const project = await api.send("POST", "/api/v1/projects", analyst, {
      companyId: acme.id,
      applicationId: app.id,
      name: "Payroll codes",
      sourceType: "FlatFile",
    });
    expect(project.status).toBe(201);

    await mapping("Benefit codes");
    const page = await api.get(`${BASE}/search?companyId=${acme.id}&name=codes&sort=name`, analyst);
    expect(page.status).toBe(200);
    expect(page.body.items.map((p: Project) => p.name)).toEqual(["Benefit codes", "Payroll codes"]);
    const second = await api.get(`${BASE}/search?companyId=${acme.id}&name=codes&sort=name&pageSize=10&page=2`, analyst);
    expect(second.body).toMatchObject({ items: [], total: 2, page: 2 });
    // Never among the migration projects.
    const projects = await api.get(`/api/v1/projects/search?companyId=${acme.id}&name=codes`, analyst);
    expect(projects.body.items.map((p: Project) => p.name)).toEqual(["Payroll codes"]);
    expect((await api.get(`/api/v1/projects/${created.id}`, analyst)).status).toBe(404);
  });

  it("is the area's: any Translations role of the company reads and writes it; other roles and companies do not", async () => {
    const p = await mapping();
    // The translation module's analyst, who did not create it, writes it: there is no access list.
    const translator = await api.tokenFor(USERS.translator);
    expect((await api.get(`${BASE}/${p.id}/access`, translator)).body).toEqual({ canRead: true, canWrite: true });
    const renamed = await api.send("PATCH", `${BASE}/${p.id}`, translator, { version: p.version, name: "Renamed by the translator" });
    expect(renamed.status).toBe(200);
    expect((await api.get(`${BASE}/${p.id}/users`, analyst)).status).toBe(404);

    // Birch's ClientAdmin: a role of the company, but not one of Translations'.
    const theirs = await mapping(undefined, birch.id);
    const clientAdmin = await api.tokenFor(USERS.clientAdmin);
    expect((await api.get(`${BASE}/${theirs.id}`, clientAdmin)).status).toBe(403);
    expect((await api.get(`${BASE}/search?companyId=${birch.id}`, clientAdmin)).status).toBe(403);
    // Acme's translator asks for Birch's: not found, as an unknown id.
    const other = await api.get(`${BASE}/${theirs.id}`, translator);
    expect(other.status).toBe(404);
    expect(other.body.errors).toEqual(["Mapping project not found."]);
    // No databases, jobs or runs: those paths do not exist for it.
    expect((await api.get(`${BASE}/${p.id}/jobs`, analyst)).status).toBe(404);
    expect((await api.get(`${BASE}/${p.id}/runs`, analyst)).status).toBe(404);
  });

  it("ends the file-data-structure step only with tables that all have columns, then assigns Mapping templates only and becomes Active", async () => {
    let p = await mapping();
    const refused = await api.send("POST", `${BASE}/${p.id}/file-data-structure/complete`, analyst, { version: p.version });
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual(["The file data structure has no tables: add at least one."]);

    const dictionary = (await api.get(`${BASE}/${p.id}/data-dictionary`, analyst)).body;
    const table = await api.send("POST", `${BASE}/${p.id}/data-dictionary/tables`, analyst, {
      version: dictionary.version,
      name: "employees",
      description: null,
      columns: [column("grade", "nvarchar"), column("department", "nvarchar")],
    });
    expect(table.status).toBe(201);
    p = (await api.get(`${BASE}/${p.id}`, analyst)).body;
    expect(p.status).toBe("SetupAddColumnsIncomplete");
    const done = await api.send("POST", `${BASE}/${p.id}/file-data-structure/complete`, analyst, { version: p.version });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe("SetupAssignTemplatesIncomplete");
    // Its structure step stays open until templates are assigned: a master dictionary may still be assigned there, as
    // the step offers (its tables replace employees, whose maps hold nothing), and the project stays at its step.
    const master = await api.send("POST", "/api/v1/data-dictionaries", analyst, { companyId: acme.id, applicationId: p.applicationId, name: `Files ${kind}` });
    const masterTable = { version: master.body.version, name: "staff", description: null, columns: [column("code", "int")] };
    expect((await api.send("POST", `/api/v1/data-dictionaries/${master.body.id}/tables`, analyst, masterTable)).status).toBe(201);
    const assign = `${BASE}/${p.id}/data-dictionary/${master.body.id}/assign`;
    const own = async () => (await api.get(`${BASE}/${p.id}/data-dictionary`, analyst)).body;
    expect(await api.send("POST", assign, analyst, { version: (await own()).version })).toMatchObject({
      status: 200,
      body: { sourceDictionaryId: master.body.id, tableCount: 1 },
    });
    expect((await api.get(`${BASE}/${p.id}`, analyst)).body.status).toBe("SetupAssignTemplatesIncomplete");

    const core = await masterTemplate(`Core ${kind}`, "Core");
    const maps = await masterTemplate(`Maps ${kind}`, "Mapping");
    const wrong = await api.send("POST", `${BASE}/${p.id}/templates/assign`, analyst, { templateIds: [core.id] });
    expect(wrong.status).toBe(409);
    expect(wrong.body.errors).toEqual(["Only Mapping templates can be assigned to a mapping project."]);
    const migrationMaster = await masterTemplate(`Migration maps ${kind}`, "Mapping", "migration");
    expect((await api.send("POST", `${BASE}/${p.id}/templates/assign`, analyst, { templateIds: [migrationMaster.id] })).status).toBe(404);
    const assigned = await api.send("POST", `${BASE}/${p.id}/templates/assign`, analyst, { templateIds: [maps.id] });
    expect(assigned.status).toBe(200);
    expect(assigned.body.items.map((t: Template) => t.name)).toEqual([`Maps ${kind}`]);
    expect((await api.get(`${BASE}/${p.id}`, analyst)).body.status).toBe("Active");
    // Active, its step closed: a master dictionary is no longer assigned, in words of a mapping project (it has no databases).
    const { version: ownVersion } = await own();
    expect(await api.send("POST", assign, analyst, { version: ownVersion })).toMatchObject({
      status: 409,
      body: { errors: ["A master dictionary can only be assigned while the mapping project is being set up, before its templates are assigned."] },
    });
    expect((await own()).version).toBe(ownVersion);
    // Assigned once: named as the workspace it is, not as a project.
    const again = await api.send("POST", `${BASE}/${p.id}/templates/assign`, analyst, { templateIds: [maps.id] });
    expect(again).toMatchObject({ status: 409, body: { errors: ["This template is already assigned to this mapping project."] } });
  });

  it("goes Active when its file data structure is ended if a template was assigned from its Templates tab before, not to the templates step", async () => {
    let p = await mapping();
    const maps = await masterTemplate(`Early maps ${kind}`, "Mapping");
    expect((await api.send("POST", `${BASE}/${p.id}/templates/assign`, analyst, { templateIds: [maps.id] })).status).toBe(200);
    // Not at the templates step yet: the assignment alone ends no step.
    expect((await api.get(`${BASE}/${p.id}`, analyst)).body.status).toBe("SetupAddColumnsIncomplete");
    const dictionary = (await api.get(`${BASE}/${p.id}/data-dictionary`, analyst)).body;
    const table = await api.send("POST", `${BASE}/${p.id}/data-dictionary/tables`, analyst, {
      version: dictionary.version,
      name: "employees",
      description: null,
      columns: [column("grade", "nvarchar")],
    });
    expect(table.status).toBe(201);
    p = (await api.get(`${BASE}/${p.id}`, analyst)).body;
    const done = await api.send("POST", `${BASE}/${p.id}/file-data-structure/complete`, analyst, { version: p.version });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe("Active");
    expect((await api.get(`${BASE}/${p.id}`, analyst)).body).toMatchObject({ status: "Active", version: done.body.version });
  });

  // Read committed on PostgreSQL: without the workspace's row lock, each transaction misses the other's uncommitted write.
  it.runIf(kind === "postgres").each(["assigning", "ending"] as const)(
    "goes Active when a template is assigned from its Templates tab as its file data structure is ended, %s held before it commits",
    async (held) => {
      let p = await mapping();
      const maps = await masterTemplate(`Racing maps ${held}`, "Mapping");
      const dictionary = (await api.get(`${BASE}/${p.id}/data-dictionary`, analyst)).body;
      await api.send("POST", `${BASE}/${p.id}/data-dictionary/tables`, analyst, {
        version: dictionary.version,
        name: "grades",
        description: null,
        columns: [column("grade", "nvarchar")],
      });
      p = (await api.get(`${BASE}/${p.id}`, analyst)).body;
      const assign = (via: { request: typeof api.app.request }) =>
        requestsOf(via.request).send("POST", `${BASE}/${p.id}/templates/assign`, analyst, { templateIds: [maps.id] });
      const end = (via: { request: typeof api.app.request }) =>
        requestsOf(via.request).send("POST", `${BASE}/${p.id}/file-data-structure/complete`, analyst, { version: p.version });
      const [first, second] = held === "assigning" ? [assign, end] : [end, assign];

      // The held request's transaction has run its finishTemplateSetup (the one update of a status in it) and not committed:
      // the other request runs then, on a connection of its own, until it ends or waits for a lock.
      const elsewhere = createKysely<Database>(api.databaseUrl);
      const statusWrites = new WeakSet<object>();
      let other: ReturnType<typeof second> | undefined;
      const otherMidway: KyselyPlugin = {
        transformQuery: ({ node, queryId }) => {
          if (UpdateQueryNode.is(node) && node.updates?.some((u) => ColumnNode.is(u.column) && u.column.column.name === "status")) statusWrites.add(queryId);
          return node;
        },
        transformResult: async ({ queryId, result }) => {
          if (!other && statusWrites.has(queryId)) {
            other = second(api.appWith({ db: elsewhere }));
            let settled = false;
            void other.finally(() => (settled = true));
            for (let tries = 0; !settled && tries < 500; tries++) {
              const waiting = await sql<{
                n: number;
              }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(elsewhere);
              if (waiting.rows[0]!.n > 0) break;
              await new Promise((resolve) => setTimeout(resolve, 20));
            }
          }
          return result;
        },
      };
      const answers = [await first(api.appWith({ db: api.db.withPlugin(otherMidway) })), await other];
      await elsewhere.destroy();
      expect(answers.map((a) => a?.status)).toEqual([200, 200]);
      expect((await api.get(`${BASE}/${p.id}`, analyst)).body.status).toBe("Active");
    },
  );

  it("makes and re-types its own templates as Mapping ones only, as it is assigned only those: a Core one is refused at its type, nothing made or changed", async () => {
    const p = await mapping();
    const core = await api.send("POST", `${BASE}/${p.id}/templates`, analyst, { name: "Own core", description: null, type: "Core" });
    expect(core).toMatchObject({ status: 400, body: { fieldErrors: { type: ["A mapping project takes Mapping templates only."] } } });
    expect((await api.get(`${BASE}/${p.id}/templates`, analyst)).body.total).toBe(0);
    const made = await api.send("POST", `${BASE}/${p.id}/templates`, analyst, { name: "Own maps", description: null, type: "Mapping" });
    expect(made.status).toBe(201);
    const retyped = await api.send("PATCH", `${BASE}/${p.id}/templates/${made.body.id}`, analyst, {
      version: made.body.version,
      name: "Own maps",
      description: null,
      type: "Core",
    });
    expect(retyped).toMatchObject({ status: 400, body: { fieldErrors: { type: ["A mapping project takes Mapping templates only."] } } });
    expect((await api.get(`${BASE}/${p.id}/templates/${made.body.id}`, analyst)).body).toMatchObject({ type: "Mapping", version: made.body.version });
  });

  it("does not exist on the Azure cloud target", async () => {
    const p = await mapping();
    const azure = api.appWith({ accessSettings: { cloudTarget: "AZURE", translationAnalystRole: "FusionPSI_TranslationAnalyst" } });
    const token = await api.tokenFor(USERS.superAdmin);
    for (const path of [`${BASE}/search?companyId=${acme.id}`, `${BASE}/${p.id}`, `${BASE}/${p.id}/data-dictionary`, `${BASE}/${p.id}/templates`]) {
      const res = await azure.request(path, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status, path).toBe(404);
    }
  });
});
