import type { JOB_KINDS, ProjectStatus } from "../../../../contracts/projects.ts";

export type JobKind = (typeof JOB_KINDS)[number];

/**
 * What a failed job leaves the project's status at. A table rather than a callback, because the
 * restart recovery must apply the same rule to a job whose process (and closures) are gone.
 * "previous" puts back the status the project had when the job took the lock.
 */
const FAILURE_STATUS: Record<JobKind, ProjectStatus | "previous"> = {
  DatabaseCreation: "DatabaseCreationFailed",
  Restore: "previous",
  Backup: "previous",
  FlatFile: "previous",
  Comparison: "previous",
  RestoreAndComparison: "previous",
  Undo: "previous",
  ProjectRun: "previous",
  // A dictionary change whose DDL failed changed nothing (one transaction): the workspace is as it was.
  SchemaChange: "previous",
};

export function statusAfterFailure(kind: string, previousStatus: string): ProjectStatus {
  const rule = FAILURE_STATUS[kind as JobKind] ?? "previous";
  return rule === "previous" ? (previousStatus as ProjectStatus) : rule;
}
