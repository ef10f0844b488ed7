import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  runDetailsSchema,
  runPageSchema,
  runProgressSchema,
  runStepsQuerySchema,
  runsQuerySchema,
  startRunSchema,
  startedRunSchema,
} from "../../../../../contracts/runs.ts";
import { RUN_STATEMENT_TIMEOUT_SECONDS_DEFAULT } from "../../../../../contracts/values/runs.ts";
import type { WorkspaceDescriptor } from "../../../../../contracts/workspaces.ts";
import { ApiProblem } from "../../api-problem.ts";
import { createRouter, jsonBody, jsonContent } from "../../openapi.ts";
import { getRun, getRunProgress, getRunSummary, searchRuns } from "../../repositories/runs.ts";
import { rerunScope, startRun } from "../../runs/run-jobs.ts";
import { requireWorkspace } from "../../workspace-access.ts";
import { capitalised, collectionPath, jobDeps, readErrorsOf, workspaceIdParams, writeErrorsOf } from "./shared.ts";

/**
 * Runs of a workspace's templates (spec §7, exactly as it names them): `POST {base}/{id}/run`,
 * `GET {base}/{id}/runs` (query: status, type, page; arrays repeat the key), `GET {base}/{id}/runs/{runId}`;
 * and `GET {base}/{id}/runs/{runId}/progress`, the same without the steps' SQL, for the run's page to poll.
 */
export function createWorkspaceRunsRouter(descriptor: WorkspaceDescriptor) {
  const { kind, noun } = descriptor;
  const base = `${collectionPath(descriptor)}/{id}`;
  const tags = [`${capitalised(noun)} runs`];
  const readErrors = readErrorsOf(descriptor);
  const writeErrors = writeErrorsOf(descriptor);

  const run = createRoute({
    method: "post",
    path: `${base}/run`,
    tags,
    summary: "Run the templates (Full or Test): all, some templates, some levels or one script; or rerun a run from its failed step",
    description:
      "A job (lock reason ProjectRun). A Full run's preflight parses every script and checks the tables it names exist: problems answer 409 `preflight_failed`, " +
      "each in `errors` after the first line, and nothing runs. A locked workspace answers 409 with the lock's reason. " +
      "A rerun (`rerunOf`) runs again the run's steps that did not complete (Failed, or never run), from its first failed one, in order, each script at its newest version: " +
      "not the steps that completed (a run that went on after a failure kept what they did). " +
      "A rerun of a Test run, of a run without a failed step, or of a run rerun already (a rerun that ran any script) answers 409 `rerun_refused`.",
    request: { params: workspaceIdParams, body: jsonBody(startRunSchema) },
    responses: { 202: jsonContent(startedRunSchema, "The run, started."), ...writeErrors },
  });
  const list = createRoute({
    method: "get",
    path: `${base}/runs`,
    tags,
    summary: `The ${noun}'s runs, newest first`,
    request: { params: workspaceIdParams, query: runsQuerySchema },
    responses: { 200: jsonContent(runPageSchema, "A page of runs."), 400: writeErrors[400], ...readErrors },
  });
  const runParams = workspaceIdParams.extend({ runId: z.string().min(1) });
  const read = createRoute({
    method: "get",
    path: `${base}/runs/{runId}`,
    tags,
    summary: "A run with a page of its steps (the SQL as run; query: page, pageSize, status repeated) and the destination's row counts",
    request: { params: runParams, query: runStepsQuerySchema },
    responses: { 200: jsonContent(runDetailsSchema, "The run."), 400: writeErrors[400], ...readErrors },
  });
  const progress = createRoute({
    method: "get",
    path: `${base}/runs/{runId}/progress`,
    tags,
    summary: "A run as it goes: the same as the run, its page of steps without their SQL (what its page polls while it runs)",
    request: { params: runParams, query: runStepsQuerySchema },
    responses: { 200: jsonContent(runProgressSchema, "The run, its steps without their SQL."), 400: writeErrors[400], ...readErrors },
  });

  return createRouter()
    .openapi(run, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: true });
      if (!workspace.database_server) throw new ApiProblem(409, "not_ready", `The ${noun}'s databases are not created yet.`);
      const body = c.req.valid("json");
      const request = body.rerunOf
        ? { ...(await rerunScope(c.var.deps.db, workspace.id, body.rerunOf)), rerunOf: body.rerunOf }
        : {
            type: body.type,
            onError: body.onError,
            scope: { templateIds: body.templateIds, levelIds: body.levelIds, scriptId: body.scriptId ?? null, fromScriptId: null },
            rerunOf: null,
          };
      const deps = {
        ...jobDeps(c),
        dataPlane: c.var.deps.dataPlane,
        statementTimeoutSeconds: c.var.deps.runStatementTimeoutSeconds ?? RUN_STATEMENT_TIMEOUT_SECONDS_DEFAULT,
      };
      const runId = await startRun(
        deps,
        kind,
        { projectId: workspace.id, serverId: workspace.database_server, userId: c.var.caller.userId, userName: c.var.caller.name },
        request,
      );
      return c.json({ run: await getRunSummary(c.var.deps.db, workspace.id, runId) }, 202);
    })
    .openapi(list, async (c) => {
      const { workspace } = await requireWorkspace(c, kind, c.req.valid("param").id, { write: false });
      return c.json(await searchRuns(c.var.deps.db, workspace.id, c.req.valid("query")), 200);
    })
    .openapi(read, async (c) => {
      const params = c.req.valid("param");
      const { workspace } = await requireWorkspace(c, kind, params.id, { write: false });
      return c.json(await getRun(c.var.deps.db, workspace.id, params.runId, c.req.valid("query")), 200);
    })
    .openapi(progress, async (c) => {
      const params = c.req.valid("param");
      const { workspace } = await requireWorkspace(c, kind, params.id, { write: false });
      return c.json(await getRunProgress(c.var.deps.db, workspace.id, params.runId, c.req.valid("query")), 200);
    });
}
