/**
 * The portal's URLs of a workspace (a migration project or an onboarding configuration), in one
 * place: routes.ts registers the same modules under both route bases, and every loader, redirect and
 * link builds its path here from the workspace's descriptor (always through companyHref).
 */
import { useLocation } from "react-router";
import { nextSetupStep, setupStepOpen, WORKSPACE_KINDS, WORKSPACES, type WizardStepId, type WorkspaceDescriptor, type WorkspaceKind } from "../../contracts/workspaces";
import { areaOfPath } from "./menu";
import type { ProjectStatus } from "../../contracts/projects";

/** The kind of workspace a portal path belongs to; the same modules serve both route bases. */
export function workspaceKindOf(pathname: string): WorkspaceKind {
  const area = areaOfPath(pathname)?.area;
  return WORKSPACE_KINDS.find((kind) => WORKSPACES[kind].area === area) ?? "migration";
}

export const workspaceOfPath = (pathname: string): WorkspaceDescriptor => WORKSPACES[workspaceKindOf(pathname)];

const enc = encodeURIComponent;

/**
 * A wizard page's document title (the house pattern: what the page is, then " · Data Transformation"),
 * led by its step, so each step has its own: "Step 2 of 4: Data dictionary · Set up Alpha · Data
 * Transformation". A path that is no step of the workspace's wizard gets the page's title alone.
 */
export function wizardTitle(pathname: string, step: string | undefined, page: string): string {
  const { steps } = workspaceOfPath(pathname);
  const index = steps.findIndex((s) => s.id === step);
  const lead = index < 0 ? "" : `Step ${index + 1} of ${steps.length}: ${steps[index]!.label} · `;
  return `${lead}${page} · Data Transformation`;
}

export function workspacePaths(ws: WorkspaceDescriptor) {
  const page = (id: string, rest = "details") => `${ws.routeBase}/${enc(id)}/${rest}`;
  const wizard = (id: string, step: Exclude<WizardStepId, "details">) => `${ws.routeBase}/create/${enc(id)}/${step}`;
  // The workspace's own dictionary: a mapping project's file data structure.
  const dd = ws.dictionaryStep;
  /** DOMAIN.md: leaving the wizard and coming back resumes at the first incomplete step. */
  const nextStep = (workspace: { id: string; status: ProjectStatus }): string => {
    const step = nextSetupStep(ws.kind, workspace.status);
    return step && step !== "details" ? wizard(workspace.id, step) : page(workspace.id);
  };
  // Unfinished: a wizard step to resume, or (a migration project) its databases made and its source not loaded yet,
  // which resumes at its Details, whose banner links to the load (the load pages are the project's own, no wizard step).
  const setupIncomplete = (status: ProjectStatus) => nextSetupStep(ws.kind, status) !== null || status === "SetupRestoreDatabaseIncomplete";
  return {
    ws,
    list: ws.routeBase,
    create: `${ws.routeBase}/${ws.createPath}`,
    page,
    wizard,
    nextStep,
    setupIncomplete,
    /**
     * Where a link to a workspace takes this user, decided once for the list, the create page's "Unfinished" card and
     * the workspace's own page: a writer of an unfinished setup resumes it (`resumes`); a reader opens its Details,
     * since the setup's steps are edit pages that would only send them back there refused; a finished one opens its Details.
     */
    resume(workspace: { id: string; status: ProjectStatus }, canWrite: boolean): { to: string; unfinished: boolean; resumes: boolean } {
      const unfinished = setupIncomplete(workspace.status);
      const resumes = canWrite && unfinished;
      return { to: resumes ? nextStep(workspace) : page(workspace.id), unfinished, resumes };
    },
    stepOpen: (status: ProjectStatus, step: WizardStepId) => setupStepOpen(ws.kind, status, step),
    /** The workspace's databases (spec §2: databases/…): what they hold, loading flat files, the history of loads. */
    databases: {
      current: (id: string) => page(id, "databases/current"),
      tables: (id: string) => page(id, "databases/tables"),
      load: (id: string) => page(id, "databases/flat-file/update-source"),
      /** Restore into the source database: from a backup, an uploaded archive or SQLite file; `?undo=` an entry. */
      restore: (id: string) => page(id, "databases/backup/update-source"),
      backupDownload: (id: string, backupId: string) => page(id, `databases/backups/${enc(backupId)}/download`),
      /** Onboarding: compare an earlier delivery with the current data. */
      compare: (id: string) => page(id, "databases/compare-source"),
      history: (id: string) => page(id, "databases/history/list"),
      entry: (id: string, historyId: string) => page(id, `databases/history/${enc(historyId)}/details`),
      /** One table of an entry: its rejected rows. */
      entryTable: (id: string, historyId: string, table: string) => page(id, `databases/history/${enc(historyId)}/table/${enc(table)}/details`),
      rejectedRowsCsv: (id: string, historyId: string, table: string) => page(id, `databases/history/${enc(historyId)}/table/${enc(table)}/rejected-rows.csv`),
    },
    /** The workspace's own data dictionary pages (spec §2: data-dictionary/…; a mapping project's file-data-structure/…). */
    dictionary: {
      root: (id: string) => page(id, dd),
      tables: (id: string) => page(id, `${dd}/data-definition/tables`),
      newTable: (id: string) => page(id, `${dd}/data-definition/tables/new`),
      table: (id: string, tableId: string) => page(id, `${dd}/tables/${enc(tableId)}/details`),
      upload: (id: string) => page(id, `${dd}/bulk-update/upload-data`),
      sourceData: (id: string) => page(id, `${dd}/source-data`),
      review: (id: string) => page(id, `${dd}/bulk-update/review/tables`),
      reviewTable: (id: string, tableName: string) => page(id, `${dd}/bulk-update/review/tables/${enc(tableName)}/details`),
    },
    /** A mapping project's "Translate a file": the form and latest translations, one translation, its file. */
    translations: {
      root: (id: string) => page(id, "translate"),
      one: (id: string, translationId: string) => page(id, `translate/${enc(translationId)}`),
      file: (id: string, translationId: string) => page(id, `translate/${enc(translationId)}/file`),
      progress: (id: string, translationId: string) => page(id, `translate/${enc(translationId)}/progress`),
    },
    /** A mapping project's value maps (spec §2: file-data-structure/mappingTable/{id} and …/column/{columnId}). */
    valueMaps: {
      table: (id: string, tableId: string) => page(id, `${dd}/mappingTable/${enc(tableId)}`),
      column: (id: string, tableId: string, columnId: string) => page(id, `${dd}/mappingTable/${enc(tableId)}/column/${enc(columnId)}`),
      csv: (id: string, tableId: string, columnId: string) => page(id, `${dd}/mappingTable/${enc(tableId)}/column/${enc(columnId)}/values.csv`),
    },
  };
}
export type WorkspacePaths = ReturnType<typeof workspacePaths>;

/** The paths of the workspace kind a portal path belongs to: for a route's handle, which is given its match and no hooks. */
export const workspacePathsOf = (pathname: string): WorkspacePaths => workspacePaths(workspaceOfPath(pathname));

/** In components: the paths of the workspace kind of the current page. */
export function useWorkspacePaths(): WorkspacePaths {
  return workspacePathsOf(useLocation().pathname);
}

/** The search parameter holding the bulk-upload review shown on the review pages (the workspaces' dictionaries and the master dictionaries). */
export const REVIEW_PARAM = "review";
