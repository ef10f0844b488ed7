/*
 * Runs of a workspace's templates (issue 11; spec §4): Zod-free, for the browser too.
 */

/** A run starts only in an Active workspace: setup done (its first master template assigned), not Inactive or Completed. */
export const RUN_START_STATUSES = ["Active"] as const;

/**
 * The most templates, and the most levels, one run is narrowed to: the Run page carries its ticks from page to
 * page in its URL (`templateIds`, `levelIds`, repeated), which must stay short enough for any server to read.
 */
export const MAX_RUN_CHOICES = 100;

/** Spec §4 "Full/Test": Full keeps what each script did; Test rolls the whole run back and reports what it would have changed. */
export const RUN_TYPES = ["Full", "Test"] as const;
export type RunType = (typeof RUN_TYPES)[number];

/** Spec §4 "Run/result status" (a run stopped by a Cancel or a force unlock is ERROR; its message says it was cancelled). */
export const RUN_STATUSES = ["None", "CompletedWithFailures", "CompletedWithWarning", "IN_PROGRESS", "SUCCESS", "ERROR"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const RUN_STATUS_LABELS: Record<RunStatus, string> = {
  None: "Not run",
  CompletedWithFailures: "Completed with failures",
  CompletedWithWarning: "Completed with warnings",
  IN_PROGRESS: "Running",
  SUCCESS: "Succeeded",
  ERROR: "Failed",
};

/** Spec §4 "Step status". */
export const RUN_STEP_STATUSES = ["Pending", "Started", "Completed", "Failed"] as const;
export type RunStepStatus = (typeof RUN_STEP_STATUSES)[number];

/** "On error": stop the run at the first failed script (default), or go on with the next. */
export const ON_ERROR_CHOICES = ["stop", "continue"] as const;
export type OnError = (typeof ON_ERROR_CHOICES)[number];
export const ON_ERROR_LABELS: Record<OnError, string> = { stop: "Stop the run", continue: "Continue with the next script" };

/** A statement of a run is cancelled after this long (env RUN_STATEMENT_TIMEOUT_SECONDS). */
export const RUN_STATEMENT_TIMEOUT_SECONDS_DEFAULT = 3600;

/** The run history's order: by when each run started, newest first unless asked. */
export const RUN_SORTS = ["createdAt", "-createdAt"] as const;
export type RunSort = (typeof RUN_SORTS)[number];
export const DEFAULT_RUN_SORT: RunSort = "-createdAt";
