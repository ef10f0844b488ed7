import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  PROJECT_DATABASE_KINDS,
  workspaceDatabasesQuerySchema,
  workspaceDatabasesResponseSchema,
  type WorkspaceDatabases,
} from "../../../../../contracts/configurations.ts";
import type { Column } from "../../../../../contracts/dictionary.ts";
import { tableRowsQuerySchema, tableRowsSchema } from "../../../../../contracts/loads.ts";
import { isAdmin } from "../../../../../contracts/roles.ts";
import {
  forceUnlockSchema,
  LOCK_STATES,
  projectJobsSchema,
  tryCreateDatabasesBodySchema,
  tryCreateDatabasesResponseSchema,
  type LockReason,
} from "../../../../../contracts/projects.ts";
import { DATABASE_CREATION_START_STATUSES, type WorkspaceDescriptor } from "../../../../../contracts/workspaces.ts";
import { SERVICE_WORKSPACES } from "../../../../../contracts/workspaces.server.ts";
import { ApiProblem, NotFoundError } from "../../api-problem.ts";
import { startDatabaseCreation } from "../../data-plane/database-creation.ts";
import { databaseExists, describeProjectDatabases, readTableRows } from "../../data-plane/project-databases.ts";
import { lastLoadedAt } from "../../repositories/loads.ts";
import { listProjectJobs, listRunningJobs } from "../../jobs/job-store.ts";
import { statusAfterFailure } from "../../jobs/job-kinds.ts";
import { forceUnlock } from "../../jobs/project-lock.ts";
import { CANCELLED_MESSAGE, JobCancelledError, JobRefusedError, requestCancel } from "../../jobs/start-job.ts";
import { failLoadsOfEndedJobs } from "../../repositories/loads.ts";
import { failRunsOfEndedJobs } from "../../repositories/runs.ts";
import { describeWrite, nothingToAudit } from "../../audit-writes.ts";
import { inTransaction, nameKey } from "../../repositories/db-helpers.ts";
import { tablesNamed } from "../../repositories/dictionary-tables.ts";
import { createRouter, errorResponses, jsonBody, jsonContent } from "../../openapi.ts";
import { databaseCreationBlockers } from "../../project-setup.ts";
import { dictionaryStats, findProjectDictionaryRef } from "../../repositories/dictionaries.ts";
import { staleWorkspace, type WorkspaceRow } from "../../repositories/workspaces.ts";
import { requireWorkspace } from "../../workspace-access.ts";
import { capitalised, collectionPath, jobDeps, readErrorsOf, workspaceIdParams, writeErrorsOf } from "./shared.ts";

/** The background-process page shows the running job and the recent ones. */
export const RECENT_JOBS = 20;

const DATABASE_NAMES = { source: "Source database", destination: "Destination database" } as const;

/** What a stale start of the database creation says after who changed the workspace. */
const NOT_CREATED_STALE = "The databases were not created: check its settings as they are now, then create them.";

/** Longer than any table's name (a dictionary's, or PostgreSQL's 63 bytes): the rows page reads no such table. */
const LONGEST_TABLE_NAME = 128;

/** A workspace's lock and jobs (background-process page), the job that creates its databases, and what they hold. */
export function createWorkspaceJobsRouter(descriptor: WorkspaceDescriptor) {
  const { kind, noun } = descriptor;
  const base = `${collectionPath(descriptor)}/{id}`;
  const tags = kind === "migration" ? ["Jobs"] : ["Configuration jobs"];

  const list = createRoute({
    method: "get",
    path: `${base}/jobs`,
    tags,
    summary: `The ${noun}'s lock and its recent jobs, with steps, newest first`,
    request: { params: workspaceIdParams },
    responses: { 200: jsonContent(projectJobsSchema, `The lock and at most ${RECENT_JOBS} jobs.`), ...readErrorsOf(descriptor) },
  });

  const progress = createRoute({
    method: "get",
    path: `${base}/jobs/progress`,
    tags,
    summary: `The ${noun}'s lock and its running jobs, with steps`,
    description:
      "What a job's page polls every second while a job runs (the background-process page, a load's or a restore's history entry, the databases step): the lock as `/jobs` says it and only the jobs still running, without the recent ones, which do not change.",
    request: { params: workspaceIdParams },
    responses: { 200: jsonContent(projectJobsSchema, "The lock and the running jobs, oldest first."), ...readErrorsOf(descriptor) },
  });

  const needs =
    kind === "migration"
      ? "a dictionary with at least one table, every table with a column, an upload type, and flat-file parameters for FlatFile projects"
      : "a dictionary with at least one table, every table with a column";
  const tryCreate = createRoute({
    method: "post",
    path: `${base}/try-create-databases`,
    tags,
    summary: `Start creating the ${noun}'s source and destination databases`,
    description: `Needs ${needs}; status ${DATABASE_CREATION_START_STATUSES[kind].join(" or ")} (the latter a retry). Answers 202 with the job at once; the ${noun} is locked (DatabaseCreation) until it ends, then its status is ${SERVICE_WORKSPACES[kind].afterDatabases}. 409 when locked or not ready, with the reasons. JSON (optional): the ${noun}'s \`version\` the start was based on; a stale one answers 409 and starts nothing (without it, the ${noun}'s settings as they are now).`,
    request: { params: workspaceIdParams, body: { required: false, content: { "application/json": { schema: tryCreateDatabasesBodySchema } } } },
    responses: { 202: jsonContent(tryCreateDatabasesResponseSchema, "The job, just started."), ...writeErrorsOf(descriptor) },
  });

  const databases = createRoute({
    method: "get",
    path: `${base}/databases`,
    tags,
    summary: `The ${noun}'s source and destination databases as they are now`,
    description:
      "Each database says whether it exists yet (after try-create-databases) and lists its tables by name with column and row counts. `table` keeps the tables whose name contains it (any case); `rows=estimated` reads no table, every row count PostgreSQL's estimate.",
    request: { params: workspaceIdParams, query: workspaceDatabasesQuerySchema },
    responses: { 200: jsonContent(workspaceDatabasesResponseSchema, "Source, then destination."), 400: errorResponses[400], ...readErrorsOf(descriptor) },
  });

  const cancel = createRoute({
    method: "post",
    path: `${base}/jobs/{jobId}/cancel`,
    tags,
    summary: `Cancel the ${noun}'s running job`,
    description: `Needs write access. The job stops within a second or two and nothing it did is kept (a load's rows, say); it ends as ERROR "${CANCELLED_MESSAGE}" and the lock is released. 409 when the job is not running.`,
    request: { params: z.object({ id: z.string().min(1), jobId: z.string().min(1) }) },
    responses: { 202: { description: "Asked: the job is stopping." }, ...writeErrorsOf(descriptor) },
  });

  const unlock = createRoute({
    method: "post",
    path: `${base}/force-unlock`,
    tags,
    summary: `Force-unlock the ${noun} (SuperAdmin, Support)`,
    description: `With a reason. The job holding the lock, if any, is stopped and ends as ERROR with the reason; the lock state becomes ForceUnlocked; who, when and why are recorded. 409 when the ${noun} is not locked.`,
    request: { params: workspaceIdParams, body: jsonBody(forceUnlockSchema) },
    responses: { 200: jsonContent(z.object({ jobId: z.string().nullable() }), "Unlocked; the job it stopped, if any."), ...writeErrorsOf(descriptor) },
  });

  const rows = createRoute({
    method: "get",
    path: `${base}/databases/{kind}/tables/{table}/rows`,
    tags,
    summary: "A page of one table's rows, as stored",
    description:
      'Values as text exactly as PostgreSQL holds them; `sort` a column ("-" first for descending), `column` and `contains` filter (a `column` the table does not have: `contains` searched in every column, and the answer\'s `column` null). 404 for a table the database does not have.',
    request: {
      // A name longer than any table's (an old or hand-edited link) is a table the database does not have: 404, as below.
      params: z.object({ id: z.string().min(1), kind: z.enum(PROJECT_DATABASE_KINDS), table: z.string().min(1) }),
      query: tableRowsQuerySchema,
    },
    responses: { 200: jsonContent(tableRowsSchema, "The page."), 400: errorResponses[400], ...readErrorsOf(descriptor) },
  });

  return createRouter()
    .openapi(rows, async (c) => {
      const { id, kind: databaseKind, table } = c.req.valid("param");
      const { workspace } = await requireWorkspace(c, kind, id, { write: false });
      const readPage = async () =>
        table.length <= LONGEST_TABLE_NAME && workspace.database_server && (await databaseExists(c.var.deps.dataPlane, workspace.database_server, workspace.id))
          ? await readTableRows(c.var.deps.dataPlane, workspace.database_server, workspace.id, databaseKind, table, c.req.valid("query"))
          : undefined;
      // Each column's type as the dictionary defines it (the type its users chose, nvarchar(50), not PostgreSQL's name
      // for it), read from the control plane beside the page from the project's database, not after it.
      const [page, defined] = await Promise.all([readPage(), dictionaryColumnsOf(c.var.deps.db, workspace.id, table)]);
      if (!page) throw new NotFoundError(`The ${DATABASE_NAMES[databaseKind].toLowerCase()} has no table '${table}'.`);
      const columns = page.columns.map((column) => {
        const of = defined.get(nameKey(column.name));
        return { ...column, defined: of ? { type: of.type, length: of.length, precision: of.precision, scale: of.scale } : null };
      });
      return c.json({ ...page, columns }, 200);
    })
    .openapi(unlock, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: false });
      if (!isAdmin(c.var.caller.roles)) throw new ApiProblem(403, "forbidden", "Only a SuperAdmin or Support may force-unlock.");
      const { db } = c.var.deps;
      const { reason } = c.req.valid("json");
      const done = await inTransaction(db, async (trx) => {
        const unlocked = await forceUnlock(trx, {
          projectId: workspace.id,
          userId: c.var.caller.userId,
          userName: c.var.caller.name ?? "an administrator",
          reason,
          statusAfter: statusAfterFailure,
          now: new Date().toISOString(),
        });
        if (unlocked) {
          if (unlocked.jobId) {
            // The job's records end with it: its own failure handling skips a job ended elsewhere.
            const at = new Date();
            await failLoadsOfEndedJobs(trx, `${unlocked.message}. Nothing was loaded.`, at);
            await failRunsOfEndedJobs(trx, `${unlocked.message}. The script that was running was rolled back.`, at);
          }
          describeWrite({
            action: "workspace.force_unlocked",
            companyId: workspace.company_id,
            workspaceId: workspace.id,
            target: `${capitalised(noun)} ${workspace.name}`,
            summary: { lockReason: workspace.lock_reason, jobId: unlocked.jobId, lockState: { before: "Locked", after: "ForceUnlocked" } },
            reason,
          });
        } else nothingToAudit();
        return unlocked;
      });
      if (!done) throw new ApiProblem(409, "not_locked", `The ${noun} is not locked.`);
      if (done.jobId) {
        // Stopped here at once; in another process, its next look at the job finds it ended.
        c.var.deps.jobs.cancel(done.jobId, new JobCancelledError(done.message));
      }
      return c.json({ jobId: done.jobId }, 200);
    })
    .openapi(cancel, async (c) => {
      const { id, jobId } = c.req.valid("param");
      // Not `write: true` with the lock check: cancelling is what a locked workspace is waited on for.
      const { workspace, access } = await requireWorkspace(c, kind, id, { write: false });
      if (!access.canWrite) throw new ApiProblem(403, "forbidden", `Cancelling a job needs write access to the ${noun}.`);
      const job = await c.var.deps.db.selectFrom("jobs").select("id").where("id", "=", jobId).where("project_id", "=", workspace.id).executeTakeFirst();
      if (!job) throw new NotFoundError("No such job.");
      // Recorded by requestCancel's transaction, when there was a job to stop.
      describeWrite({
        action: "job.cancel_requested",
        companyId: workspace.company_id,
        workspaceId: workspace.id,
        target: `${capitalised(noun)} ${workspace.name}`,
        summary: { jobId: job.id },
      });
      if (!(await requestCancel(jobDeps(c), job.id, c.var.caller.userId)))
        throw new ApiProblem(409, "not_running", "The job is not running: there is nothing to cancel.");
      return c.body(null, 202);
    })
    .openapi(databases, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: false });
      const query = c.req.valid("query");
      const [summaries, loaded] = await Promise.all([
        describeProjectDatabases(c.var.deps.db, c.var.deps.dataPlane, workspace.id, { ...query, exactUpTo: query.rows === "estimated" ? 0 : undefined }),
        lastLoadedAt(c.var.deps.db, workspace.id),
      ]);
      const body: WorkspaceDatabases = {
        databases: summaries.map((d) => ({
          ...d,
          name: DATABASE_NAMES[d.kind],
          tables: d.tables.map((t) => ({ ...t, lastChangedAt: d.kind === "source" ? (loaded.get(t.name) ?? null) : null })),
        })),
      };
      return c.json(body, 200);
    })
    .openapi(list, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: false });
      return c.json({ ...lockOf(workspace), jobs: await listProjectJobs(c.var.deps.db, workspace.id, RECENT_JOBS) }, 200);
    })
    .openapi(progress, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: false });
      return c.json({ ...lockOf(workspace), jobs: await listRunningJobs(c.var.deps.db, workspace.id) }, 200);
    })
    .openapi(tryCreate, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: true });
      const { db } = c.var.deps;
      // Based on the version the page showed (its upload type and flat-file parameters): changed since, in another tab or by
      // someone else, nothing starts; the lock's statement checks it again, so a change racing this request is refused too.
      const { version } = c.req.valid("json");
      if (version !== undefined && version !== Number(workspace.version))
        throw await staleWorkspace(db, kind, workspace.id, c.var.caller.userId, NOT_CREATED_STALE);
      const dictionary = await findProjectDictionaryRef(db, workspace.id);
      const stats = dictionary ? await dictionaryStats(db, dictionary.id) : undefined;
      const reasons = databaseCreationBlockers(kind, workspace, stats ?? { tableCount: 0, emptyTableCount: 0 });
      if (reasons.length) throw new ApiProblem(409, "not_ready", reasons.join(" "));
      try {
        const job = await startDatabaseCreation({ ...jobDeps(c), dataPlane: c.var.deps.dataPlane }, kind, workspace.id, c.var.caller.userId, version);
        return c.json(job, 202);
      } catch (err) {
        if (err instanceof JobRefusedError) throw new ApiProblem(409, "project_locked", err.message);
        throw err;
      }
    });
}

/** The workspace's lock as its jobs' answers say it. */
function lockOf(workspace: WorkspaceRow) {
  return {
    isLocked: Number(workspace.is_locked) === 1,
    lockReason: workspace.lock_reason as LockReason | null,
    lockState: workspace.lock_state as (typeof LOCK_STATES)[number],
  };
}

/** The columns of the workspace's dictionary table of that name (any case), by name key: none when it has no such table. */
async function dictionaryColumnsOf(db: Parameters<typeof tablesNamed>[0], workspaceId: string, table: string): Promise<Map<string, Column>> {
  const dictionary = await findProjectDictionaryRef(db, workspaceId);
  const found = dictionary ? (await tablesNamed(db, dictionary.id, [table])).get(nameKey(table)) : undefined;
  return new Map((found?.columns ?? []).map((column) => [nameKey(column.name), column]));
}
