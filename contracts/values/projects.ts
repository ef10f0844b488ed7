/*
 * Zod-free: the browser imports these (labels, options, limits) without pulling in Zod. The schemas in
 * contracts/projects.ts build on them and re-export them, so the services import from there as before.
 * A flat file's parameters are in ./flat-files.ts.
 */

/** Spec §4. */
export const PROJECT_STATUSES = [
  "None",
  "Active",
  "Inactive",
  "Completed",
  "DatabaseCreation",
  "SetupUploadTypeIncomplete",
  "SetupRestoreDatabaseIncomplete",
  "SetupAssignTemplatesIncomplete",
  "SetupAddColumnsIncomplete",
  "SetupDataDictionaryIncomplete",
  "DatabaseCreationFailed",
] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** The readable words for each status (the project list shows these, never the enum names). */
export const PROJECT_STATUS_LABELS: Record<ProjectStatus, string> = {
  None: "None",
  Active: "Active",
  Inactive: "Inactive",
  Completed: "Completed",
  DatabaseCreation: "Creating databases",
  SetupUploadTypeIncomplete: "Setup: choose upload type",
  SetupRestoreDatabaseIncomplete: "Setup: load source data",
  SetupAssignTemplatesIncomplete: "Setup: assign templates",
  SetupAddColumnsIncomplete: "Setup: add columns",
  SetupDataDictionaryIncomplete: "Setup: data dictionary",
  DatabaseCreationFailed: "Database creation failed",
};

/** DOMAIN.md: after setup, Active ⇄ Inactive and Active → Completed, by a user with write access. */
export const STATUS_CHANGES: Partial<Record<ProjectStatus, ProjectStatus[]>> = {
  Active: ["Inactive", "Completed"],
  Inactive: ["Active"],
};

export const LOCK_REASONS = ["Restore", "Backup", "DataComparison", "ProjectRun", "FlatFileCreation", "DatabaseCreation"] as const;
export const LOCK_REASON_LABELS: Record<(typeof LOCK_REASONS)[number], string> = {
  Restore: "Restore",
  Backup: "Backup",
  DataComparison: "Data comparison",
  ProjectRun: "Project run",
  FlatFileCreation: "Flat file creation",
  DatabaseCreation: "Database creation",
};
/** Undo: a restore of the data as it was before an entry of the history, named as History names it. */
export const JOB_KINDS = [
  "DatabaseCreation",
  "Restore",
  "Backup",
  "FlatFile",
  "Comparison",
  "RestoreAndComparison",
  "Undo",
  "ProjectRun",
  "SchemaChange",
] as const;
/** How a job's kind reads: its progress on every page, and the data API's refusal to start one. */
export const JOB_KIND_LABELS: Record<(typeof JOB_KINDS)[number], string> = {
  DatabaseCreation: "Database creation",
  Restore: "Restore",
  Backup: "Backup",
  FlatFile: "Flat file load",
  Comparison: "Comparison",
  RestoreAndComparison: "Restore and comparison",
  Undo: "Undo",
  ProjectRun: "Project run",
  SchemaChange: "Database change",
};

export const LOCK_STATES = ["Unlocked", "ForceUnlocked", "Locked"] as const;
export type LockState = (typeof LOCK_STATES)[number];

export const SOURCE_TYPES = ["BackUp", "FlatFile"] as const;
export const SOURCE_TYPE_LABELS: Record<(typeof SOURCE_TYPES)[number], string> = { BackUp: "Backup", FlatFile: "Flat file" };

export const UPLOAD_TYPES = ["SingleFile", "MultipleFiles"] as const;
export const UPLOAD_TYPE_LABELS: Record<(typeof UPLOAD_TYPES)[number], string> = { SingleFile: "Single file", MultipleFiles: "Multiple files" };

export const PROJECT_SORTS = ["name", "-name", "status", "-status", "application", "-application", "updatedAt", "-updatedAt"] as const;
