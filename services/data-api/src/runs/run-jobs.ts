/**
 * A run as a job (issue 11; lock reason ProjectRun): the plan and its pinned script versions are
 * recorded with the run in the commit that starts its job, a Full run's preflight first; then one job step
 * executes the scripts (execute-run.ts) and the run's result is written as the job ends.
 */
import { randomUUID } from "node:crypto";
import { deferAudit, noteAudit } from "../audit-writes.ts";
import { MAPS_SCHEMA, mapTableName, refreshValueMapTables, translatedColumnsOf } from "../data-plane/value-map-tables.ts";
import type { Kysely } from "kysely";
import type { PreflightProblem } from "../../../../contracts/runs.ts";
import { RUN_START_STATUSES, type OnError, type RunType } from "../../../../contracts/values/runs.ts";
import { WORKSPACES, type WorkspaceKind } from "../../../../contracts/workspaces.ts";
import { ApiProblem } from "../api-problem.ts";
import { databaseNameOf, rolesOf } from "../data-plane/project-databases.ts";
import { failureMessage } from "../data-plane/server-lost.ts";
import type { DataPlane } from "../data-plane/servers.ts";
import type { Database } from "../db/schema.ts";
import { JobCancelledError, JobRefusedError, startJob, type JobDeps } from "../jobs/start-job.ts";
import { findRunWithCounts, finishRun, insertRun, type RunScope } from "../repositories/runs.ts";
import { executeRun, type RunOutcome } from "./execute-run.ts";
import { preflight } from "./preflight.ts";
import { planRun } from "./run-plan.ts";

export type RunDeps = JobDeps & { dataPlane: DataPlane; statementTimeoutSeconds: number };

/** What a cancelled run's page says of what it kept. */
export const RUN_CANCELLED_MESSAGE: Record<RunType, string> = {
  Full: "Cancelled: the script that was running was rolled back; the scripts before it kept what they did.",
  Test: "Cancelled: nothing it did was kept.",
};

/** A preflight that found problems: 409 with each, the run not started. */
export class PreflightFailedError extends ApiProblem {
  constructor(readonly problems: PreflightProblem[]) {
    super(
      409,
      "preflight_failed",
      `The run was not started: ${problems.length} ${problems.length === 1 ? "problem" : "problems"} in its scripts.`,
      undefined,
      problems.map((p) => `${p.template} / ${p.level} / ${p.script}${p.line ? `, line ${p.line}` : ""}: ${p.message}`),
    );
  }
}

/** The tables and views of the project's source, destination and maps schemas, as "schema.name". */
async function existingRelations(dataPlane: DataPlane, serverId: string, projectId: string): Promise<Set<string>> {
  return dataPlane.withLogin(serverId, databaseNameOf(projectId), rolesOf(projectId).runner, async (client) => {
    const { rows } = await client.query<{ name: string }>(
      `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('source', 'destination', 'maps') and c.relkind in ('r', 'p', 'v', 'm', 'f')`,
    );
    return new Set(rows.map((r) => r.name));
  });
}

export async function startRun(
  deps: RunDeps,
  kind: WorkspaceKind,
  target: { projectId: string; serverId: string; userId: string; userName: string | null },
  request: { type: RunType; onError: OnError; scope: RunScope; rerunOf: string | null; scriptsLeft?: readonly string[] },
): Promise<string> {
  const { db, dataPlane } = deps;
  const steps = await planRun(db, target.projectId, request.scope, WORKSPACES[kind].noun, new Set(request.scriptsLeft));
  // The mapping project whose value maps the scripts join (schema `maps`, written as the run starts).
  const link = await db.selectFrom("projects").select("mapping_project_id").where("id", "=", target.projectId).executeTakeFirst();
  const mappingProjectId = link?.mapping_project_id ?? null;
  if (request.type === "Full") {
    const existing = await existingRelations(dataPlane, target.serverId, target.projectId);
    // The maps' tables as the run will find them: written anew when it starts, whatever is there now.
    for (const name of [...existing].filter((r) => r.startsWith(`${MAPS_SCHEMA}.`))) existing.delete(name);
    if (mappingProjectId)
      for (const c of await translatedColumnsOf(db, mappingProjectId)) existing.add(`${MAPS_SCHEMA}.${mapTableName(c.table_name, c.column_name)}`);
    const problems = await preflight(steps, existing);
    if (problems.length) throw new PreflightFailedError(problems);
  }
  // The request's audit entry is the job's start, with the run's record in the same commit.
  deferAudit();
  const runId = randomUUID();
  // The entry names the run: the audit log links it to the run's page (its scripts, versions and rows).
  noteAudit({ runId });
  let ran: RunOutcome = { status: "SUCCESS", record: async () => undefined };
  // The job's own message says nothing was kept: true of a Test run, not of a Full one's earlier scripts.
  const runFailure = (error: unknown) => (error instanceof JobCancelledError ? RUN_CANCELLED_MESSAGE[request.type] : failureMessage(error));
  try {
    await startJob(deps, {
      projectId: target.projectId,
      workspace: kind,
      kind: "ProjectRun",
      lockReason: "ProjectRun",
      userId: target.userId,
      allowedStatuses: RUN_START_STATUSES,
      // The run and its steps are recorded with its job and the lock: a refused start (locked, or not Active) records no run.
      record: (trx, jobId) =>
        insertRun(trx, {
          id: runId,
          jobId,
          projectId: target.projectId,
          type: request.type,
          onError: request.onError,
          scope: request.scope,
          rerunOf: request.rerunOf,
          userId: target.userId,
          userName: target.userName,
          steps,
        }),
      steps: [
        {
          name: `${request.type === "Test" ? "Test run" : "Run"} of ${steps.length} ${steps.length === 1 ? "script" : "scripts"}`,
          run: async (ctx) => {
            // Under the run's lock: no other run reads the maps while they are written.
            await refreshValueMapTables(ctx.db, dataPlane, target, mappingProjectId);
            ran = await executeRun(
              ctx.db,
              dataPlane,
              {
                runId,
                projectId: target.projectId,
                serverId: target.serverId,
                type: request.type,
                onError: request.onError,
                steps,
                statementTimeoutSeconds: deps.statementTimeoutSeconds,
              },
              { signal: ctx.signal, progress: (fraction) => ctx.progress(fraction), logger: deps.logger },
            );
          },
        },
      ],
      // The last step results and the table counts commit with the run's end and its job's.
      onSuccess: { status: "previous", record: (trx) => ran.record(trx), update: (trx) => finishRun(trx, runId, ran.status, null) },
      onFailure: async (error, ctx) => {
        await ctx.db
          .updateTable("run_steps")
          .set({ status: "Failed", error: runFailure(error) })
          .where("run_id", "=", runId)
          .where("status", "=", "Started")
          .execute();
      },
      recordFailure: (trx, error) => finishRun(trx, runId, "ERROR", runFailure(error)),
    });
    return runId;
  } catch (err) {
    if (err instanceof JobRefusedError) throw new ApiProblem(409, "project_locked", err.message);
    throw err;
  }
}

/** Why a Test run is never rerun from its failed step. */
export const TEST_RUN_RERUN_MESSAGE = "A Test run keeps nothing, so it cannot be rerun from its failed step: start a new Test run.";

/** Why a run rerun already is not rerun again: its rerun ran its scripts from the failed one on, which kept what they did. */
export const RERUN_AGAIN_MESSAGE =
  "This run was rerun from its failed step already, and the scripts of that rerun kept what they did: running them again would do it twice. Open the rerun in the run history (rerun it if it failed), or start a new run.";

/**
 * The scope of a rerun: the run's own, from its first failed step, and the scripts it runs again (`scriptsLeft`): the
 * run's steps from there that did not complete (Failed, or never run). A run that went on after a failure (On error:
 * Continue with the next script) completed later scripts, which kept what they did: run again, an insert among them
 * would insert its rows twice. Refused when a rerun of it ran any script already.
 */
export async function rerunScope(
  db: Kysely<Database>,
  projectId: string,
  runId: string,
): Promise<{ scope: RunScope; type: RunType; onError: OnError; scriptsLeft: string[] }> {
  const { row: run, rerunBy } = await findRunWithCounts(db, projectId, runId);
  // A Test run rolls back all it did: from its failed step, a rerun would run without what the scripts before it did.
  if (run.type === "Test") throw new ApiProblem(409, "rerun_refused", TEST_RUN_RERUN_MESSAGE);
  const left = await db
    .selectFrom("run_steps")
    .select(["script_id", "status"])
    .where("run_id", "=", runId)
    .where("status", "<>", "Completed")
    .orderBy("position")
    .execute();
  const failed = left.findIndex((s) => s.status === "Failed");
  if (failed < 0) throw new ApiProblem(409, "rerun_refused", "This run has no failed step to rerun from.");
  // A second post of Rerun (a double click, Back and resend, a tab left open) would run the same scripts again in a Full run.
  if (rerunBy) throw new ApiProblem(409, "rerun_refused", RERUN_AGAIN_MESSAGE);
  const scope = JSON.parse(run.scope) as RunScope;
  return {
    scope: { ...scope, fromScriptId: left[failed]!.script_id },
    type: run.type as RunType,
    onError: run.on_error as OnError,
    scriptsLeft: left.slice(failed).map((s) => s.script_id),
  };
}
