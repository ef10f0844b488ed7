/**
 * What the pages' loaders hand their components, for the tests that render a page: one complete object of each
 * kind the data API answers (a job, a script, a template, a run, a backup) and of the workspace pages' data, so
 * that each test names only what it is about (`changes`) and a field the contract gains is added here once.
 */
import type { Backup } from "../../contracts/backups";
import type { TranslationDetail } from "../../contracts/mappings";
import type { Job, LockReason } from "../../contracts/projects";
import type { RunDetails } from "../../contracts/runs";
import type { Script, TemplateSummary } from "../../contracts/templates";
import type { ProjectStatus, SOURCE_TYPES } from "../../contracts/values/projects";

/** A running job: a flat-file load of workspace p1, 40% done, started by u1. */
export function jobOf(changes: Partial<Job> = {}): Job {
  return {
    id: "j1",
    projectId: "p1",
    kind: "FlatFile",
    status: "IN_PROGRESS",
    progress: 40,
    progressDetail: null,
    steps: [],
    error: null,
    createdBy: "u1",
    createdAt: "2025-03-04T14:05:00.000Z",
    finishedAt: null,
    ...changes,
  };
}

/** The script Customers (s1) of level Load of template Main, at version 2, nobody editing it. */
export function scriptOf(changes: Partial<Script> = {}): Script {
  return {
    id: "s1",
    levelId: "l1",
    name: "Customers",
    order: 1,
    version: 2,
    lockState: "Unlocked",
    lockedBy: null,
    lockedByName: null,
    lockedAt: null,
    lockExpiresAt: null,
    updatedAt: "2026-11-27T23:20:00.000Z",
    updatedByName: "Ann",
    templateId: "t1",
    levelName: "Load",
    templateName: "Main",
    sql: "select 1;",
    createdAt: "2026-11-27T23:00:00.000Z",
    ...changes,
  };
}

/** The Core template "Core load" (t1) with one level and one script, made here (no master). */
export function templateSummaryOf(changes: Partial<TemplateSummary> = {}): TemplateSummary {
  return {
    id: "t1",
    companyId: "c1",
    area: "migration",
    projectId: null,
    name: "Core load",
    description: null,
    type: "Core",
    status: "Available",
    version: 1,
    masterTemplateId: null,
    masterVersion: null,
    levelCount: 1,
    scriptCount: 1,
    createdAt: "2026-11-27T10:00:00.000Z",
    updatedAt: "2026-11-27T10:00:00.000Z",
    updatedByName: null,
    ...changes,
  };
}

/**
 * A Full run (r1) of workspace p1 that ended after a minute, started by Ann (u1). Its step count and page of
 * steps follow the `steps` given (none by default), as the data API answers them.
 */
export function runDetailsOf(changes: Partial<RunDetails> = {}): RunDetails {
  const steps = changes.steps ?? [];
  return {
    id: "r1",
    projectId: "p1",
    jobId: null,
    type: "Full",
    status: "SUCCESS",
    onError: "stop",
    createdBy: "u1",
    createdByName: "Ann",
    createdAt: "2026-11-27T23:00:00.000Z",
    finishedAt: "2026-11-27T23:01:00.000Z",
    durationMs: 60_000,
    stepCount: steps.length,
    failedSteps: 0,
    rerunOf: null,
    stepPage: { total: steps.length, page: 1, pageSize: 25 },
    tables: [],
    message: null,
    rerunBy: null,
    ...changes,
    steps,
  };
}

/** A manual backup (b1) of two tables, taken after a flat-file load. */
export function backupOf(changes: Partial<Backup> = {}): Backup {
  return {
    id: "b1",
    name: "Acme 2026-11-27.zip",
    kind: "Manual",
    status: "Ready",
    bytes: 1024,
    tableCount: 2,
    rowCount: 3,
    after: { id: "h1", type: "FlatFile", fileName: "Customers.csv", finishedAt: "2026-11-27T10:00:00.000Z" },
    createdBy: "u1",
    createdAt: "2026-11-27T10:00:00.000Z",
    ...changes,
  };
}

/** A translation (tr1) of employees.csv into employees (t1), completed: one row read and written, no report. */
export function translationOf(changes: Partial<TranslationDetail> = {}): TranslationDetail {
  return {
    id: "tr1",
    tableName: "employees",
    tableId: "t1",
    fileName: "employees.csv",
    status: "Completed",
    bytesRead: 10,
    bytesTotal: 10,
    rowsRead: 1,
    rowsWritten: 1,
    rowsRejected: 0,
    report: null,
    error: null,
    createdAt: "2026-11-27T10:00:00.000Z",
    finishedAt: "2026-11-27T10:00:01.000Z",
    ...changes,
  };
}

/**
 * A workspace as its list's rows, its header (the workspace layout) and the create page's "Unfinished" card show it:
 * an unlocked flat-file project of Legacy ERP that the user may write. A configuration adds `isDefault` and `schemes`.
 */
export type WorkspaceFixture = {
  id: string;
  name: string;
  status: ProjectStatus;
  applicationName: string;
  sourceType: (typeof SOURCE_TYPES)[number];
  isLocked: boolean;
  lockReason: LockReason | null;
  updatedAt: string;
  canWrite: boolean;
  isDefault?: boolean;
  schemes?: string[];
};
export function workspaceOf(changes: Partial<WorkspaceFixture> = {}): WorkspaceFixture {
  return {
    id: "p1",
    name: "Alpha",
    status: "Active",
    applicationName: "Legacy ERP",
    sourceType: "FlatFile",
    isLocked: false,
    lockReason: null,
    updatedAt: "2026-11-28T19:04:22.000Z",
    canWrite: true,
    ...changes,
  };
}

/** The Background process page's data of configuration c1 (its setup unfinished): unlocked, no job, the user may cancel. */
export function backgroundProcessData(changes: Record<string, unknown> = {}) {
  return {
    project: { id: "c1", status: "SetupAddColumnsIncomplete" as ProjectStatus },
    isLocked: false,
    lockReason: null as LockReason | null,
    lockState: "Unlocked",
    jobs: [] as Job[],
    names: { u1: "Ann Analyst" } as Record<string, string>,
    canCancel: true,
    canForceUnlock: false,
    ...changes,
  };
}
