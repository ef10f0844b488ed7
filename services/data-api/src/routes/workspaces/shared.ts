/** What the workspace routers share: paths, path parameters, error answers and the job dependencies. */
import type { Context } from "hono";
import { z } from "zod";
import { apiErrorSchema } from "../../../../../contracts/errors.ts";
import type { WorkspaceDescriptor } from "../../../../../contracts/workspaces.ts";
import { SERVICE_WORKSPACES } from "../../../../../contracts/workspaces.server.ts";
import type { AppEnv } from "../../context.ts";
import { sharedJobRunner } from "../../jobs/runner.ts";
import type { JobDeps } from "../../jobs/start-job.ts";
import type { BackupDeps } from "../../data-plane/backups/backup-jobs.ts";
import { API_PREFIX, errorResponses, jsonContent } from "../../openapi.ts";

export const workspaceIdParams = z.object({ id: z.string().min(1) });

/** The workspace collection's path under /api/v1, from its descriptor: "/projects", "/audit-projects". */
export function collectionPath(descriptor: WorkspaceDescriptor): string {
  const { apiBase } = SERVICE_WORKSPACES[descriptor.kind];
  if (!apiBase.startsWith(`${API_PREFIX}/`)) throw new Error(`${descriptor.kind}: apiBase must start with ${API_PREFIX}/`);
  return apiBase.slice(API_PREFIX.length);
}

/** "project" → "Project": OpenAPI tags and summaries. */
export { capitalised } from "../../../../../contracts/values/common.ts";

const errorBody = (description: string) => jsonContent(apiErrorSchema, description);

const AREA_NAMES = { migration: "Migration", onboarding: "Onboarding", translations: "Translations", additionalOptions: "Additional Options" } as const;

/** Every route of a workspace answers these; reads only these. */
export function readErrorsOf(descriptor: WorkspaceDescriptor) {
  return {
    401: errorResponses[401],
    403: errorBody(
      `The caller's role for the company is not one of the ${AREA_NAMES[descriptor.area]} area's roles, or a write without write access to the ${descriptor.noun}.`,
    ),
    404: errorResponses[404],
    503: errorResponses[503],
  } as const;
}

/** …and writes these too. */
export function writeErrorsOf(descriptor: WorkspaceDescriptor) {
  return {
    ...readErrorsOf(descriptor),
    400: errorResponses[400],
    409: errorBody(`The ${descriptor.noun} is locked by a running job, or the request was based on a stale version, or a name is taken.`),
  } as const;
}

/** A create's `id` (makeOnce, sentAgain) for what the create makes (a project, a data dictionary): said in its route's description. */
export function createdOnceRule(noun: string): string {
  return (
    `\`id\` (optional, a UUID the create form drew) makes the ${noun} with that id, once: the same body sent again by the same user answers the ${noun} it made (201, nothing more made) while it is still at version 1; ` +
    `sent with other values, after the ${noun} moved on, or by another user or company, it answers 409 already_made and makes nothing.`
  );
}

export function jobDeps(c: Context<AppEnv, any, any>): JobDeps {
  const { db, progressDb, logger, jobs } = c.var.deps;
  return { db, progressDb, logger, jobs: jobs ?? sharedJobRunner() };
}

/** What jobs on a workspace's data need besides: the data plane, the data folder (backups), how many automatic backups to keep. */
export function backupDeps(c: Context<AppEnv, any, any>): BackupDeps {
  const { dataPlane, dataDir, autoBackupsKept } = c.var.deps;
  return { ...jobDeps(c), dataPlane, dataDir, autoBackupsKept };
}
