import { z } from "zod";
import { pageOf, pageQuerySchema, repeatedQuery, timestampSchema } from "./common";
import { DEFAULT_RUN_SORT, MAX_RUN_CHOICES, ON_ERROR_CHOICES, RUN_SORTS, RUN_STATUSES, RUN_STEP_STATUSES, RUN_TYPES } from "./values/runs";

export * from "./values/runs";

/**
 * Runs (issue 11; spec §7 `POST /projects/{id}/run`, `GET /projects/{id}/runs`, `GET /projects/{id}/runs/{runId}`):
 * the workspace's scripts executed in template, level and script order against its databases.
 */

export const runTypeSchema = z.enum(RUN_TYPES, { error: `One of ${RUN_TYPES.join(", ")}` });
export const runStatusSchema = z.enum(RUN_STATUSES);

/** What to run: everything (no ids), some templates, some levels, or one script; and from where when rerun. */
export const startRunSchema = z.object({
  type: runTypeSchema,
  templateIds: z.array(z.string().min(1)).max(MAX_RUN_CHOICES, `Choose at most ${MAX_RUN_CHOICES} templates`).default([]),
  levelIds: z.array(z.string().min(1)).max(MAX_RUN_CHOICES, `Choose at most ${MAX_RUN_CHOICES} levels`).default([]),
  scriptId: z.string().min(1).nullish(),
  onError: z.enum(ON_ERROR_CHOICES).default("stop"),
  /** "Rerun from the failed step": the run whose scope is run again, from its first failed step. */
  rerunOf: z.string().min(1).nullish(),
});
export type StartRun = z.infer<typeof startRunSchema>;

/** A preflight problem: the script, where, and what. */
export const preflightProblemSchema = z.object({
  template: z.string(),
  level: z.string(),
  script: z.string(),
  line: z.number().int().nullable(),
  message: z.string(),
});
export type PreflightProblem = z.infer<typeof preflightProblemSchema>;

export const runStepSchema = z.object({
  position: z.number().int(),
  templateName: z.string(),
  levelName: z.string(),
  scriptId: z.string(),
  scriptName: z.string(),
  /** The script version run, and its SQL exactly as run. */
  scriptVersion: z.number().int(),
  status: z.enum(RUN_STEP_STATUSES),
  rowsAffected: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  notices: z.array(z.string()),
  error: z.string().nullable(),
  /** The error's line in the script. */
  errorLine: z.number().int().nullable(),
});
export type RunStep = z.infer<typeof runStepSchema>;

export const runSummarySchema = z.object({
  id: z.string(),
  projectId: z.string(),
  jobId: z.string().nullable(),
  type: runTypeSchema,
  status: runStatusSchema,
  onError: z.enum(ON_ERROR_CHOICES),
  createdBy: z.string(),
  createdByName: z.string().nullable(),
  createdAt: timestampSchema,
  finishedAt: timestampSchema.nullable(),
  durationMs: z.number().int().nullable(),
  stepCount: z.number().int(),
  failedSteps: z.number().int(),
  rerunOf: z.string().nullable(),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

export const runTableCountSchema = z.object({
  table: z.string(),
  /** Rows when the run started. */
  rowsBefore: z.number().int().nullable(),
  /** Rows in the destination table after this run (a Test run: what it would have left), and after the run before. */
  rows: z.number().int(),
  previousRows: z.number().int().nullable(),
});

/** Which of a run's steps its page shows: a page of them in order, of some statuses or all. */
export const runStepsQuerySchema = pageQuerySchema.extend({
  status: repeatedQuery(z.enum(RUN_STEP_STATUSES)),
});

/**
 * A run as it goes (…/runs/{runId}/progress): what its page polls every second while it runs. The
 * page of steps says each step's status, rows, duration, notices and error, not its SQL: a run of
 * long scripts would send all of it again at every poll, and it does not change.
 */
export const runProgressSchema = runSummarySchema.extend({
  /** A page of the steps (runStepsQuerySchema), in order: a run of thousands of scripts is never sent whole. */
  steps: z.array(runStepSchema),
  /** Where that page is among the steps the query matched (all of them: stepCount). */
  stepPage: z.object({ total: z.number().int(), page: z.number().int(), pageSize: z.number().int() }),
  tables: z.array(runTableCountSchema),
  message: z.string().nullable(),
  /** The rerun of this run from its failed step that ran any script, if any: the run is not rerun again (409 rerun_refused). */
  rerunBy: z.object({ id: z.string(), createdAt: timestampSchema }).nullable(),
});
export type RunProgress = z.infer<typeof runProgressSchema>;

/** The run with its page of steps, each with its SQL as run. */
export const runDetailsSchema = runProgressSchema.extend({
  steps: z.array(runStepSchema.extend({ sql: z.string() })),
});
export type RunDetails = z.infer<typeof runDetailsSchema>;

export const runsQuerySchema = pageQuerySchema.extend({
  status: repeatedQuery(runStatusSchema),
  type: repeatedQuery(runTypeSchema),
  sort: z.enum(RUN_SORTS).default(DEFAULT_RUN_SORT),
});
export const runPageSchema = pageOf(runSummarySchema);
export const startedRunSchema = z.object({ run: runSummarySchema });
