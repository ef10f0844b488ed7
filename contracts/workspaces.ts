import type { Area } from "./areas";
import type { ProjectStatus } from "./projects";

/**
 * A workspace is what a migration project and an onboarding configuration (the data API's "audit
 * project") have in common: a data dictionary of its own, databases, jobs and a lock, users, and later
 * templates and runs. One implementation serves both kinds; everything that differs between them is
 * in this table, read by the portal (routes, guards, wording, wizard) and the data API (mounts, area
 * rule, setup status) alike. docs/decisions/008 says how a page is added once for both.
 */
export const WORKSPACE_KINDS = ["migration", "onboarding", "translation"] as const;
export type WorkspaceKind = (typeof WORKSPACE_KINDS)[number];

export type WizardStepId = "details" | "data-dictionary" | "databases" | "file-data-structure" | "templates";

/**
 * What the pages need to know of a kind of workspace: every page loads this module (the shell's menu and
 * paths), so what only the services read (its product type, API collection and statuses) is in
 * workspaces.server.ts (issue 8's initial JS bar).
 */
export type WorkspaceDescriptor = {
  kind: WorkspaceKind;
  /** The area whose roles (contracts/areas.ts) may open it; on Azure, onboarding does not exist. */
  area: Area;
  /** The portal's list page; a workspace's pages are `${routeBase}/{id}/…`, its wizard `${routeBase}/create/{id}/…`. */
  routeBase: string;
  /** The route parameter that names it (spec §2). */
  idParam: "projectId" | "configurationId" | "mappingProjectId";
  /** The create page, below routeBase (spec §2: "create", or the mapping wizard's "create/new/basic-settings"). */
  createPath: string;
  /**
   * What it has besides templates: databases and jobs (and runs of its templates), and an access list
   * (users/project-access). Without one, whoever holds the area's role in the company reads and writes it.
   */
  features: { databases: boolean; accessList: boolean };
  /**
   * Its own data dictionary's wizard step and page (below `{routeBase}/{id}/`), and their name: a
   * mapping project calls it its file data structure (spec §2).
   */
  dictionaryStep: "data-dictionary" | "file-data-structure";
  dictionaryLabel: string;
  /** The types of master template it may be assigned (spec §4: Core/Mapping). */
  templateTypes: readonly ("Core" | "Mapping")[];
  /** Wording: "project" / "configuration". */
  noun: string;
  nounPlural: string;
  /** The area's name in breadcrumbs and titles. */
  listTitle: string;
  notFoundMessage: string;
  /** Wizard steps in order, with their labels; the first is always "details" (the create page). */
  steps: readonly { id: WizardStepId; label: string }[];
};

export const WORKSPACES: Record<WorkspaceKind, WorkspaceDescriptor> = {
  migration: {
    kind: "migration",
    area: "migration",
    routeBase: "/migration/projects",
    idParam: "projectId",
    createPath: "create",
    features: { databases: true, accessList: true },
    templateTypes: ["Core", "Mapping"],
    dictionaryStep: "data-dictionary",
    dictionaryLabel: "Data dictionary",
    noun: "project",
    nounPlural: "projects",
    listTitle: "Projects",
    notFoundMessage: "Project not found.",
    steps: [
      { id: "details", label: "Details" },
      { id: "data-dictionary", label: "Data dictionary" },
      { id: "databases", label: "Databases" },
      { id: "templates", label: "Templates" },
    ],
  },
  onboarding: {
    kind: "onboarding",
    area: "onboarding",
    routeBase: "/onboarding/configurations",
    idParam: "configurationId",
    createPath: "create",
    features: { databases: true, accessList: true },
    templateTypes: ["Core", "Mapping"],
    dictionaryStep: "data-dictionary",
    dictionaryLabel: "Data dictionary",
    noun: "configuration",
    nounPlural: "configurations",
    listTitle: "Configurations",
    notFoundMessage: "Configuration not found.",
    // Spec §2: create (details) → data-dictionary (which also creates the databases) → templates.
    steps: [
      { id: "details", label: "Details" },
      { id: "data-dictionary", label: "Data dictionary" },
      { id: "templates", label: "Templates" },
    ],
  },
  // Fusion PSI Configuration (issue 12): a translation mapping project. Its "file data structure" is
  // its own data dictionary (the client's files' tables and columns), with value maps beside it
  // (contracts/mappings.ts); it has no databases, and the area's role decides who works on it.
  translation: {
    kind: "translation",
    area: "translations",
    routeBase: "/translations/mappings",
    idParam: "mappingProjectId",
    createPath: "create/new/basic-settings",
    features: { databases: false, accessList: false },
    // Issue 12: a mapping project's templates are Mapping templates, whose scripts use its value maps.
    templateTypes: ["Mapping"],
    dictionaryStep: "file-data-structure",
    dictionaryLabel: "File data structure",
    noun: "mapping project",
    nounPlural: "mapping projects",
    listTitle: "Mappings",
    notFoundMessage: "Mapping project not found.",
    // Spec §2: create/new/basic-settings → create/{id}/file-data-structure → create/{id}/templates.
    steps: [
      { id: "details", label: "Basic settings" },
      { id: "file-data-structure", label: "File data structure" },
      { id: "templates", label: "Templates" },
    ],
  },
};

/** The noun as part of an element id ("mapping-project"): an id holds no space, which would split a list of ids such as aria-describedby. */
export function nounInIds(ws: Pick<WorkspaceDescriptor, "noun">): string {
  return ws.noun.replaceAll(" ", "-");
}

/**
 * DOMAIN.md: leaving the wizard and coming back resumes at the first incomplete step. `null` when
 * setup is done, or waits for a step a later issue brings (then the workspace opens on its details).
 */
export function nextSetupStep(kind: WorkspaceKind, status: ProjectStatus): WizardStepId | null {
  if (kind === "translation") {
    // A mapping project describes its files' structure, then assigns its Mapping templates.
    if (status === "SetupAddColumnsIncomplete") return "file-data-structure";
    return status === "SetupAssignTemplatesIncomplete" ? "templates" : null;
  }
  switch (status) {
    case "SetupDataDictionaryIncomplete":
    case "SetupAddColumnsIncomplete":
      return "data-dictionary";
    case "SetupUploadTypeIncomplete":
      return kind === "migration" ? "databases" : "data-dictionary";
    case "DatabaseCreation":
    case "DatabaseCreationFailed":
      // Onboarding creates its databases from the dictionary step (spec §2 has no databases step there).
      return kind === "migration" ? "databases" : "data-dictionary";
    case "SetupAssignTemplatesIncomplete":
      // Both kinds end their setup by assigning templates (a migration project once its source is loaded).
      return "templates";
    default:
      return null;
  }
}

/**
 * Which wizard steps a workspace may open. The dictionary can change until databases are created
 * from it (again after a failed creation); the step that creates the databases also shows its
 * finished job once, so it stays open when the databases were just created.
 */
export function setupStepOpen(kind: WorkspaceKind, status: ProjectStatus, step: WizardStepId): boolean {
  if (step === "details") return true;
  if (kind === "translation") {
    // The structure can be changed until templates are assigned (later, on the mapping project's own page).
    if (step === "file-data-structure") return status === "SetupAddColumnsIncomplete" || status === "SetupAssignTemplatesIncomplete";
    return step === "templates" && status === "SetupAssignTemplatesIncomplete";
  }
  if (kind === "onboarding") {
    // The dictionary step creates the databases and hands over to their job's page; once they
    // exist, setup goes on at the templates step (as a migration project's dictionary step closes).
    // (The first and third never happen to a configuration; open all the same, so no status can send
    // a user round in redirects between nextSetupStep and this.)
    if (step === "data-dictionary") {
      return ["SetupDataDictionaryIncomplete", "SetupAddColumnsIncomplete", "SetupUploadTypeIncomplete", "DatabaseCreationFailed"].includes(status);
    }
    return step === "templates" && status === "SetupAssignTemplatesIncomplete";
  }
  if (step === "data-dictionary") {
    return ["SetupDataDictionaryIncomplete", "SetupAddColumnsIncomplete", "SetupUploadTypeIncomplete", "DatabaseCreationFailed"].includes(status);
  }
  if (step === "databases") {
    return ["SetupUploadTypeIncomplete", "DatabaseCreation", "DatabaseCreationFailed", "SetupRestoreDatabaseIncomplete"].includes(status);
  }
  return step === "templates" && status === "SetupAssignTemplatesIncomplete";
}

/**
 * The setup status a workspace's dictionary puts it in while it is still being defined (wizard step 2).
 * Onboarding has no upload-type step: a dictionary whose every table has a column is ready for its
 * databases, but the status stays SetupAddColumnsIncomplete (spec §4's three configuration statuses)
 * until the databases exist.
 */
export function dictionarySetupStatus(kind: WorkspaceKind, shape: { tableCount: number; emptyTableCount: number }): ProjectStatus {
  if (kind !== "migration") return "SetupAddColumnsIncomplete";
  if (shape.tableCount === 0) return "SetupDataDictionaryIncomplete";
  if (shape.emptyTableCount > 0) return "SetupAddColumnsIncomplete";
  return "SetupUploadTypeIncomplete";
}

/** The statuses in which the dictionary decides the setup status (dictionarySetupStatus). */
export const DICTIONARY_SETUP_STATUSES: Record<WorkspaceKind, readonly ProjectStatus[]> = {
  migration: ["SetupDataDictionaryIncomplete", "SetupAddColumnsIncomplete", "SetupUploadTypeIncomplete"],
  onboarding: ["SetupAddColumnsIncomplete"],
  translation: ["SetupAddColumnsIncomplete"],
};

/** Statuses try-create-databases starts from: the step that creates them, or a retry after a failure. */
export const DATABASE_CREATION_START_STATUSES: Record<WorkspaceKind, readonly ProjectStatus[]> = {
  migration: ["SetupUploadTypeIncomplete", "DatabaseCreationFailed"],
  onboarding: ["SetupAddColumnsIncomplete", "DatabaseCreationFailed"],
  // A mapping project has no databases.
  translation: [],
};
