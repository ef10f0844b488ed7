import { Migrator, sql, type CompiledQuery, type Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES } from "../../../../scripts/demo-data.ts";
import { createKysely } from "../../../shared/db.ts";
import { TEST_DATABASE_KINDS, createTestDatabase, type TestDatabase } from "../../../shared/testing/databases.ts";
import { comparisonPage, comparisonSummary } from "../repositories/backups.ts";
import { pageProjectUsers } from "../repositories/project-users.ts";
import { findRunWithCounts, insertRun } from "../repositories/runs.ts";
import { searchWorkspaces } from "../repositories/workspaces.ts";
import { seedDemo } from "../seed.ts";
import { migrations } from "./migrations/index.ts";
import { migrateDatabase } from "./migrate.ts";
import type { Database } from "./schema.ts";

describe.each(TEST_DATABASE_KINDS)("migrations and demo seed on %s", (kind) => {
  let database: TestDatabase;
  let db: ReturnType<typeof createKysely<Database>>;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = createKysely<Database>(database.url);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  /**
   * Runs `check` on a fresh database migrated up to `name`, with the first demo company and its application "app"
   * written as they were then (at `at`); `check` migrates it on. The database is dropped after.
   */
  async function fromMigration(name: string, check: (old: Kysely<Database>, company: { id: string }, at: string) => Promise<void>) {
    const fresh = await createTestDatabase(kind);
    const old = createKysely<Database>(fresh.url);
    try {
      const migrator = new Migrator({ db: old, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo(name)).error).toBeUndefined();
      const [company] = DEMO_COMPANIES;
      const at = "2024-01-01T00:00:00.000Z";
      await sql`insert into companies (id, name, created_at) values (${company.id}, 'C', ${at})`.execute(old);
      await sql`insert into applications (id, company_id, name, name_key, created_at) values ('app', ${company.id}, 'A', 'a', ${at})`.execute(old);
      await check(old, company, at);
    } finally {
      await old.destroy();
      await fresh.drop();
    }
  }

  it("migrates a fresh database, and a second start changes nothing", async () => {
    const first = await migrateDatabase(db);
    // Every registered migration runs once, in order, and all succeed.
    expect(first.map((r) => r.migrationName)).toEqual(Object.keys(migrations).sort());
    expect(first.every((r) => r.status === "Success")).toBe(true);
    expect(await migrateDatabase(db)).toEqual([]);
    const tables = (await db.introspection.getTables()).map((t) => t.name).sort();
    expect(tables).toEqual(expect.arrayContaining(["companies", "projects", "workspace_schemes"]));
    // The schemes (admin data sources) are the client portal's since migration 0004.
    expect(tables).not.toContain("admin_data_sources");
  });

  it("seeds the demo companies with their fixed ids in their given order, once, however often it runs", async () => {
    await seedDemo(db);
    await seedDemo(db);
    // No ORDER BY on purpose: insertion order, which must be the demo list's, not alphabetical.
    const companies = await db.selectFrom("companies").select(["id", "name"]).execute();
    expect(companies).toEqual(DEMO_COMPANIES.map((c) => ({ id: c.id, name: c.name })));
  });

  it("keeps a configuration's schemes only for a workspace that exists, and one default per company and kind", async () => {
    await expect(
      sql`insert into workspace_schemes (workspace_id, scheme_id, scheme_name, position) values ('missing', 's', 'n', 0)`.execute(db),
    ).rejects.toThrow(/foreign key/i);
    const [company] = DEMO_COMPANIES;
    await sql`insert into applications (id, company_id, name, name_key, created_at) values ('app', ${company.id}, 'A', 'a', '2024-01-01T00:00:00.000Z')`.execute(db);
    const insert = (id: string, productType: string, isDefault: number) =>
      sql`insert into projects (id, company_id, application_id, name, name_key, source_type, status, created_at, updated_at, created_by, product_type, is_default)
          values (${id}, ${company.id}, 'app', ${id}, ${id}, 'FlatFile', 'Active', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z', 'u', ${productType}, ${isDefault})`.execute(db);
    await insert("first", "Onboarding", 1);
    await insert("migration-default", "Migration", 1);
    await expect(insert("second", "Onboarding", 1)).rejects.toThrow(/unique/i);
    await insert("third", "Onboarding", 0);
    // Rows written as before 0004 are migration projects that are nobody's default.
    await sql`insert into projects (id, company_id, application_id, name, name_key, source_type, status, created_at, updated_at, created_by)
              values ('legacy', ${company.id}, 'app', 'L', 'l', 'BackUp', 'Active', '2024-01-01T00:00:00.000Z', '2024-01-01T00:00:00.000Z', 'u')`.execute(db);
    const row = await db.selectFrom("projects").select(["product_type", "is_default"]).where("id", "=", "legacy").executeTakeFirstOrThrow();
    expect({ ...row, is_default: Number(row.is_default) }).toEqual({ product_type: "Migration", is_default: 0 });
  });

  it("pages a project's access list in the order of an index, sorting nothing (0023)", async () => {
    // The page's own SELECT, as pageProjectUsers sends it (captured, not copied), with its values.
    let page: CompiledQuery | undefined;
    const capturing = db.withPlugin({
      transformQuery: ({ node, queryId }) => ((page ??= db.getExecutor().compileQuery(node, queryId)), node),
      transformResult: async ({ result }) => result,
    });
    await pageProjectUsers(capturing, "any-project", { page: 1, pageSize: 25 });
    const plan = await planOf(db, kind, page!);
    expect(plan).toMatch(/project_users_project_granted/);
    expect(plan).not.toMatch(/sort|b-tree/i);
  });

  it("finds by which run a run was rerun, the latest rerun that ran a script, in one lookup of an index on rerun_of (0030)", async () => {
    const at = (minute: number) => `2024-01-01T00:${String(minute).padStart(2, "0")}:00.000Z`;
    await sql`insert into companies (id, name, created_at) values ('runs-company', 'R', ${at(0)})`.execute(db);
    await sql`insert into applications (id, company_id, name, name_key, created_at) values ('runs-app', 'runs-company', 'A', 'a', ${at(0)})`.execute(db);
    for (const id of ["runs-project", "runs-other"])
      await sql`insert into projects (id, company_id, application_id, name, name_key, source_type, status, created_at, updated_at, created_by)
                values (${id}, 'runs-company', 'runs-app', ${id}, ${id}, 'BackUp', 'Active', ${at(0)}, ${at(0)}, 'u')`.execute(db);
    const scope = { templateIds: [], levelIds: [], scriptId: null, fromScriptId: null };
    const step = { templateName: "T", levelName: "L", scriptId: "s", scriptName: "S", scriptVersion: 1, sql: "select 1;" };
    /** A Full run started at `minute`, its one step left as `status` (Pending: it never reached a script). */
    const run = async (minute: number, rerunOf: string | null, status: string, projectId = "runs-project") => {
      const id = await insertRun(db, { projectId, type: "Full", onError: "stop", scope, rerunOf, userId: "u", userName: null, steps: [step] }, new Date(at(minute)));
      await db.updateTable("run_steps").set({ status }).where("run_id", "=", id).execute();
      return id;
    };
    const failed = await run(1, null, "Failed");
    expect((await findRunWithCounts(db, "runs-project", failed)).rerunBy).toBeNull();
    const earlier = await run(2, failed, "Completed");
    const later = await run(3, failed, "Failed");
    // Latest of all, but they ran nothing: a rerun that never reached a script, another project's row.
    await run(4, failed, "Pending");
    await run(5, failed, "Completed", "runs-other");
    expect(earlier).not.toBe(later);
    const found = await findRunWithCounts(db, "runs-project", failed);
    expect(found.rerunBy).toEqual({ id: later, createdAt: at(3) });
    expect(found.counts).toEqual({ steps: 1, failed: 1 });
    expect(found.row).toMatchObject({ id: failed, rerun_of: null, status: "IN_PROGRESS" });
    expect((await findRunWithCounts(db, "runs-project", later)).rerunBy).toBeNull();

    // The run's own SELECT, as findRunWithCounts sends it at each poll of the run's page (captured, not copied).
    let read: CompiledQuery | undefined;
    const capturing = db.withPlugin({
      transformQuery: ({ node, queryId }) => ((read ??= db.getExecutor().compileQuery(node, queryId)), node),
      transformResult: async ({ result }) => result,
    });
    await findRunWithCounts(capturing, "runs-project", failed);
    const values: Record<string, unknown> = { runId: failed, projectId: "runs-project" };
    const parameters = read!.parameters.map((p) => values[(p as { name: string }).name]);
    const plan = await planOf(db, kind, { ...read!, parameters });
    // The reruns are looked up once, through the index: not read twice, nor through the project's runs.
    expect(plan.match(/runs_rerun_of_idx/g)).toHaveLength(1);
  });

  it("moves on to Active a workspace left at the templates step with a template of its own, and no other (0024)", () =>
    fromMigration("0023_project_users_granted_order", async (old, company, at) => {
      const project = (id: string, status: string) =>
        sql`insert into projects (id, company_id, application_id, name, name_key, source_type, status, created_at, updated_at, created_by)
            values (${id}, ${company.id}, 'app', ${id}, ${id}, 'BackUp', ${status}, ${at}, ${at}, 'u')`.execute(old);
      const template = (id: string, projectId: string | null) =>
        sql`insert into templates (id, company_id, area, project_id, name, name_key, type, status, version, created_at, created_by, updated_at, updated_by)
            values (${id}, ${company.id}, 'migration', ${projectId}, ${id}, ${id}, 'Core', 'Available', 1, ${at}, 'u', ${at}, 'u')`.execute(old);
      await project("stuck", "SetupAssignTemplatesIncomplete");
      await project("waiting", "SetupAssignTemplatesIncomplete");
      await project("early", "SetupRestoreDatabaseIncomplete");
      await template("master", null);
      await template("stuck-copy", "stuck");
      await template("early-copy", "early");
      await migrateDatabase(old);
      const rows = await old.selectFrom("projects").select(["id", "status", "version"]).orderBy("id").execute();
      expect(rows.map((r) => ({ ...r, version: Number(r.version) }))).toEqual([
        { id: "early", status: "SetupRestoreDatabaseIncomplete", version: 0 },
        { id: "stuck", status: "Active", version: 1 },
        { id: "waiting", status: "SetupAssignTemplatesIncomplete", version: 0 },
      ]);
    }));

  it("gives the applications there are their natural sort key, a number ordered by its value (0025)", () =>
    fromMigration("0024_templates_step_done", async (old, company, at) => {
      for (const [id, name] of [["ten", "Bulk app 10"], ["two", " Bulk APP 02 "], ["one", "Bulk app 1"]] as const)
        await sql`insert into applications (id, company_id, name, name_key, created_at) values (${id}, ${company.id}, ${name}, ${name.trim().toLowerCase()}, ${at})`.execute(old);
      await migrateDatabase(old);
      const rows = await old.selectFrom("applications").select(["id", "name_sort"]).where("id", "!=", "app").orderBy("name_sort").execute();
      expect(rows).toEqual([
        { id: "one", name_sort: "bulk app 0011" },
        { id: "two", name_sort: "bulk app 0012" },
        { id: "ten", name_sort: "bulk app 00210" },
      ]);
    }));

  it("gives the master dictionaries, workspaces and templates there are their natural sort key (0026)", () =>
    fromMigration("0025_application_natural_order", async (old, company, at) => {
      const names = [["ten", "Paging 10"], ["two", " Paging 02 "], ["one", "paging 1"]] as const;
      for (const [id, name] of names) {
        const key = name.trim().toLowerCase();
        await sql`insert into dictionaries (id, company_id, application_id, project_id, name, name_key, version, created_at, updated_at, updated_by)
                  values (${id}, ${company.id}, 'app', null, ${name}, ${key}, 1, ${at}, ${at}, 'u')`.execute(old);
        await sql`insert into projects (id, company_id, application_id, name, name_key, source_type, status, created_at, updated_at, created_by, product_type)
                  values (${id}, ${company.id}, 'app', ${name}, ${`ONBOARDING:${key}`}, 'BackUp', 'Active', ${at}, ${at}, 'u', 'Onboarding')`.execute(old);
        await sql`insert into templates (id, company_id, area, project_id, name, name_key, type, status, version, created_at, created_by, updated_at, updated_by)
                  values (${id}, ${company.id}, 'migration', null, ${name}, ${key}, 'Core', 'Draft', 1, ${at}, 'u', ${at}, 'u')`.execute(old);
      }
      await migrateDatabase(old);
      for (const table of ["dictionaries", "projects", "templates"] as const) {
        const rows = await old.selectFrom(table).select(["id", "name_sort"]).orderBy("name_sort").execute();
        // A workspace's key has no kind's prefix: the list is of one kind already.
        expect(rows).toEqual([
          { id: "one", name_sort: "paging 0011" },
          { id: "two", name_sort: "paging 0012" },
          { id: "ten", name_sort: "paging 00210" },
        ]);
      }
    }));

  it("keeps a service's SQL credential name unique per company among those not revoked, in any case, by an index, and gives each its natural sort key (0027)", () =>
    fromMigration("0026_names_natural_order", async (old, company, at) => {
      const [, other] = DEMO_COMPANIES;
      await sql`insert into companies (id, name, created_at) values (${other.id}, 'O', ${at})`.execute(old);
      const credential = (id: string, name: string, opts: { companyId?: string; userId?: string; revokedAt?: string; createdAt?: string } = {}) =>
        sql`insert into sql_credentials (id, company_id, login, user_id, name, expires_on, created_at, created_by, password_set_at, revoked_at)
            values (${id}, ${opts.companyId ?? company.id}, ${`login_${id}`}, ${opts.userId ?? null}, ${name}, '2099-01-01', ${opts.createdAt ?? at}, 'u', ${at}, ${opts.revokedAt ?? null})`.execute(
          old,
        );
      // As made before the rule was checked: two of one name (the second later), a revoked one, a user's, another company's.
      await credential("first", "ETL job");
      await credential("later", " etl JOB ", { createdAt: "2024-01-02T00:00:00.000Z" });
      await credential("revoked", "Etl job", { revokedAt: at });
      await credential("user", "ETL job", { userId: "some-user" });
      await credential("other", "ETL job", { companyId: other.id });
      await credential("numbered", "Paging svc 10");
      await migrateDatabase(old);
      const keys = await old.selectFrom("sql_credentials").select(["id", "name_key", "name_sort"]).orderBy("id").execute();
      // And each its natural sort key, which the lists sorted by name read.
      expect(keys).toEqual([
        { id: "first", name_key: "etl job", name_sort: "etl job" },
        { id: "later", name_key: null, name_sort: "etl job" },
        { id: "numbered", name_key: "paging svc 10", name_sort: "paging svc 00210" },
        { id: "other", name_key: "etl job", name_sort: "etl job" },
        { id: "revoked", name_key: "etl job", name_sort: "etl job" },
        { id: "user", name_key: null, name_sort: "etl job" },
      ]);
      // A second not revoked for the company's name is refused by the database itself; a revoked one is not.
      const keyed = (id: string, revokedAt: string | null) =>
        sql`insert into sql_credentials (id, company_id, login, user_id, name, name_key, expires_on, created_at, created_by, password_set_at, revoked_at)
            values (${id}, ${company.id}, ${`login_${id}`}, null, 'ETL JOB', 'etl job', '2099-01-01', ${at}, 'u', ${at}, ${revokedAt})`.execute(old);
      await expect(keyed("again", null)).rejects.toThrow(/unique/i);
      await keyed("revoked-again", at);
      // Once the holder is revoked, the name is free.
      await sql`update sql_credentials set revoked_at = ${at} where id = 'first'`.execute(old);
      await keyed("replacement", null);
    }));

  it("drops the permission rows of the SQL credentials revoked before a revocation dropped them, and no other (0028)", () =>
    fromMigration("0027_sql_credential_names", async (old, company, at) => {
      await sql`insert into projects (id, company_id, application_id, name, name_key, source_type, status, created_at, updated_at, created_by)
          values ('p', ${company.id}, 'app', 'P', 'p', 'BackUp', 'Active', ${at}, ${at}, 'u')`.execute(old);
      for (const [id, revokedAt] of [
        ["kept", null],
        ["revoked", at],
      ] as const) {
        await sql`insert into sql_credentials (id, company_id, login, user_id, name, expires_on, created_at, created_by, password_set_at, revoked_at)
            values (${id}, ${company.id}, ${`login_${id}`}, null, ${id}, '2099-01-01', ${at}, 'u', ${at}, ${revokedAt})`.execute(old);
        await sql`insert into sql_permissions (credential_id, project_id, level, granted_at, granted_by) values (${id}, 'p', 'write', ${at}, 'u')`.execute(old);
      }
      await migrateDatabase(old);
      const rows = await old.selectFrom("sql_permissions").select(["credential_id", "level"]).execute();
      expect(rows).toEqual([{ credential_id: "kept", level: "write" }]);
      // The revoked credential itself stays (the audit log names its login).
      expect((await old.selectFrom("sql_credentials").select("id").orderBy("id").execute()).map((r) => r.id)).toEqual(["kept", "revoked"]);
    }));

  it("gives the comparisons there are their tables' counts from their results, in batches, a result stored before columnChanges too (0029)", () =>
    fromMigration("0028_revoked_sql_permissions", async (old, company, at) => {
      await sql`insert into projects (id, company_id, application_id, name, name_key, source_type, status, created_at, updated_at, created_by)
          values ('p', ${company.id}, 'app', 'P', 'p', 'BackUp', 'Active', ${at}, ${at}, 'u')`.execute(old);
      // More tables than a batch: 250 in one comparison, and one in another stored before columnChanges was recorded.
      for (const id of ["many", "older"])
        await sql`insert into loads (id, project_id, run_type, file_name, file_bytes, table_name, mode, on_rejected, status, created_by, created_at)
            values (${id}, 'p', 'Comparison', 'b.backup.tar', 0, 'source', 'replace', 'loadNothing', 'Completed', 'u', ${at})`.execute(old);
      const result = (i: number) => ({
        table: `T${i}`,
        added: i,
        removed: i % 2,
        changed: 3_000_000_000 * (i === 249 ? 1 : 0),
        columnChanges: i % 5 === 0 ? [{ column: "A", earlier: null, current: "int" }] : [],
      });
      for (let i = 0; i < 250; i++)
        await sql`insert into comparison_tables (load_id, table_name, position, result) values ('many', ${`T${i}`}, ${i}, ${JSON.stringify(result(i))})`.execute(old);
      await sql`insert into comparison_tables (load_id, table_name, position, result) values ('older', 'Old', 0, ${JSON.stringify({ table: "Old", added: 0, removed: 2, changed: 1 })})`.execute(
        old,
      );
      await migrateDatabase(old);
      const rows = await old.selectFrom("comparison_tables").select(["load_id", "position", "added", "removed", "changed", "column_changes"]).orderBy("load_id").orderBy("position").execute();
      const numbers = rows.map((r) => ({ ...r, position: Number(r.position), added: Number(r.added), removed: Number(r.removed), changed: Number(r.changed), column_changes: Number(r.column_changes) }));
      expect(numbers).toEqual([
        ...Array.from({ length: 250 }, (_, i) => ({
          load_id: "many",
          position: i,
          added: i,
          removed: i % 2,
          changed: i === 249 ? 3_000_000_000 : 0,
          column_changes: i % 5 === 0 ? 1 : 0,
        })),
        { load_id: "older", position: 0, added: 0, removed: 2, changed: 1, column_changes: 0 },
      ]);
      // The summary reads them: 250 tables, each differing (T0 by its column added alone).
      expect(await comparisonSummary(old, "many")).toEqual({ tables: 250, differing: 250, added: 31_125, removed: 125, changed: 3_000_000_000 });
    }));

  it("pages a comparison's tables and sums them in the order of an index, sorting nothing and reading no result to filter (0029)", async () => {
    for (const differing of [false, true]) {
      // The page's own SELECT, as comparisonPage sends it (captured, not copied), with its values.
      let page: CompiledQuery | undefined;
      const capturing = db.withPlugin({
        transformQuery: ({ node, queryId }) => ((page ??= db.getExecutor().compileQuery(node, queryId)), node),
        transformResult: async ({ result }) => result,
      });
      await comparisonPage(capturing, "any-comparison", { page: 2, pageSize: 10, differing });
      const plan = await planOf(db, kind, page!);
      expect(plan).toMatch(/comparison_tables_load_position/);
      expect(plan.replaceAll("comparison_tables_load_position", "")).not.toMatch(/sort|b-tree/i);
    }
  });

  it("pages a company's workspaces by name in the order of an index, sorting nothing (0026)", async () => {
    for (const seesAll of [true, false]) {
      // The page's own SELECT, as searchWorkspaces sends it (captured, not copied), with its values.
      let page: CompiledQuery | undefined;
      const capturing = db.withPlugin({
        transformQuery: ({ node, queryId }) => ((page ??= db.getExecutor().compileQuery(node, queryId)), node),
        transformResult: async ({ result }) => result,
      });
      const search = { companyId: "any-company", status: [], page: 2, pageSize: 25, sort: "-name" } as const;
      await searchWorkspaces(capturing, "migration", search, { userId: "any-user", seesAll }, (rows) => [...rows]);
      const values: Record<string, unknown> = { productType: "Migration", companyId: "any-company", userId: "any-user", limit: 25, offset: 25 };
      const parameters = page!.parameters.map((p) => values[(p as { name: string }).name]);
      const plan = await planOf(db, kind, { ...page!, parameters });
      expect(plan).toMatch(/projects_company_kind_name_sort/);
      // No step sorts (SQLite's temp b-tree, PostgreSQL's Sort): the index's own name aside.
      expect(plan.replaceAll("projects_company_kind_name_sort", "")).not.toMatch(/sort|b-tree/i);
    }
  });

  it("keeps a load's counts, header and rejected rows when its table moves to load_tables (0011)", () =>
    fromMigration("0010_lock_events", async (old, company, at) => {
      await sql`insert into projects (id, company_id, application_id, name, name_key, source_type, status, created_at, updated_at, created_by)
                values ('p', ${company.id}, 'app', 'P', 'p', 'FlatFile', 'Active', ${at}, ${at}, 'u')`.execute(old);
      await sql`insert into loads (id, project_id, file_name, file_bytes, table_name, mode, on_rejected, status, rows_read, rows_loaded, rows_rejected, header, created_by, created_at)
                values ('l', 'p', 'old.csv', 10, 'Customers', 'replace', 'loadOthers', 'Loaded', 3, 2, 1, '["Id"]', 'u', ${at})`.execute(old);
      await sql`insert into load_rejections (load_id, line, column_name, value, reason, cells) values ('l', 3, 'Id', 'x', 'not a whole number', '["x"]')`.execute(
        old,
      );
      await migrateDatabase(old);
      const tables = await old.selectFrom("load_tables").selectAll().execute();
      expect(
        tables.map((t) => ({
          ...t,
          rows_read: Number(t.rows_read),
          rows_loaded: Number(t.rows_loaded),
          rows_rejected: Number(t.rows_rejected),
          position: Number(t.position),
        })),
      ).toEqual([
        { load_id: "l", table_name: "Customers", position: 0, file_name: "old.csv", rows_read: 3, rows_loaded: 2, rows_rejected: 1, header: '["Id"]' },
      ]);
      const rejections = await old.selectFrom("load_rejections").select(["load_id", "table_name", "line", "reason"]).execute();
      expect(rejections.map((r) => ({ ...r, line: Number(r.line) }))).toEqual([
        { load_id: "l", table_name: "Customers", line: 3, reason: "not a whole number" },
      ]);
      // What it read its file with is not known: no copy.
      expect(await old.selectFrom("loads").select(["run_type", "parameters"]).executeTakeFirstOrThrow()).toEqual({ run_type: "FlatFile", parameters: null });
    }));
});

/**
 * How the engine runs `query`, one line per step. PostgreSQL is told to avoid a full scan and a sort
 * where it has any other way, since a table this small would otherwise be read whole whatever its indexes.
 */
async function planOf(db: Kysely<Database>, kind: string, query: CompiledQuery): Promise<string> {
  if (kind === "sqlite") {
    const { rows } = await db.executeQuery<{ detail: string }>({ ...query, sql: `explain query plan ${query.sql}` });
    return rows.map((r) => r.detail).join("\n");
  }
  return db.connection().execute(async (session) => {
    await sql`set enable_seqscan = off`.execute(session);
    await sql`set enable_sort = off`.execute(session);
    try {
      const { rows } = await session.executeQuery<{ "QUERY PLAN": string }>({ ...query, sql: `explain ${query.sql}` });
      return rows.map((r) => r["QUERY PLAN"]).join("\n");
    } finally {
      await sql`reset all`.execute(session);
    }
  });
}
