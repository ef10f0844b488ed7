import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Dictionary } from "../../../../../contracts/dictionary.ts";
import type { Project } from "../../../../../contracts/projects.ts";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS } from "../../../../shared/testing/databases.ts";
import { fixture, seedDictionary, upload } from "../../testing/dictionary-fixtures.ts";
import { USERS, createTestApi, type TestApi } from "../../testing/harness.ts";
import { column, makeApplication, makeProject } from "../../testing/project-fixtures.ts";

const [, acme, birch] = DEMO_COMPANIES;

describe.each(TEST_DATABASE_KINDS)("a project's own data dictionary on %s", (kind) => {
  let api: TestApi;
  let owner: string;
  beforeAll(async () => {
    api = await createTestApi(kind);
    owner = await api.tokenFor(USERS.analyst);
  });
  afterAll(() => api?.close());

  const base = (p: Pick<Project, "id">) => `/api/v1/projects/${p.id}/data-dictionary`;
  const statusOf = async (p: Project) => (await api.get(`/api/v1/projects/${p.id}`, owner)).body.status as string;
  const versionOf = async (p: Project) => (await api.get(base(p), owner)).body.version as number;

  /** A master dictionary of a new application, with two tables: the project is made on that application. */
  async function masterWithTables(companyId: string = birch.id): Promise<Dictionary> {
    const master = await seedDictionary(api, owner, companyId);
    const add = (name: string, version: number) =>
      api.send("POST", `/api/v1/data-dictionaries/${master.id}/tables`, owner, { version, name, columns: [column("Id", "int", { isKey: true, nullable: false }), column("Label", "nvarchar")] });
    const first = await add("Accounts", master.version);
    await add("Entries", first.body.version);
    return (await api.get(`/api/v1/data-dictionaries/${master.id}?tables=all`, owner)).body as Dictionary;
  }

  it("starts empty, and moves the wizard status with every table change", async () => {
    const app = await makeApplication(api, birch.id);
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId: app.id });
    expect((await api.get(base(project), owner)).body).toEqual({
      projectId: project.id,
      version: 1,
      sourceDictionaryId: null,
      sourceDictionaryName: null,
      tableCount: 0,
      columnCount: 0,
      emptyTableCount: 0,
    });

    const created = await api.send("POST", `${base(project)}/tables`, owner, { version: 1, name: "Customers", columns: [] });
    expect(created.status).toBe(201);
    expect(await statusOf(project)).toBe("SetupAddColumnsIncomplete");
    const tableId = created.body.table.id as string;

    const filled = await api.send("PATCH", `${base(project)}/tables`, owner, {
      version: created.body.version,
      tableId,
      name: "Customers",
      columns: [column("Id", "int", { isKey: true, nullable: false }), column("Name", "nvarchar", { length: 80 })],
    });
    expect(filled.status).toBe(200);
    expect(await statusOf(project)).toBe("SetupUploadTypeIncomplete");

    const list = await api.get(`${base(project)}/tables?name=cust`, owner);
    expect(list.body).toMatchObject({ total: 1, items: [{ id: tableId, name: "Customers", columnCount: 2 }] });
    const details = await api.get(`${base(project)}/tables/${tableId}/table-details`, owner);
    expect(details.status).toBe(200);
    expect(details.body.columns.map((c: { name: string }) => c.name)).toEqual(["Id", "Name"]);
    expect((await api.get(`${base(project)}/tables/nope/table-details`, owner)).status).toBe(404);

    const stale = await api.send("DELETE", `${base(project)}/tables/${tableId}?version=${created.body.version}`, owner);
    expect(stale.status).toBe(409);
    const removed = await api.send("DELETE", `${base(project)}/tables/${tableId}?version=${filled.body.version}`, owner);
    expect(removed.status).toBe(200);
    expect(await statusOf(project)).toBe("SetupDataDictionaryIncomplete");
  });

  it("leaves the status alone once the project is past the dictionary step", async () => {
    const app = await makeApplication(api, birch.id);
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId: app.id });
    await api.db.updateTable("projects").set({ status: "Active" }).where("id", "=", project.id).execute();
    await api.send("POST", `${base(project)}/tables`, owner, { version: 1, name: "Late", columns: [] });
    expect(await statusOf(project)).toBe("Active");
  });

  it("assigns a master dictionary of the project's application: a copy, edited without touching the master", async () => {
    const master = await masterWithTables();
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId: master.applicationId });
    const res = await api.send("POST", `${base(project)}/${master.id}/assign`, owner, { version: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      projectId: project.id,
      version: 2,
      sourceDictionaryId: master.id,
      sourceDictionaryName: master.name,
      tableCount: 2,
      columnCount: 4,
      emptyTableCount: 0,
    });
    expect(await statusOf(project)).toBe("SetupUploadTypeIncomplete");
    expect((await api.get(`/api/v1/projects/${project.id}`, owner)).body.sourceDictionaryId).toBe(master.id);

    const tables = (await api.get(`${base(project)}/tables`, owner)).body.items as { id: string; name: string }[];
    expect(tables.map((t) => t.name)).toEqual(["Accounts", "Entries"]);
    expect(tables.map((t) => t.id)).not.toContain(master.tables[0]!.id);
    await api.send("DELETE", `${base(project)}/tables/${tables[0]!.id}?version=2`, owner);
    expect((await api.get(`/api/v1/data-dictionaries/${master.id}?tables=all`, owner)).body.tables).toHaveLength(2);

    // A stale version changes nothing.
    expect((await api.send("POST", `${base(project)}/${master.id}/assign`, owner, { version: 2 })).status).toBe(409);
    expect((await api.get(base(project), owner)).body.tableCount).toBe(1);
  });

  it("answers 404 for a dictionary of another application, another company, or a project's copy", async () => {
    const master = await masterWithTables();
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId: master.applicationId });
    const otherApplication = await masterWithTables();
    const otherCompany = await masterWithTables(acme.id);
    const sibling = await makeProject(api, owner, { companyId: birch.id, applicationId: master.applicationId });
    const siblingCopy = await api.db.selectFrom("dictionaries").select("id").where("project_id", "=", sibling.id).executeTakeFirstOrThrow();
    for (const id of [otherApplication.id, otherCompany.id, siblingCopy.id, "nope"]) {
      const res = await api.send("POST", `${base(project)}/${id}/assign`, owner, { version: 1 });
      expect(res.status, id).toBe(404);
      expect(res.body.errors).toEqual(["Data dictionary not found."]);
    }
  });

  it("refuses to assign a master dictionary without tables, keeping the project's own tables", async () => {
    const empty = await seedDictionary(api, owner, birch.id);
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId: empty.applicationId });
    const defined = await api.send("POST", `${base(project)}/tables`, owner, { version: 1, name: "Customers", columns: [column("Id", "int")] });
    const res = await api.send("POST", `${base(project)}/${empty.id}/assign`, owner, { version: defined.body.version });
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([
      "This master dictionary has no tables yet: give it its tables first (Bulk update), or assign another one. The project's tables are unchanged.",
    ]);
    expect((await api.get(base(project), owner)).body).toMatchObject({ version: defined.body.version, sourceDictionaryId: null, tableCount: 1 });
    expect(await statusOf(project)).toBe("SetupUploadTypeIncomplete");
  });

  it("refuses to assign a master dictionary holding a table without columns (saved before a master's table needed one), keeping the project's own tables", async () => {
    const master = await masterWithTables();
    // A master's table can no longer be saved without columns: one stored before that rule.
    await api.db.deleteFrom("dictionary_columns").where("table_id", "=", master.tables[1]!.id).execute();
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId: master.applicationId });
    const defined = await api.send("POST", `${base(project)}/tables`, owner, { version: 1, name: "Customers", columns: [column("Id", "int")] });
    const res = await api.send("POST", `${base(project)}/${master.id}/assign`, owner, { version: defined.body.version });
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([
      "A table of this master dictionary has no columns: give it its columns first (its data definition), or assign another one. The project's tables are unchanged.",
    ]);
    expect((await api.get(base(project), owner)).body).toMatchObject({
      version: defined.body.version,
      sourceDictionaryId: null,
      tableCount: 1,
      columnCount: 1,
    });
    expect(await statusOf(project)).toBe("SetupUploadTypeIncomplete");
  });

  it("refuses to assign once the databases exist", async () => {
    const master = await masterWithTables();
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId: master.applicationId });
    await api.db.updateTable("projects").set({ status: "SetupRestoreDatabaseIncomplete" }).where("id", "=", project.id).execute();
    expect((await api.send("POST", `${base(project)}/${master.id}/assign`, owner, { version: 1 })).status).toBe(409);
  });

  it("guards every route with the project rule: other company 404, read-only 403, locked 409", async () => {
    const app = await makeApplication(api, birch.id);
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId: app.id });
    const acmeUser = await api.tokenFor(USERS.viewer);
    expect((await api.get(base(project), acmeUser)).status).toBe(404);
    expect((await api.get(`${base(project)}/tables`, acmeUser)).status).toBe(404);
    expect((await api.send("POST", `${base(project)}/tables`, acmeUser, { version: 1, name: "X", columns: [] })).status).toBe(404);

    await api.send("PUT", `/api/v1/projects/${project.id}/users/${USERS.clientAdmin.id}`, owner, { canRead: true });
    const reader = await api.tokenFor(USERS.clientAdmin);
    expect((await api.get(base(project), reader)).status).toBe(200);
    expect((await api.send("POST", `${base(project)}/tables`, reader, { version: 1, name: "X", columns: [] })).status).toBe(403);

    await api.db.updateTable("projects").set({ is_locked: 1, lock_reason: "DatabaseCreation" }).where("id", "=", project.id).execute();
    const locked = await api.send("POST", `${base(project)}/tables`, owner, { version: await versionOf(project), name: "X", columns: [] });
    expect(locked.status).toBe(409);
    expect(locked.body.errors[0]).toMatch(/^The project is locked \(Database creation\)/);
    expect((await api.get(base(project), owner)).status).toBe(200);
  });

  it("bulk-updates the project's dictionary through a review, then moves the status", async () => {
    const app = await makeApplication(api, birch.id);
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId: app.id });
    const review = await upload(api, `${base(project)}/bulk-uploads`, owner, fixture("sample-dictionary.csv"), "sample-dictionary.csv");
    expect(review.status).toBe(201);
    expect(review.body.canApply).toBe(true);
    expect(await statusOf(project)).toBe("SetupDataDictionaryIncomplete");

    const applied = await api.send("POST", `${base(project)}/bulk-uploads/${review.body.id}/apply`, owner);
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({ tableCount: 2 });
    expect((await api.get(`${base(project)}/tables`, owner)).body.items.map((t: { name: string }) => t.name)).toEqual(["Customers", "Orders"]);
    expect(await statusOf(project)).toBe("SetupUploadTypeIncomplete");
  });
});
