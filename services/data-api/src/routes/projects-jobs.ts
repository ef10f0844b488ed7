import { createRoute } from "@hono/zod-openapi";
import { LOCK_STATES, projectJobsSchema, tryCreateDatabasesResponseSchema, type LockReason } from "../../../../contracts/projects.ts";
import { ApiProblem } from "../api-problem.ts";
import { startDatabaseCreation } from "../data-plane/database-creation.ts";
import { listProjectJobs } from "../jobs/job-store.ts";
import { JobRefusedError } from "../jobs/start-job.ts";
import { createRouter, jsonContent } from "../openapi.ts";
import { requireProject } from "../project-access.ts";
import { databaseCreationBlockers } from "../project-setup.ts";
import { dictionaryStats, findProjectDictionaryRef } from "../repositories/dictionaries.ts";
import { jobDeps, projectErrors, projectIdParams, writeErrors } from "./projects-shared.ts";

const TAGS = ["Jobs"];

/** The background-process page shows the running job and the recent ones. */
export const RECENT_JOBS = 20;

const list = createRoute({
  method: "get",
  path: "/projects/{id}/jobs",
  tags: TAGS,
  summary: "The project's lock and its recent jobs, with steps, newest first",
  request: { params: projectIdParams },
  responses: { 200: jsonContent(projectJobsSchema, `The lock and at most ${RECENT_JOBS} jobs.`), ...projectErrors },
});

const tryCreate = createRoute({
  method: "post",
  path: "/projects/{id}/try-create-databases",
  tags: TAGS,
  summary: "Start creating the project's source and destination databases (wizard step 3)",
  description:
    "Needs a dictionary with at least one table, every table with a column, an upload type, and flat-file parameters for FlatFile projects; status SetupUploadTypeIncomplete or DatabaseCreationFailed (a retry). Answers 202 with the job at once; the project is locked (DatabaseCreation) until it ends. 409 when locked or not ready, with the reasons.",
  request: { params: projectIdParams },
  responses: { 202: jsonContent(tryCreateDatabasesResponseSchema, "The job, just started."), ...writeErrors },
});

export function createProjectJobsRouter() {
  return createRouter()
    .openapi(list, async (c) => {
      const { project } = await requireProject(c, c.req.valid("param").id, { write: false });
      return c.json(
        {
          isLocked: Number(project.is_locked) === 1,
          lockReason: project.lock_reason as LockReason | null,
          lockState: project.lock_state as (typeof LOCK_STATES)[number],
          jobs: await listProjectJobs(c.var.deps.db, project.id, RECENT_JOBS),
        },
        200,
      );
    })
    .openapi(tryCreate, async (c) => {
      const { project } = await requireProject(c, c.req.valid("param").id, { write: true });
      const { db, dataDir } = c.var.deps;
      const dictionary = await findProjectDictionaryRef(db, project.id);
      const stats = dictionary ? await dictionaryStats(db, dictionary.id) : undefined;
      const reasons = databaseCreationBlockers(project, stats ?? { tableCount: 0, emptyTableCount: 0 });
      if (reasons.length) throw new ApiProblem(409, "not_ready", reasons.join(" "));
      try {
        const job = await startDatabaseCreation({ ...jobDeps(c), dataDir }, project.id, c.var.caller.userId);
        return c.json(job, 202);
      } catch (err) {
        if (err instanceof JobRefusedError) throw new ApiProblem(409, "project_locked", err.message);
        throw err;
      }
    });
}
