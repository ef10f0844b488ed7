import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { z } from "zod";
import {
  runStepsQuerySchema,
  type RunDetails,
  type RunProgress,
  type RunStatus,
  type RunStep,
  type RunSummary,
  type RunType,
} from "../../../../contracts/runs.ts";
import type { OnError, RunSort, RunStepStatus } from "../../../../contracts/values/runs.ts";
import { NotFoundError } from "../api-problem.ts";
import type { Database } from "../db/schema.ts";
import { compiledByShape, inTransaction, totalOf } from "./db-helpers.ts";
import { updateJsonRows, type BulkColumn } from "./bulk-insert.ts";

/**
 * Runs of a workspace's templates (issue 11): the run row, its steps (each script pinned to the
 * version it ran, with its SQL as run) and the destination's row counts after it.
 */

export const RUN_NOT_FOUND_MESSAGE = "Run not found.";

type Db = Kysely<Database>;

/** A planned step: one script of the run, in order. */
export type PlannedStep = {
  templateName: string;
  levelName: string;
  scriptId: string;
  scriptName: string;
  scriptVersion: number;
  sql: string;
};

/** What a run ran, kept to rerun it: the scope asked, and where a rerun started. */
export type RunScope = { templateIds: string[]; levelIds: string[]; scriptId: string | null; fromScriptId: string | null };

export async function insertRun(
  db: Db,
  run: {
    /** Chosen by the caller when it names the run before recording it (a job's audit entry); new otherwise. */
    id?: string;
    /** The job that runs it, when recorded with the job (run-jobs.ts). */
    jobId?: string;
    projectId: string;
    type: RunType;
    onError: OnError;
    scope: RunScope;
    rerunOf: string | null;
    userId: string;
    userName: string | null;
    steps: readonly PlannedStep[];
  },
  now = new Date(),
): Promise<string> {
  const id = run.id ?? randomUUID();
  // One commit for the run and its steps: each commit of the control plane waits for the disk, and a
  // run's duration counts from here.
  await inTransaction(db, async (db) => {
    await db
      .insertInto("runs")
      .values({
        id,
        project_id: run.projectId,
        job_id: run.jobId ?? null,
        type: run.type,
        status: "IN_PROGRESS",
        on_error: run.onError,
        scope: JSON.stringify(run.scope),
        rerun_of: run.rerunOf,
        message: null,
        created_by: run.userId,
        created_by_name: run.userName,
        created_at: now.toISOString(),
        finished_at: null,
      })
      .execute();
    // In chunks: a run of a thousand scripts is one statement per hundred.
    for (let i = 0; i < run.steps.length; i += 100) {
      await db
        .insertInto("run_steps")
        .values(
          run.steps.slice(i, i + 100).map((s, j) => ({
            run_id: id,
            position: i + j + 1,
            template_name: s.templateName,
            level_name: s.levelName,
            script_id: s.scriptId,
            script_name: s.scriptName,
            script_version: s.scriptVersion,
            sql: s.sql,
            status: "Pending",
            notices: "[]",
          })),
        )
        .execute();
    }
  });
  return id;
}

export const setRunJob = (db: Db, runId: string, jobId: string) => db.updateTable("runs").set({ job_id: jobId }).where("id", "=", runId).execute();

export async function startStep(db: Db, runId: string, position: number, now = new Date()) {
  // Only a Pending step: a late write must not undo its end.
  await db
    .updateTable("run_steps")
    .set({ status: "Started", started_at: now.toISOString() })
    .where("run_id", "=", runId)
    .where("position", "=", position)
    .where("status", "=", "Pending")
    .execute();
}

/** What a step came to. */
export type StepResult = {
  status: Extract<RunStepStatus, "Completed" | "Failed">;
  rowsAffected: number | null;
  durationMs: number;
  notices: string[];
  error: string | null;
  errorLine: number | null;
};

/** The results of steps of a run, each with when it finished: one statement for them all. */
export async function finishSteps(db: Db, runId: string, steps: readonly { position: number; result: StepResult; finishedAt: Date }[]) {
  await updateJsonRows(
    db,
    "run_steps",
    { name: "run_id", value: runId },
    [{ name: "position", type: "integer" }],
    STEP_RESULT_COLUMNS,
    steps.map(({ position, result, finishedAt }) => [
      position,
      result.status,
      result.rowsAffected,
      result.durationMs,
      JSON.stringify(result.notices),
      result.error,
      result.errorLine,
      finishedAt.toISOString(),
    ]),
  );
}

/** In finishSteps' order. */
const STEP_RESULT_COLUMNS: BulkColumn[] = [
  { name: "status", type: "text" },
  { name: "rows_affected", type: "integer" },
  { name: "duration_ms", type: "integer" },
  { name: "notices", type: "text" },
  { name: "error", type: "text" },
  { name: "error_line", type: "integer" },
  { name: "finished_at", type: "text" },
];

export async function finishRun(db: Db, runId: string, status: RunStatus, message: string | null, now = new Date()) {
  await db.updateTable("runs").set({ status, message, finished_at: now.toISOString() }).where("id", "=", runId).where("status", "=", "IN_PROGRESS").execute();
}

export async function setTableCounts(db: Db, runId: string, counts: readonly { table: string; rowsBefore: number | null; rows: number }[]) {
  await inTransaction(db, async (db) => {
    await db.deleteFrom("run_table_counts").where("run_id", "=", runId).execute();
    if (counts.length)
      await db
        .insertInto("run_table_counts")
        .values(counts.map((c) => ({ run_id: runId, table_name: c.table, rows_before: c.rowsBefore, rows: c.rows })))
        .execute();
  });
}

/**
 * Runs whose job ended without them (a killed process, a force unlock: the job's own failure handling
 * skips a job ended elsewhere, so nothing else would end its run): ERROR, with what ended them.
 * The step that was running is Failed: PostgreSQL rolled back what it did when its statement or
 * connection went.
 */
export async function failRunsOfEndedJobs(db: Db, message: string, now: Date) {
  const ended = await db
    .selectFrom("runs as r")
    .leftJoin("jobs as j", "j.id", "r.job_id")
    .select("r.id")
    .where("r.status", "=", "IN_PROGRESS")
    // A run whose job never got recorded counts once it is old: one an earlier version recorded before its job, its process dying between the two writes.
    .where((eb) =>
      eb.or([
        eb("j.status", "!=", "IN_PROGRESS"),
        eb.and([eb("r.job_id", "is", null), eb("r.created_at", "<", new Date(now.getTime() - 10 * 60_000).toISOString())]),
      ]),
    )
    .execute();
  for (const { id } of ended) {
    await db
      .updateTable("run_steps")
      .set({ status: "Failed", error: message, finished_at: now.toISOString() })
      .where("run_id", "=", id)
      .where("status", "=", "Started")
      .execute();
    await finishRun(db, id, "ERROR", message, now);
  }
}

type RunRow = Database["runs"];

async function stepCounts(db: Db, runIds: string[]) {
  if (!runIds.length) return new Map<string, { steps: number; failed: number }>();
  const rows = await db
    .selectFrom("run_steps")
    .select([
      "run_id",
      (eb) => eb.fn.countAll<number | string>().as("steps"),
      (eb) => eb.fn.sum<number | string>(eb.case().when("status", "=", "Failed").then(1).else(0).end()).as("failed"),
    ])
    .where("run_id", "in", runIds)
    .groupBy("run_id")
    .execute();
  return new Map(rows.map((r) => [r.run_id, { steps: Number(r.steps), failed: Number(r.failed ?? 0) }]));
}

function toSummary(row: RunRow, counts: { steps: number; failed: number } | undefined): RunSummary {
  return {
    id: row.id,
    projectId: row.project_id,
    jobId: row.job_id,
    type: row.type as RunType,
    status: row.status as RunStatus,
    onError: row.on_error as OnError,
    createdBy: row.created_by,
    createdByName: row.created_by_name,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
    durationMs: row.finished_at ? Date.parse(row.finished_at) - Date.parse(row.created_at) : null,
    stepCount: counts?.steps ?? 0,
    failedSteps: counts?.failed ?? 0,
    rerunOf: row.rerun_of,
  };
}

/** A page of the workspace's runs, newest first, filtered by status and type in SQL. */
export async function searchRuns(db: Db, projectId: string, query: { status: RunStatus[]; type: RunType[]; sort: RunSort; page: number; pageSize: number }) {
  const scope = <Q extends { where: (...args: any[]) => Q }>(q: Q): Q => {
    let scoped = q.where("project_id", "=", projectId);
    if (query.status.length) scoped = scoped.where("status", "in", query.status);
    if (query.type.length) scoped = scoped.where("type", "in", query.type);
    return scoped;
  };
  const direction = query.sort.startsWith("-") ? "desc" : "asc";
  const rows = await scope(db.selectFrom("runs").selectAll())
    .orderBy("created_at", direction)
    .orderBy("id", direction)
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  const total = await totalOf(rows.length, query, () =>
    scope(db.selectFrom("runs").select((eb) => eb.fn.countAll<number | string>().as("n"))).executeTakeFirstOrThrow(),
  );
  const counts = await stepCounts(
    db,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => toSummary(r, counts.get(r.id))), total, page: query.page, pageSize: query.pageSize };
}

/**
 * The run with its step and failure counts, and the rerun of it that ran any script, in one statement:
 * the run's page asks for it at every poll while the run goes on (compiled once, decision 011).
 */
const runWithCounts = compiledByShape((db: Db, _shape: Record<string, never>, param) =>
  db
    .selectFrom("runs as r")
    // The latest rerun of this run that ran any script (a step not Pending): its scripts kept what they did, so the
    // run is not rerun again (rerunScope) and its page links to it. One that never reached a script did nothing.
    // Found once (index runs_rerun_of_idx, migration 0031, newest first), then joined by its id for when it started.
    .leftJoin("runs as rb", (join) =>
      join.on((eb) =>
        eb(
          "rb.id",
          "=",
          eb
            .selectFrom("runs as rr")
            .select("rr.id")
            .whereRef("rr.rerun_of", "=", "r.id")
            .whereRef("rr.project_id", "=", "r.project_id")
            .where((eb) =>
              eb.exists(eb.selectFrom("run_steps as rs").select("rs.run_id").whereRef("rs.run_id", "=", "rr.id").where("rs.status", "!=", sql.lit("Pending"))),
            )
            .orderBy("rr.created_at", "desc")
            .limit(sql.lit(1)),
        ),
      ),
    )
    .selectAll("r")
    .select((eb) => [
      eb.selectFrom("run_steps as s").select(eb.fn.countAll<number | string>().as("n")).whereRef("s.run_id", "=", "r.id").as("steps"),
      eb
        .selectFrom("run_steps as s")
        .select(eb.fn.countAll<number | string>().as("n"))
        .whereRef("s.run_id", "=", "r.id")
        .where("s.status", "=", sql.lit("Failed"))
        .as("failed"),
      "rb.id as rerun_by_id",
      "rb.created_at as rerun_by_created_at",
    ])
    .where("r.id", "=", param("runId"))
    .where("r.project_id", "=", param("projectId")),
);

/** The run (404 when it is not the project's), its counts, and by which run it was rerun, if any (see runWithCounts). */
export async function findRunWithCounts(db: Db, projectId: string, runId: string) {
  const [row] = await runWithCounts(db, {}, { runId, projectId });
  if (!row) throw new NotFoundError(RUN_NOT_FOUND_MESSAGE);
  const rerunBy = row.rerun_by_id && row.rerun_by_created_at ? { id: row.rerun_by_id, createdAt: row.rerun_by_created_at } : null;
  return { row, counts: { steps: Number(row.steps ?? 0), failed: Number(row.failed ?? 0) }, rerunBy };
}

/** A run's summary, its step and failure counts of all its steps (what starting one answers). */
export async function getRunSummary(db: Db, projectId: string, runId: string): Promise<RunSummary> {
  const { row, counts } = await findRunWithCounts(db, projectId, runId);
  return toSummary(row, counts);
}

/** The steps a run's page shows by default: the first page of all of them. */
const FIRST_STEPS: RunStepsQuery = runStepsQuerySchema.parse({});
export type RunStepsQuery = z.output<typeof runStepsQuerySchema>;

/** What the steps' page reads of a step: what the answer shows, not when it started or ended (nor its SQL: sql in StepsShape). */
const STEP_COLUMNS = [
  "position",
  "template_name",
  "level_name",
  "script_id",
  "script_name",
  "script_version",
  "status",
  "rows_affected",
  "duration_ms",
  "notices",
  "error",
  "error_line",
] as const;

/** A status filter is a set of 0 to 4 statuses: its size decides the SQL, the statuses are parameters. */
type StepsShape = { statuses: number };

function stepsMatching(db: Db, shape: StepsShape, param: (name: string) => any) {
  const steps = db.selectFrom("run_steps").where("run_id", "=", param("runId"));
  return shape.statuses
    ? steps.where(
        "status",
        "in",
        Array.from({ length: shape.statuses }, (_, i) => param(`status${i}`)),
      )
    : steps;
}

/** A page of steps, with their SQL or (what a poll asks) without it. */
const stepPage = compiledByShape((db: Db, shape: StepsShape & { sql: boolean }, param) =>
  stepsMatching(db, shape, param)
    .select(STEP_COLUMNS)
    .$if(shape.sql, (q) => q.select("sql"))
    .orderBy("position")
    .limit(param("limit"))
    .offset(param("offset")),
);

const stepCount = compiledByShape((db: Db, shape: StepsShape, param) =>
  stepsMatching(db, shape, param).select((eb) => eb.fn.countAll<number | string>().as("n")),
);

/**
 * The destination's counts after the run, each beside the same table's after the run before that left
 * counts: "beside the previous run's". A Test run's were rolled back, so a Full run is set beside the
 * Full run before it; a Test run beside any run before it. One statement: the run before is a subquery.
 */
const tableCounts = compiledByShape((db: Db, shape: { fullOnly: boolean }, param) =>
  db
    .selectFrom("run_table_counts as c")
    .leftJoin("run_table_counts as p", (join) =>
      join.onRef("p.table_name", "=", "c.table_name").on((eb) =>
        eb(
          "p.run_id",
          "=",
          eb
            .selectFrom("runs as r")
            .select("r.id")
            .where("r.project_id", "=", param("projectId"))
            .where("r.created_at", "<", param("createdAt"))
            .$if(shape.fullOnly, (q) => q.where("r.type", "=", sql.lit("Full")))
            .where((eb) => eb.exists(eb.selectFrom("run_table_counts as e").select("e.run_id").whereRef("e.run_id", "=", "r.id")))
            .orderBy("r.created_at", "desc")
            .limit(sql.lit(1)),
        ),
      ),
    )
    .select(["c.table_name", "c.rows_before", "c.rows", "p.rows as previous_rows"])
    .where("c.run_id", "=", param("runId"))
    .orderBy("c.table_name"),
);

/** Most steps say nothing: their notices are "[]", not worth parsing. */
const noticesOf = (json: string): string[] => (json === "[]" ? [] : (JSON.parse(json) as string[]));

/**
 * A run with a page of its steps (in order, filtered by status in SQL) and its destination's counts.
 * The run's page polls it while the run goes on, so it is three statements compiled once (four when the
 * page cannot tell the total), reading only the columns the answer shows.
 */
export async function getRun(db: Db, projectId: string, runId: string, query: RunStepsQuery = FIRST_STEPS): Promise<RunDetails> {
  const { steps, ...run } = await readRun(db, projectId, runId, query, true);
  // Read with its SQL (sql: true): every step has it.
  return { ...run, steps: steps.map((s) => ({ ...stepOf(s), sql: s.sql! })) };
}

/** The same without the steps' SQL: what the run's page polls every second while the run goes on. */
export async function getRunProgress(db: Db, projectId: string, runId: string, query: RunStepsQuery = FIRST_STEPS): Promise<RunProgress> {
  const { steps, ...run } = await readRun(db, projectId, runId, query, false);
  return { ...run, steps: steps.map(stepOf) };
}

async function readRun(db: Db, projectId: string, runId: string, query: RunStepsQuery, sql: boolean) {
  const { row, counts, rerunBy } = await findRunWithCounts(db, projectId, runId);
  // A set: repeated statuses are one, which also keeps the number of shapes bounded.
  const statuses = [...new Set(query.status)];
  const shape = { statuses: statuses.length };
  const filters: Record<string, unknown> = { runId };
  statuses.forEach((status, i) => (filters[`status${i}`] = status));
  const steps = await stepPage(db, { ...shape, sql }, { ...filters, limit: query.pageSize, offset: (query.page - 1) * query.pageSize });
  const matched = await totalOf(steps.length, query, async () => (await stepCount(db, shape, filters))[0]!);
  const tables = await tableCounts(db, { fullOnly: row.type === "Full" }, { runId, projectId, createdAt: row.created_at });
  return {
    ...toSummary(row, counts),
    message: row.message,
    rerunBy,
    stepPage: { total: matched, page: query.page, pageSize: query.pageSize },
    steps,
    tables: tables.map((c) => ({
      table: c.table_name,
      rowsBefore: c.rows_before === null ? null : Number(c.rows_before),
      rows: Number(c.rows),
      previousRows: c.previous_rows === null ? null : Number(c.previous_rows),
    })),
  };
}

type StepRow = Awaited<ReturnType<typeof readRun>>["steps"][number];

function stepOf(s: StepRow): RunStep {
  return {
    position: s.position,
    templateName: s.template_name,
    levelName: s.level_name,
    scriptId: s.script_id,
    scriptName: s.script_name,
    scriptVersion: s.script_version,
    status: s.status as RunStepStatus,
    rowsAffected: s.rows_affected === null ? null : Number(s.rows_affected),
    durationMs: s.duration_ms,
    notices: noticesOf(s.notices),
    error: s.error,
    errorLine: s.error_line,
  };
}
