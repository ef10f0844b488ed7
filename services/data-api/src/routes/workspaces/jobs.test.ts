import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Job, Project } from "../../../../../contracts/projects.ts";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS, TEST_POSTGRES_ADMIN_URL } from "../../../../shared/testing/databases.ts";
import { DATABASE_CREATION_STEPS } from "../../data-plane/database-creation.ts";
import { databaseExists, databaseNameOf, describeProjectDatabases } from "../../data-plane/project-databases.ts";
import { createDataPlane } from "../../data-plane/servers.ts";
import { finishJob, insertJob } from "../../jobs/job-store.ts";
import { INTERRUPTED_MESSAGE, recoverInterruptedJobs } from "../../jobs/recover.ts";
import { TEST_DATABASE_SERVER, USERS, createOwnerTestApi, type TestApi } from "../../testing/harness.ts";
import { settleJobs } from "../../testing/hold-jobs.ts";
import { addProjectTable, column, makeProject } from "../../testing/project-fixtures.ts";

const [, , birch] = DEMO_COMPANIES;

/** A promise a test resolves (or rejects) when it lets a held job go on. */
function gate() {
  let open!: () => void;
  let fail!: (err: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

describe.each(TEST_DATABASE_KINDS)("jobs and database creation on %s", (kind) => {
  let api: TestApi;
  let applicationId: string;
  let owner: string;

  beforeAll(async () => {
    ({ api, applicationId, owner } = await createOwnerTestApi(kind, birch.id));
  });
  afterEach(() => settleJobs(api.jobs));
  afterAll(() => api?.close());

  /** A project at wizard step 3: two tables with columns, an upload type, status SetupUploadTypeIncomplete. */
  async function readyProject(sourceType: "BackUp" | "FlatFile" = "BackUp"): Promise<Project> {
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId, sourceType });
    await addProjectTable(api, project.id, {
      name: "Customers",
      columns: [
        column("CustomerId", "int", { isKey: true, nullable: false }),
        column("Name", "nvarchar", { length: 10, nullable: false }),
        column("Balance", "decimal", { precision: 12, scale: 2 }),
        column("Since", "date"),
      ],
    });
    await addProjectTable(api, project.id, {
      name: "Orders",
      columns: [column("OrderId", "uniqueidentifier", { isKey: true, nullable: false }), column("At", "datetime")],
    });
    await api.db.updateTable("projects").set({ status: "SetupUploadTypeIncomplete" }).where("id", "=", project.id).execute();
    const { version } = (await api.get(`/api/v1/projects/${project.id}`, owner)).body;
    await api.send("POST", `/api/v1/projects/${project.id}/upload-type`, owner, { uploadType: "SingleFile", version });
    return (await api.get(`/api/v1/projects/${project.id}`, owner)).body;
  }

  const tryCreate = (project: Project, app = api.app) =>
    app.request(`/api/v1/projects/${project.id}/try-create-databases`, { method: "POST", headers: { authorization: `Bearer ${owner}` } });
  const jobsOf = async (project: Project, app = api.app) =>
    (await (await app.request(`/api/v1/projects/${project.id}/jobs`, { headers: { authorization: `Bearer ${owner}` } })).json()) as {
      isLocked: boolean;
      lockReason: string | null;
      lockState: string;
      jobs: Job[];
    };
  /** Starts the project's database creation (accepted, 202) and waits until its `step` has started, where it is held until `held` opens or fails. */
  async function createHeldAt(project: Project, step: "source" | "destination", held: ReturnType<typeof gate>) {
    api.jobs.hooks.beforeStep = async (s) => {
      if (s.projectId === project.id && s.name === DATABASE_CREATION_STEPS[step]) await held.promise;
    };
    expect((await tryCreate(project)).status).toBe(202);
    await waitFor(async () => (await jobsOf(project)).jobs[0]?.steps.find((s) => s.name === DATABASE_CREATION_STEPS[step])?.status === "Started");
  }
  const projectNow = async (project: Project) => (await api.get(`/api/v1/projects/${project.id}`, owner)).body as Project;
  /** The project's database on the server, with the tables of each schema; null when there is none. */
  async function databaseOf(project: Project): Promise<{ source: string[]; destination: string[] } | null> {
    if (!(await databaseExists(api.dataPlane, TEST_DATABASE_SERVER, project.id))) return null;
    return api.dataPlane.withAdmin(TEST_DATABASE_SERVER, databaseNameOf(project.id), async (client) => {
      const { rows } = await client.query<{ schema: string; name: string }>(
        "select table_schema as schema, table_name as name from information_schema.tables where table_schema in ('source', 'destination') order by 1, 2",
      );
      return {
        source: rows.filter((r) => r.schema === "source").map((r) => r.name),
        destination: rows.filter((r) => r.schema === "destination").map((r) => r.name),
      };
    });
  }
  const BOTH_TABLES = { source: ["Customers", "Orders"], destination: ["Customers", "Orders"] };

  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("takes the lock at once, answers 202 with the job, and releases it with SetupRestoreDatabaseIncomplete when done", async () => {
    const project = await readyProject();
    const held = gate();
    api.jobs.hooks.beforeStep = async (step) => {
      if (step.projectId === project.id && step.position === 0) await held.promise;
    };
    const res = await tryCreate(project);
    expect(res.status).toBe(202);
    const job = (await res.json()) as Job;
    expect(job).toMatchObject({
      projectId: project.id,
      kind: "DatabaseCreation",
      status: "IN_PROGRESS",
      progress: 0,
      error: null,
      createdBy: USERS.analyst.id,
      finishedAt: null,
      steps: Object.values(DATABASE_CREATION_STEPS).map((name) => ({ name, status: "Pending", startedAt: null, finishedAt: null, message: null })),
    });
    // Locked by the request itself, before any step has run.
    expect(await projectNow(project)).toMatchObject({ isLocked: true, lockReason: "DatabaseCreation", status: "DatabaseCreation" });
    held.open();

    await api.jobs.idle();
    const after = await jobsOf(project);
    expect(after).toMatchObject({ isLocked: false, lockReason: null, lockState: "Unlocked" });
    expect(after.jobs).toHaveLength(1);
    expect(after.jobs[0]).toMatchObject({ id: job.id, status: "SUCCESS", progress: 100, error: null, finishedAt: expect.any(String) });
    expect(after.jobs[0]!.steps.map((s) => [s.status, !!s.startedAt, !!s.finishedAt])).toEqual([
      ["Completed", true, true],
      ["Completed", true, true],
      ["Completed", true, true],
    ]);
    expect(await projectNow(project)).toMatchObject({ isLocked: false, lockReason: null, status: "SetupRestoreDatabaseIncomplete" });
    expect(await databaseOf(project)).toEqual(BOTH_TABLES);
  });

  it("answers a job's page's poll with the lock and the running jobs only (…/jobs/progress); another company's project is not found", async () => {
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId, sourceType: "BackUp" });
    const job = (id: string, at: string) => ({
      id,
      projectId: project.id,
      kind: "FlatFile",
      previousStatus: "Active",
      createdBy: USERS.analyst.id,
      now: at,
      stepNames: ["Read"],
    });
    await insertJob(api.db, job(`${project.id}-done`, "2026-01-01T00:00:00.000Z"));
    await finishJob(api.db, `${project.id}-done`, { status: "SUCCESS", error: null }, "2026-01-01T00:01:00.000Z");
    await insertJob(api.db, job(`${project.id}-running`, "2026-01-02T00:00:00.000Z"));
    await api.db.updateTable("projects").set({ is_locked: 1, lock_reason: "FlatFileCreation", lock_state: "Locked", lock_job_id: `${project.id}-running` }).where("id", "=", project.id).execute();

    const polled = await api.get(`/api/v1/projects/${project.id}/jobs/progress`, owner);
    expect(polled.status).toBe(200);
    expect(polled.body).toMatchObject({ isLocked: true, lockReason: "FlatFileCreation", lockState: "Locked" });
    expect((polled.body.jobs as Job[]).map((j) => [j.id, j.status, j.steps.map((s) => s.name)])).toEqual([[`${project.id}-running`, "IN_PROGRESS", ["Read"]]]);
    // The page's own read has both.
    expect((await jobsOf(project)).jobs.map((j) => j.id)).toEqual([`${project.id}-running`, `${project.id}-done`]);
    // Acme Health's viewer asks for Birch Logistics' project.
    expect((await api.get(`/api/v1/projects/${project.id}/jobs/progress`, await api.tokenFor(USERS.viewer))).status).toBe(404);
    // Ended as a job ends, so that no later test's restart finds it running.
    await finishJob(api.db, `${project.id}-running`, { status: "SUCCESS", error: null }, "2026-01-02T00:01:00.000Z");
    await api.db.updateTable("projects").set({ is_locked: 0, lock_reason: null, lock_state: "Unlocked", lock_job_id: null }).where("id", "=", project.id).execute();
    expect((await api.get(`/api/v1/projects/${project.id}/jobs/progress`, owner)).body).toMatchObject({ isLocked: false, jobs: [] });
  });

  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("creates source and destination with one table per dictionary table and typed columns", async () => {
    const project = await readyProject();
    await tryCreate(project);
    await api.jobs.idle();
    await api.dataPlane.withAdmin(TEST_DATABASE_SERVER, databaseNameOf(project.id), async (client) => {
      for (const schema of ["source", "destination"]) {
        const { rows } = await client.query<{ name: string; type: string; nullable: string }>(
          `select column_name as name, format_type(a.atttypid, a.atttypmod) as type, is_nullable as nullable
             from information_schema.columns c join pg_attribute a on a.attrelid = format('%I.%I', c.table_schema, c.table_name)::regclass and a.attname = c.column_name
            where table_schema = $1 and table_name = 'Customers' order by ordinal_position`,
          [schema],
        );
        expect(rows.map((r) => [r.name, r.type, r.nullable])).toEqual([
          ["CustomerId", "integer", "NO"],
          ["Name", "character varying(10)", "NO"],
          ["Balance", "numeric(12,2)", "YES"],
          ["Since", "date", "YES"],
        ]);
        await client.query(`insert into ${schema}."Customers" ("CustomerId", "Name", "Balance", "Since") values (1, 'Ann', 10.5, '2024-05-01')`);
        await expect(client.query(`insert into ${schema}."Customers" ("CustomerId", "Name") values (2, 'Much too long')`)).rejects.toThrow(/too long/);
        await expect(client.query(`insert into ${schema}."Customers" ("CustomerId", "Name", "Since") values (3, 'Bob', '2024-13-01')`)).rejects.toThrow(
          /out of range/,
        );
        await expect(client.query(`insert into ${schema}."Customers" ("CustomerId", "Name") values (1, 'Dup')`)).rejects.toThrow(/duplicate key/);
      }
    });
  });

  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("places each new project's database on the server with the fewest projects, and records it", async () => {
    const url = api.dataPlane.server(TEST_DATABASE_SERVER).adminUrl;
    // Two names for the one throwaway server: placement only counts what each name holds.
    const spread = createDataPlane(
      [
        { id: "first", adminUrl: url },
        { id: "second", adminUrl: url },
      ],
      { secret: "a test secret for project logins, 32+" },
    );
    const app = api.appWith({ dataPlane: spread });
    try {
      const placed: (string | null)[] = [];
      for (let i = 0; i < 3; i++) {
        const project = await readyProject();
        expect((await tryCreate(project, app)).status).toBe(202);
        await api.jobs.idle();
        expect(await projectNow(project)).toMatchObject({ status: "SetupRestoreDatabaseIncomplete" });
        const row = await api.db.selectFrom("projects").select("database_server").where("id", "=", project.id).executeTakeFirstOrThrow();
        placed.push(row.database_server);
      }
      // Earlier tests' projects are on "test", which this app does not know: they count for neither.
      expect(placed.slice(0, 2).sort()).toEqual(["first", "second"]);
      expect(["first", "second"]).toContain(placed[2]);
    } finally {
      await spread.closePools();
    }
  });

  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("describes the databases as they are: not created, then each table with its columns and rows; another company's project is not found", async () => {
    const project = await readyProject();
    const before = await api.get(`/api/v1/projects/${project.id}/databases`, owner);
    expect(before.status).toBe(200);
    expect(before.body.databases).toEqual([
      { kind: "source", name: "Source database", exists: false, tableCount: 0, tables: [] },
      { kind: "destination", name: "Destination database", exists: false, tableCount: 0, tables: [] },
    ]);
    await tryCreate(project);
    await api.jobs.idle();
    await api.dataPlane.withAdmin(TEST_DATABASE_SERVER, databaseNameOf(project.id), (client) =>
      client.query(`insert into source."Customers" ("CustomerId", "Name") values (1, 'Ann'), (2, 'Bob')`),
    );
    const after = await api.get(`/api/v1/projects/${project.id}/databases`, owner);
    // Each table with its size on disk (its rows, indexes and long values: never nothing once created), never loaded yet.
    const table = (name: string, columnCount: number, rowCount: number) => ({
      name,
      columnCount,
      rowCount,
      rowCountEstimated: false,
      bytes: expect.any(Number),
      lastChangedAt: null,
    });
    expect(after.body.databases).toEqual([
      { kind: "source", name: "Source database", exists: true, tableCount: 2, tables: [table("Customers", 4, 2), table("Orders", 2, 0)] },
      { kind: "destination", name: "Destination database", exists: true, tableCount: 2, tables: [table("Customers", 4, 0), table("Orders", 2, 0)] },
    ]);
    const [customers, orders] = after.body.databases[0].tables;
    expect(customers.bytes).toBeGreaterThan(orders.bytes);
    // Past the rows counted one by one (1,000,000; here 1), the count is PostgreSQL's estimate, said so: once analyzed, the real one.
    const estimatedAfter = async () =>
      (await describeProjectDatabases(api.db, api.dataPlane, project.id, { table: "Customers", pageSize: 1, exactUpTo: 1 }))[0]!.tables[0]!;
    expect(await estimatedAfter()).toMatchObject({ name: "Customers", rowCount: 2, rowCountEstimated: true });
    // Not analyzed since it was filled (as after a load that replaced its rows, or a restore): the live rows
    // PostgreSQL's statistics count, not the rows counted one by one (here 2).
    await api.dataPlane.withAdmin(TEST_DATABASE_SERVER, databaseNameOf(project.id), (client) =>
      client.query(`insert into source."Customers" ("CustomerId", "Name") select g, 'x' from generate_series(3, 500) g; select pg_stat_force_next_flush()`),
    );
    expect(await estimatedAfter()).toMatchObject({ rowCount: 500, rowCountEstimated: true });
    await api.dataPlane.withAdmin(TEST_DATABASE_SERVER, databaseNameOf(project.id), (client) => client.query(`analyze source."Customers"`));
    expect(await estimatedAfter()).toMatchObject({ rowCount: 500, rowCountEstimated: true });
    // rows=estimated (a page that needs only the names) counts no table: 50 rows added since the analyze are
    // counted by default, and not in the estimate.
    await api.dataPlane.withAdmin(TEST_DATABASE_SERVER, databaseNameOf(project.id), (client) =>
      client.query(`insert into source."Customers" ("CustomerId", "Name") select g, 'x' from generate_series(501, 550) g`),
    );
    const sourceTables = async (query: string) => (await api.get(`/api/v1/projects/${project.id}/databases${query}`, owner)).body.databases[0].tables;
    expect(await sourceTables("")).toEqual([
      expect.objectContaining({ name: "Customers", rowCount: 550, rowCountEstimated: false }),
      expect.objectContaining({ name: "Orders", rowCount: 0, rowCountEstimated: false }),
    ]);
    expect(await sourceTables("?rows=estimated")).toEqual([
      expect.objectContaining({ name: "Customers", rowCount: 500, rowCountEstimated: true }),
      expect.objectContaining({ name: "Orders", rowCount: 0, rowCountEstimated: true }),
    ]);
    expect((await api.get(`/api/v1/projects/${project.id}/databases?rows=some`, owner)).status).toBe(400);
    const filtered = await api.get(`/api/v1/projects/${project.id}/databases?table=ORD`, owner);
    expect(filtered.body.databases.map((d: { tables: { name: string }[] }) => d.tables.map((t) => t.name))).toEqual([["Orders"], ["Orders"]]);
    // A page of one database's tables, sorted and counted in SQL: its count is every match, whichever page.
    await api.dataPlane.withAdmin(TEST_DATABASE_SERVER, databaseNameOf(project.id), (client) =>
      client.query(
        `set role ${databaseNameOf(project.id)}_owner; create table source.big_extra as select g from generate_series(1, 5000) g; create table source.aaa_small (x int)`,
      ),
    );
    const pageOf = async (query: string) => {
      const answer = await api.get(`/api/v1/projects/${project.id}/databases?database=source&${query}`, owner);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.databases.map((d: { kind: string }) => d.kind)).toEqual(["source"]);
      const [source] = answer.body.databases as { tableCount: number; tables: { name: string; rowCount: number }[] }[];
      return { count: source!.tableCount, names: source!.tables.map((t) => t.name), rows: source!.tables.map((t) => t.rowCount) };
    };
    expect(await pageOf("pageSize=10")).toEqual({ count: 4, names: ["aaa_small", "big_extra", "Customers", "Orders"], rows: [0, 5000, 550, 0] });
    expect(await pageOf("pageSize=10&sort=-name")).toMatchObject({ names: ["Orders", "Customers", "big_extra", "aaa_small"] });
    expect((await pageOf("pageSize=10&sort=-size")).names[0]).toBe("big_extra");
    expect(await pageOf("pageSize=10&page=2")).toEqual({ count: 4, names: [], rows: [] });
    expect(await pageOf("pageSize=10&table=a")).toMatchObject({ count: 2, names: ["aaa_small", "big_extra"] });
    // Without pageSize, a page of 25 as every list: never every table of a project that has thousands.
    await api.dataPlane.withAdmin(TEST_DATABASE_SERVER, databaseNameOf(project.id), (client) =>
      client.query(
        `set role ${databaseNameOf(project.id)}_owner; do $$ begin for i in 1..22 loop execute format('create table source.%I (x int)', 'more_' || lpad(i::text, 2, '0')); end loop; end $$`,
      ),
    );
    const firstPage = await pageOf("");
    expect(firstPage.count).toBe(26);
    expect(firstPage.names).toHaveLength(25);
    expect(firstPage.names.at(-1)).toBe("more_22");
    expect((await api.get(`/api/v1/projects/${project.id}/databases?pageSize=7`, owner)).status).toBe(400);
    expect((await api.get(`/api/v1/projects/${project.id}/databases?sort=rows`, owner)).status).toBe(400);
    expect((await api.get(`/api/v1/projects/${project.id}/databases?database=both`, owner)).status).toBe(400);
    // Acme Health's viewer asks for Birch Logistics' project.
    const stranger = await api.tokenFor(USERS.viewer);
    expect((await api.get(`/api/v1/projects/${project.id}/databases`, stranger)).status).toBe(404);
  });

  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("refuses a second start while the first job runs (409), and shows the running job and its steps", async () => {
    const project = await readyProject();
    const held = gate();
    await createHeldAt(project, "source", held);

    const second = await tryCreate(project);
    expect(second.status).toBe(409);
    expect(((await second.json()) as { errors: string[] }).errors[0]).toMatch(/^The project is locked \(Database creation\)/);

    const running = await jobsOf(project);
    expect(running).toMatchObject({ isLocked: true, lockReason: "DatabaseCreation", lockState: "Locked" });
    expect(running.jobs[0]).toMatchObject({ status: "IN_PROGRESS", progress: 33 });
    expect(running.jobs[0]!.steps.map((s) => s.status)).toEqual(["Completed", "Started", "Pending"]);

    held.open();
    await api.jobs.idle();
    expect((await jobsOf(project)).jobs[0]!.status).toBe("SUCCESS");
  });

  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("on a failed step: ERROR with the reason, the step Failed, unlocked at DatabaseCreationFailed, no database left; a retry works", async () => {
    const project = await readyProject();
    api.jobs.hooks.beforeStep = (step) => {
      if (step.projectId === project.id && step.name === DATABASE_CREATION_STEPS.destination) throw new Error("disk full");
    };
    expect((await tryCreate(project)).status).toBe(202);
    await api.jobs.idle();

    const failed = await jobsOf(project);
    expect(failed).toMatchObject({ isLocked: false, lockReason: null });
    expect(failed.jobs[0]).toMatchObject({ status: "ERROR", error: "disk full", finishedAt: expect.any(String) });
    expect(failed.jobs[0]!.steps.map((s) => [s.status, s.message])).toEqual([
      ["Completed", null],
      ["Completed", null],
      ["Failed", "disk full"],
    ]);
    expect(await projectNow(project)).toMatchObject({ isLocked: false, status: "DatabaseCreationFailed" });
    // The source was made before the failure; a failed project keeps no database.
    expect(await databaseOf(project)).toBeNull();

    api.jobs.hooks = {};
    expect((await tryCreate(project)).status).toBe(202);
    await api.jobs.idle();
    const retried = await jobsOf(project);
    expect(retried.jobs.map((j) => j.status)).toEqual(["SUCCESS", "ERROR"]);
    expect(await projectNow(project)).toMatchObject({ isLocked: false, status: "SetupRestoreDatabaseIncomplete" });
    expect(await databaseOf(project)).toEqual(BOTH_TABLES);
  });

  it("refuses a start based on a version the settings moved on from (another tab's save): 409 in a stale save's words, nothing started; the version now starts it", async () => {
    const project = await readyProject();
    const startFrom = (body: unknown) =>
      api.app.request(`/api/v1/projects/${project.id}/try-create-databases`, {
        method: "POST",
        headers: { authorization: `Bearer ${owner}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    // The databases step was shown at this version; another tab then saved another upload type.
    const shown = project.version;
    const saved = await api.send("POST", `/api/v1/projects/${project.id}/upload-type`, owner, { uploadType: "MultipleFiles", version: shown });
    expect(saved.status).toBe(200);
    const before = await projectNow(project);
    expect(before.version).toBe(shown + 1);

    const stale = await startFrom({ version: shown });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { errors: string[] }).errors).toEqual([
      expect.stringMatching(/^You changed this project in another tab or window at \d\d:\d\d UTC\. The databases were not created: check its settings as they are now, then create them\.$/),
    ]);
    // A version that is no number is a bad request, not a start.
    expect((await startFrom({ version: "abc" })).status).toBe(400);
    expect((await jobsOf(project)).jobs).toEqual([]);
    expect(await projectNow(project)).toEqual(before);

    expect((await startFrom({ version: before.version })).status).toBe(202);
    await api.jobs.idle();
    expect((await jobsOf(project)).jobs).toHaveLength(1);
    if (TEST_POSTGRES_ADMIN_URL) expect(await databaseOf(project)).toEqual(BOTH_TABLES);
  });

  it("records a dictionary that became unusable after the start as the first step's failure", async () => {
    const project = await readyProject();
    api.jobs.hooks.beforeStep = async (step) => {
      if (step.projectId !== project.id || step.position !== 0) return;
      // A table without columns slipped in between the check and the lock.
      await addProjectTable(api, project.id, { name: "Empty", columns: [] });
    };
    await tryCreate(project);
    await api.jobs.idle();
    const { jobs } = await jobsOf(project);
    expect(jobs[0]).toMatchObject({ status: "ERROR", error: "1 table has no columns: every table needs at least one." });
    expect(jobs[0]!.steps.map((s) => s.status)).toEqual(["Failed", "Pending", "Pending"]);
  });

  it.skipIf(!TEST_POSTGRES_ADMIN_URL)("ends a job its process left running as ERROR, unlocked at DatabaseCreationFailed, when the service restarts", async () => {
    const project = await readyProject();
    const held = gate();
    await createHeldAt(project, "source", held);

    // The "kill": this process's runner never finishes the job; a new one starts on the same database.
    const ended = await recoverInterruptedJobs(api.db);
    expect(ended).toHaveLength(1);
    const restarted = api.restartedApp();
    const after = await jobsOf(project, restarted);
    expect(after).toMatchObject({ isLocked: false, lockReason: null, lockState: "Unlocked" });
    expect(after.jobs[0]).toMatchObject({ status: "ERROR", error: INTERRUPTED_MESSAGE });
    expect(after.jobs[0]!.steps.map((s) => [s.status, s.message])).toEqual([
      ["Completed", null],
      ["Failed", INTERRUPTED_MESSAGE],
      ["Pending", null],
    ]);
    expect(await projectNow(project)).toMatchObject({ isLocked: false, status: "DatabaseCreationFailed" });

    // Should the old runner wake up after all, it cannot revive the job it lost.
    held.open();
    await api.jobs.idle();
    expect((await jobsOf(project, restarted)).jobs[0]).toMatchObject({ status: "ERROR", error: INTERRUPTED_MESSAGE });
    expect(await projectNow(project)).toMatchObject({ isLocked: false, status: "DatabaseCreationFailed" });

    // And the retry on the new process works.
    expect((await tryCreate(project, restarted)).status).toBe(202);
    await waitFor(async () => (await jobsOf(project, restarted)).jobs[0]?.status === "SUCCESS");
    expect(await projectNow(project)).toMatchObject({ status: "SetupRestoreDatabaseIncomplete" });
  });

  describe("at restart, drops what failed and interrupted jobs left on the server", () => {
    it.skipIf(!TEST_POSTGRES_ADMIN_URL)("the database of a creation killed midway, and of one that failed before its clean-up ran; a healthy project's stays; the retry starts clean", async () => {
      const healthy = await readyProject();
      await tryCreate(healthy);
      await api.jobs.idle();
      expect(await projectNow(healthy)).toMatchObject({ status: "SetupRestoreDatabaseIncomplete" });

      // Killed while creating the destination: the source is complete, the destination not begun.
      const killed = await readyProject();
      const held = gate();
      try {
        await createHeldAt(killed, "destination", held);
        expect(await databaseOf(killed)).toEqual({ source: ["Customers", "Orders"], destination: [] });

        // Failed earlier, but its process died before the failure's clean-up ran: its database is left.
        const failedEarlier = await readyProject();
        await tryCreate(failedEarlier);
        await waitFor(async () => (await jobsOf(failedEarlier)).jobs[0]?.status === "SUCCESS");
        await api.db.updateTable("projects").set({ status: "DatabaseCreationFailed" }).where("id", "=", failedEarlier.id).execute();

        const ended = await recoverInterruptedJobs(api.db, { dataPlane: api.dataPlane });
        expect(ended).toHaveLength(1);
        expect(await projectNow(killed)).toMatchObject({ isLocked: false, status: "DatabaseCreationFailed" });
        expect(await databaseOf(killed)).toBeNull();
        expect(await databaseOf(failedEarlier)).toBeNull();
        expect(await databaseOf(healthy)).toEqual(BOTH_TABLES);

        // The killed process never comes back; a restarted one retries from a clean server.
        const restarted = api.restartedApp();
        expect((await tryCreate(killed, restarted)).status).toBe(202);
        await waitFor(async () => (await jobsOf(killed, restarted)).jobs[0]?.status === "SUCCESS");
        expect(await databaseOf(killed)).toEqual(BOTH_TABLES);
      } finally {
        // Should the old runner wake up after all and fail, the clean-up of a job it no longer owns is not its to do.
        held.fail(new Error("disk full"));
      }
      await api.jobs.idle();
      expect(await databaseOf(killed)).toEqual(BOTH_TABLES);
    });

    it.skipIf(!TEST_POSTGRES_ADMIN_URL)("but never the database of a project a job is still running on", async () => {
      const running = await readyProject();
      const held = gate();
      try {
        await createHeldAt(running, "destination", held);
        // The multi-process sweep: the running job's heartbeat is fresh, so it is not ended.
        expect(await recoverInterruptedJobs(api.db, { staleBefore: new Date(Date.now() - 60_000), dataPlane: api.dataPlane })).toEqual([]);
        expect(await databaseOf(running)).toEqual({ source: ["Customers", "Orders"], destination: [] });
      } finally {
        held.open();
      }
      await api.jobs.idle();
      expect((await jobsOf(running)).jobs[0]!.status).toBe("SUCCESS");
      expect(await databaseOf(running)).toEqual(BOTH_TABLES);
    });
  });

  it("leaves recent jobs alone when asked only for stale ones (the multi-process sweep)", async () => {
    const project = await readyProject();
    const held = gate();
    api.jobs.hooks.beforeStep = async (step) => {
      if (step.projectId === project.id) await held.promise;
    };
    await tryCreate(project);
    expect(await recoverInterruptedJobs(api.db, { staleBefore: new Date(Date.now() - 60_000) })).toEqual([]);
    expect((await projectNow(project)).isLocked).toBe(true);
    held.open();
  });

  describe("refuses to start (409) with the reason", () => {
    it("when the dictionary has no table, or a table without columns", async () => {
      const project = await makeProject(api, owner, { companyId: birch.id, applicationId });
      await api.db.updateTable("projects").set({ status: "SetupUploadTypeIncomplete", upload_type: "SingleFile" }).where("id", "=", project.id).execute();
      let res = await tryCreate(project);
      expect(res.status).toBe(409);
      expect(((await res.json()) as { errors: string[] }).errors).toEqual(["The data dictionary has no tables: add at least one."]);

      await addProjectTable(api, project.id, { name: "Empty", columns: [] });
      res = await tryCreate(project);
      expect(((await res.json()) as { errors: string[] }).errors[0]).toMatch(/1 table has no columns/);
      expect((await jobsOf(project)).jobs).toEqual([]);
    });

    it("without an upload type, or flat-file parameters for a FlatFile project", async () => {
      const project = await readyProject("FlatFile");
      await api.db.updateTable("projects").set({ upload_type: null }).where("id", "=", project.id).execute();
      const res = await tryCreate(project);
      expect(res.status).toBe(409);
      expect(((await res.json()) as { errors: string[] }).errors[0]).toBe("Choose an upload type first. Set the flat file parameters first.");
    });

    it("from a status other than SetupUploadTypeIncomplete or DatabaseCreationFailed", async () => {
      const project = await readyProject();
      await api.db.updateTable("projects").set({ status: "Active" }).where("id", "=", project.id).execute();
      const res = await tryCreate(project);
      expect(res.status).toBe(409);
      expect(((await res.json()) as { errors: string[] }).errors[0]).toBe("The databases cannot be created while the project's status is Active.");
    });
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5_000) {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}
