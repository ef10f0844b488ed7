import { randomUUID } from "node:crypto";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { TEST_POSTGRES_ADMIN_URL, TEST_PROJECT_DATABASES_ADMIN_URL, testSessionUrl } from "../../../shared/testing/databases.ts";
import { TEST_DATABASE_SERVER, TEST_DATA_PLANE_SECRET, createTestDataPlane } from "../testing/harness.ts";
import type { DdlTable } from "../data-plane/postgres-ddl.ts";
import { asProjectOwner, createProjectDatabase, createProjectSchema, databaseNameOf, dropProjectDatabase, rolesOf } from "../data-plane/project-databases.ts";
import type { DataPlane } from "../data-plane/servers.ts";
import type { Database } from "../db/schema.ts";
import { createKysely } from "../../../shared/db.ts";
import { createLogin, grantLevel, loginNameOf, newPassword } from "../data-plane/sql-logins.ts";
import { executeRun, testRunTransactionEndMessage, type RunOutcome } from "./execute-run.ts";

/**
 * `kill -9` of the process running a run (issue 11): PostgreSQL rolls back what the running script
 * did when its connection goes. A Full run keeps the scripts it finished; a Test run leaves nothing.
 */
const notes: DdlTable = {
  name: "Notes",
  columns: [{ name: "Note", type: "nvarchar", length: 20, precision: null, scale: null, nullable: true, isKey: false }],
};
const dataPlane = createTestDataPlane();
const server = TEST_DATABASE_SERVER;
const created: string[] = [];
/** SQL credentials' logins the tests made: dropped after them (logins are the server's, not a database's). */
const logins: string[] = [];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dt-run-kill-"));

afterAll(async () => {
  for (const id of created) await dropProjectDatabase(dataPlane, server, id);
  for (const login of logins) await dataPlane.withAdmin(server, null, (admin) => admin.query(`DROP ROLE IF EXISTS ${login}`));
  await dataPlane.closePools();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A project database of its own (dropped after the tests) with the table Notes in each of `schemas`. */
async function projectWithNotes(...schemas: ("source" | "destination")[]) {
  const projectId = randomUUID();
  created.push(projectId);
  await createProjectDatabase(dataPlane, server, projectId);
  for (const schema of schemas) await createProjectSchema(dataPlane, server, projectId, schema, [notes]);
  return projectId;
}

/** A planned step: the script `scriptName` (its id too) of template T, level L, at version 1. */
const stepOf = (scriptName: string, sql: string) => ({ templateName: "T", levelName: "L", scriptId: scriptName, scriptName, scriptVersion: 1, sql });

/**
 * Runs `steps` (On error: Continue with the next script) against the project's database, its steps recorded Pending
 * first in tables of its own (`db`), as insertRun records them: what the run came to, or what it threw.
 */
async function continuingRun(projectId: string, type: "Full" | "Test", statementTimeoutSeconds: number, steps: ReturnType<typeof stepOf>[]) {
  const db = await runTables();
  await db
    .insertInto("run_steps")
    .values(steps.map((_, i) => ({ run_id: "r", position: i + 1, status: "Pending", notices: "[]" }) as never))
    .execute();
  const ran = await executeRun(
    db,
    dataPlane,
    { runId: "r", projectId, serverId: server, type, onError: "continue", statementTimeoutSeconds, steps },
    { signal: new AbortController().signal, progress: async () => undefined, logger: console as never },
  ).catch((err: unknown) => err);
  return { db, ran };
}

describe.skipIf(!TEST_POSTGRES_ADMIN_URL)("a run killed mid-script", () => {
  for (const type of ["Full", "Test"] as const) {
    it(`${type}: ${type === "Full" ? "keeps the finished script, rolls back the running one" : "leaves nothing behind"}`, async () => {
      const projectId = await projectWithNotes("source", "destination");
      const script = path.join(tmp, `run-${type}.mts`);
      const here = (file: string) => JSON.stringify(path.resolve(import.meta.dirname, file));
      fs.writeFileSync(
        script,
        `import { createKysely } from ${here("../../../shared/db.ts")};
import { createDataPlane } from ${here("../data-plane/servers.ts")};
import { executeRun } from ${here("execute-run.ts")};
const db = createKysely(":memory:");
let steps = db.schema.createTable("run_steps");
for (const c of ["run_id", "status", "started_at", "finished_at", "notices", "error"]) steps = steps.addColumn(c, "text");
for (const c of ["position", "rows_affected", "duration_ms", "error_line"]) steps = steps.addColumn(c, "integer");
await steps.execute();
await db.schema.createTable("run_table_counts").addColumn("run_id", "text").addColumn("table_name", "text").addColumn("rows_before", "integer").addColumn("rows", "integer").execute();
const dataPlane = createDataPlane([{ id: ${JSON.stringify(server)}, adminUrl: ${JSON.stringify(TEST_PROJECT_DATABASES_ADMIN_URL)} }], { secret: ${JSON.stringify(TEST_DATA_PLANE_SECRET)} });
const step = (name, sql) => ({ templateName: "T", levelName: "L", scriptId: name, scriptName: name, scriptVersion: 1, sql });
await executeRun(db, dataPlane, {
  runId: "r", projectId: ${JSON.stringify(projectId)}, serverId: ${JSON.stringify(server)}, type: ${JSON.stringify(type)}, onError: "stop", statementTimeoutSeconds: 600,
  steps: [step("First", \`insert into "Notes" values ('first');\`), step("Second", \`insert into "Notes" values ('second');\\nselect pg_sleep(60);\`)],
}, { signal: new AbortController().signal, progress: async (f) => { if (f >= 0.5) console.log("first done"); }, logger: console });
`,
      );
      // The child logs in as the project's runner: its data plane has the test's secret.
      const child = spawn(process.execPath, ["--import", "tsx", script], { env: { ...process.env }, stdio: ["ignore", "pipe", "inherit"] });
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on("data", (d: Buffer) => d.toString().includes("first done") && resolve());
        child.on("exit", (code) => reject(new Error(`the run ended by itself (${code})`)));
      });
      // The second script is in its pg_sleep now (its insert done, not committed).
      await new Promise((r) => setTimeout(r, 300));
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      const rows = async () =>
        (await asProjectOwner(dataPlane, server, projectId, (c) => c.query(`select "Note" from destination."Notes" order by 1`))).rows.map(
          (r) => r.Note as string,
        );
      // PostgreSQL notices the dead connection and rolls its transaction back.
      const expected = type === "Full" ? ["first"] : [];
      await vi.waitFor(async () => expect(await rows()).toEqual(expected), { timeout: 5_000, interval: 100 });
    }, 60_000);
  }
});

/** The control plane's two tables a run writes its steps and counts to, in memory. */
async function runTables() {
  const db = createKysely<Database>(":memory:");
  await db.schema
    .createTable("run_table_counts")
    .addColumn("run_id", "text")
    .addColumn("table_name", "text")
    .addColumn("rows_before", "integer")
    .addColumn("rows", "integer")
    .execute();
  let steps = db.schema.createTable("run_steps");
  for (const c of ["run_id", "status", "started_at", "finished_at", "notices", "error"]) steps = steps.addColumn(c, "text");
  for (const c of ["position", "rows_affected", "duration_ms", "error_line"]) steps = steps.addColumn(c, "integer");
  await steps.execute();
  return db;
}

describe.skipIf(!TEST_POSTGRES_ADMIN_URL)("a run's fixed cost on the project's database", () => {
  it("sets up with the counts before, and counts after with the reset, in one round trip each, whatever the number of tables", async () => {
    const projectId = randomUUID();
    created.push(projectId);
    await createProjectDatabase(dataPlane, server, projectId);
    const tables = ["Notes", 'Odd "name"', "Third"].map((name) => ({ ...notes, name }));
    await createProjectSchema(dataPlane, server, projectId, "destination", tables);
    await asProjectOwner(dataPlane, server, projectId, (c) => c.query(`insert into destination."Odd ""name""" values ('a'), ('b')`));
    const db = await runTables();
    // Every message the run sends to the project's database, the script's own among them.
    let sent = 0;
    const counting: DataPlane = {
      ...dataPlane,
      withLogin: (serverId, database, login, work) =>
        dataPlane.withLogin(serverId, database, login, (client) => {
          const query = client.query.bind(client);
          return work(
            Object.assign(Object.create(client) as typeof client, {
              query: (...args: unknown[]) => (sent++, (query as (...a: unknown[]) => unknown)(...args)),
            }),
          );
        }),
    };
    const step = { templateName: "T", levelName: "L", scriptId: "s", scriptName: "Add", scriptVersion: 1, sql: `insert into "Third" values ('x');` };
    const { status, record } = await executeRun(
      db,
      counting,
      { runId: "r", projectId, serverId: server, type: "Full", onError: "stop", statementTimeoutSeconds: 60, steps: [step] },
      { signal: new AbortController().signal, progress: async () => undefined, logger: console as never },
    );
    expect(status).toBe("SUCCESS");
    // What the job's end commits (run-jobs.ts).
    await db.transaction().execute(record);
    const counts = await db.selectFrom("run_table_counts").select(["table_name", "rows_before", "rows"]).orderBy("table_name").execute();
    expect(counts).toEqual([
      { table_name: "Notes", rows_before: 0, rows: 0 },
      { table_name: 'Odd "name"', rows_before: 2, rows: 2 },
      { table_name: "Third", rows_before: 0, rows: 1 },
    ]);
    // Settings with the counts before, the script, the counts after with RESET ALL: was 5 (7 plus two per table before that).
    expect(sent).toBe(3);
    await db.destroy();
  }, 60_000);
});

describe.skipIf(!TEST_POSTGRES_ADMIN_URL)("tables a run makes", () => {
  it("are read by a SQL credential granted Read on the project, and changed by one granted Write", async () => {
    const projectId = await projectWithNotes("source", "destination");
    await asProjectOwner(dataPlane, server, projectId, (c) => c.query(`insert into source."Notes" values ('a'), ('b')`));
    const db = await runTables();
    const { status } = await executeRun(
      db,
      dataPlane,
      {
        runId: "r",
        projectId,
        serverId: server,
        type: "Full",
        onError: "stop",
        statementTimeoutSeconds: 60,
        steps: [
          stepOf("Summary", `create table destination.summary as select count(*) as notes from source."Notes";`),
          stepOf("Log", "create table destination.log (id serial, line text);"),
        ],
      },
      { signal: new AbortController().signal, progress: async () => undefined, logger: console as never },
    );
    expect(status).toBe("SUCCESS");
    await db.destroy();
    const login = async (level: "read" | "write") => {
      const name = loginNameOf(randomUUID());
      const password = newPassword();
      logins.push(name);
      await createLogin(dataPlane, name, password, "2099-12-31");
      await grantLevel(dataPlane, server, projectId, name, level);
      return new pg.Client({ connectionString: testSessionUrl(name, password, databaseNameOf(projectId)) });
    };
    const reader = await login("read");
    const writer = await login("write");
    await Promise.all([reader.connect(), writer.connect()]);
    try {
      expect((await reader.query("select notes from destination.summary")).rows).toEqual([{ notes: "2" }]);
      await expect(reader.query("insert into destination.log (line) values ('no')")).rejects.toThrow(/permission denied/);
      await writer.query("insert into destination.log (line) values ('yes')");
      expect((await reader.query("select id, line from destination.log")).rows).toEqual([{ id: 1, line: "yes" }]);
    } finally {
      await Promise.all([reader.end(), writer.end()]);
    }
  }, 60_000);
});

describe.skipIf(!TEST_POSTGRES_ADMIN_URL)("a Test run's script that ends its transaction", () => {
  it("is refused at that statement's line, run nowhere: the Test run still leaves nothing behind", async () => {
    const projectId = await projectWithNotes("destination");
    const { db, ran } = await continuingRun(projectId, "Test", 60, [
      stepOf("First", `insert into "Notes" values ('first');`),
      // As a script written for a Full run may be: its own transaction.
      stepOf("Own transaction", `begin;\ninsert into "Notes" values ('own');\ncommit;`),
      stepOf("Rolls back", `insert into "Notes" values ('before');\n\nROLLBACK;\ninsert into "Notes" values ('after');`),
      stepOf("Last", `insert into "Notes" values ('last');`),
    ]);
    // Nothing kept, whatever became of the run.
    const rows = (await asProjectOwner(dataPlane, server, projectId, (c) => c.query(`select "Note" from destination."Notes" order by 1`))).rows;
    expect(rows).toEqual([]);
    expect(ran).not.toBeInstanceOf(Error);
    const { status, record } = ran as RunOutcome;
    expect(status).toBe("CompletedWithFailures");
    await db.transaction().execute(record);
    const steps = await db.selectFrom("run_steps").select(["position", "status", "error", "error_line"]).orderBy("position").execute();
    const refused = (line: number, statement: string) => ({ status: "Failed", error: testRunTransactionEndMessage(statement), error_line: line });
    expect(steps).toEqual([
      { position: 1, status: "Completed", error: null, error_line: null },
      { position: 2, ...refused(3, "COMMIT") },
      { position: 3, ...refused(3, "ROLLBACK") },
      { position: 4, status: "Completed", error: null, error_line: null },
    ]);
    expect(testRunTransactionEndMessage("COMMIT")).toBe(
      "A Test run is one transaction, rolled back at its end: its scripts may not end it. Take out this COMMIT (or run the script in a Full run); nothing of the script was run.",
    );
    // What the Test run would have left: the two scripts it ran.
    expect(await db.selectFrom("run_table_counts").select(["table_name", "rows_before", "rows"]).execute()).toEqual([
      { table_name: "Notes", rows_before: 0, rows: 2 },
    ]);
    await db.destroy();
  }, 60_000);
});

describe.skipIf(!TEST_POSTGRES_ADMIN_URL)("a script that changes its session's settings", () => {
  for (const type of ["Full", "Test"] as const) {
    it(`${type}: leaves the next scripts of the run with the run's own (search_path destination, source; the statement timeout; the run's role)`, async () => {
      const projectId = await projectWithNotes("source", "destination");
      const { owner } = rolesOf(projectId);
      const { db, ran } = await continuingRun(projectId, type, 1, [
        // A script that cleans the source, reading it first, needs more time than the run gives a statement, and
        // takes the project owner's role (the runner is its member).
        stepOf("Clean source", `set search_path = source;\nset statement_timeout = 0;\nset role "${owner}";\ndelete from "Notes" where "Note" is null;`),
        // Refused: the runner is no superuser, so it may not become another session user.
        stepOf("Become owner", `set session authorization "${owner}";`),
        // Copied only as the run's own role: the runner it logged in as (session_user), not the owner the first script took.
        stepOf("Copy", `insert into "Notes" select 'copied' where current_user = session_user;`),
        stepOf("Slow", `select pg_sleep(3);`),
        stepOf("Read", `select count(*) from "Notes";`),
      ]);
      await db.transaction().execute((ran as RunOutcome).record);
      if (type === "Full") {
        const notes = (schema: string) =>
          asProjectOwner(dataPlane, server, projectId, async (c) => (await c.query(`select "Note" from ${schema}."Notes"`)).rows.map((r) => r.Note as string));
        expect(await notes("destination")).toEqual(["copied"]);
        expect(await notes("source")).toEqual([]);
      }
      const steps = await db.selectFrom("run_steps").select(["position", "status", "error"]).orderBy("position").execute();
      expect(steps).toEqual([
        { position: 1, status: "Completed", error: null },
        { position: 2, status: "Failed", error: expect.stringMatching(/^permission denied to set session authorization/) },
        // The unqualified name is the destination's, as the preflight read it; not the source's, as the first script's search_path said;
        // and the row is copied as the runner, not as the owner the first script's role said.
        { position: 3, status: "Completed", error: null },
        { position: 4, status: "Failed", error: "canceling statement due to statement timeout" },
        { position: 5, status: "Completed", error: null },
      ]);
      const counts = await db.selectFrom("run_table_counts").select(["table_name", "rows_before", "rows"]).execute();
      expect(counts).toEqual([{ table_name: "Notes", rows_before: 0, rows: 1 }]);
      await db.destroy();
    }, 60_000);
  }
});
