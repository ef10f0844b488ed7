/** What the project routers share: path parameters, error answers and the job dependencies. */
import type { Context } from "hono";
import { z } from "zod";
import { apiErrorSchema } from "../../../../contracts/errors.ts";
import type { AppEnv } from "../context.ts";
import { sharedJobRunner } from "../jobs/runner.ts";
import type { JobDeps } from "../jobs/start-job.ts";
import { errorResponses, jsonContent } from "../openapi.ts";

export const projectIdParams = z.object({ id: z.string().min(1) });

const errorBody = (description: string) => jsonContent(apiErrorSchema, description);

/** Every project route answers these; reads only the first four. */
export const projectErrors = {
  401: errorResponses[401],
  403: errorBody("The caller's role for the company is not a Migration role, or a write without write access to the project."),
  404: errorResponses[404],
  503: errorResponses[503],
} as const;

export const writeErrors = {
  ...projectErrors,
  400: errorResponses[400],
  409: errorBody("The project is locked by a running job, or the request was based on a stale version, or a name is taken."),
} as const;

export function jobDeps(c: Context<AppEnv, any, any>): JobDeps {
  const { db, logger, jobs } = c.var.deps;
  return { db, logger, jobs: jobs ?? sharedJobRunner() };
}
