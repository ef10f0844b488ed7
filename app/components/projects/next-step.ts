import type { Project, ProjectStatus } from "../../../contracts/projects";

export const projectsPath = "/migration/projects";
export const projectPath = (id: string, rest = "details") => `${projectsPath}/${encodeURIComponent(id)}/${rest}`;
export type WizardStep = "details" | "data-dictionary" | "databases" | "templates";
export const wizardPath = (id: string, step: "data-dictionary" | "databases") => `${projectsPath}/create/${encodeURIComponent(id)}/${step}`;

/**
 * DOMAIN.md: leaving the wizard and coming back resumes at the first incomplete step. Loading the
 * source data and the templates step come in later issues, so a project waiting for them opens on
 * its details page (never a link to a page that does not exist).
 */
export function nextStepPath(project: Pick<Project, "id" | "status">): string {
  const step = nextStepOf(project.status);
  return step ? wizardPath(project.id, step) : projectPath(project.id);
}

export function nextStepOf(status: ProjectStatus): "data-dictionary" | "databases" | null {
  switch (status) {
    case "SetupDataDictionaryIncomplete":
    case "SetupAddColumnsIncomplete":
      return "data-dictionary";
    case "SetupUploadTypeIncomplete":
    case "DatabaseCreation":
    case "DatabaseCreationFailed":
      return "databases";
    default:
      return null;
  }
}

/**
 * Which wizard steps a project may open. The dictionary can change until databases are created from
 * it (again after a failed creation); the databases step also shows its finished job once, so it
 * stays open when the databases were just created.
 */
export function stepOpen(status: ProjectStatus, step: "data-dictionary" | "databases"): boolean {
  if (step === "data-dictionary") {
    return ["SetupDataDictionaryIncomplete", "SetupAddColumnsIncomplete", "SetupUploadTypeIncomplete", "DatabaseCreationFailed"].includes(status);
  }
  return ["SetupUploadTypeIncomplete", "DatabaseCreation", "DatabaseCreationFailed", "SetupRestoreDatabaseIncomplete"].includes(status);
}

/** The project's own data dictionary pages (spec §2: data-dictionary/…). */
export const projectDictionaryPaths = {
  root: (id: string) => projectPath(id, "data-dictionary"),
  tables: (id: string) => projectPath(id, "data-dictionary/data-definition/tables"),
  newTable: (id: string) => projectPath(id, "data-dictionary/data-definition/tables/new"),
  table: (id: string, tableId: string) => projectPath(id, `data-dictionary/tables/${encodeURIComponent(tableId)}/details`),
  upload: (id: string) => projectPath(id, "data-dictionary/bulk-update/upload-data"),
  review: (id: string) => projectPath(id, "data-dictionary/bulk-update/review/tables"),
  reviewTable: (id: string, tableName: string) => projectPath(id, `data-dictionary/bulk-update/review/tables/${encodeURIComponent(tableName)}/details`),
};

/** The search parameter holding the bulk-upload review shown on the review pages. */
export const REVIEW_PARAM = "review";
