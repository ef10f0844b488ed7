import { type RouteConfig, type RouteConfigEntry, index, layout, route } from "@react-router/dev/routes";
import { WORKSPACES, type WorkspaceKind } from "../contracts/workspaces";

/** Every URL of the portal (spec §2); each registration of a module needs its own id. */
const area = (path: string, children: RouteConfigEntry[]) =>
  route(path, "routes/area/layout.tsx", { id: `${path}-layout` }, [
    index("routes/area/index.tsx", { id: `${path}-index` }),
    ...children,
  ]);

/**
 * The workspace pages (contracts/workspaces.ts): one module per page, registered for migration projects
 * under /migration/projects, for onboarding configurations under /onboarding/configurations and for
 * translation mapping projects under /translations/mappings (spec §2), each registration with its own
 * ids. A page that only some kinds have says so here (or in the kind's features), nowhere else.
 */
function workspace(kind: WorkspaceKind, path: string): RouteConfigEntry {
  const file = (name: string) => `routes/workspace/${name}.tsx`;
  const id = (name: string) => ({ id: `${kind}-${name}` });
  const ws = WORKSPACES[kind];
  const param = `:${ws.idParam}`;
  const onlyFor = (k: WorkspaceKind, entries: RouteConfigEntry[]) => (k === kind ? entries : []);
  const withDatabases = (entries: RouteConfigEntry[]) => (ws.features.databases ? entries : []);
  // Its own dictionary (a mapping project's file data structure): the wizard step and the pages below it.
  const dd = ws.dictionaryStep;
  return route(path, file("layout"), id("workspaces"), [
    index(file("list"), id("list")),
    route(ws.createPath, file("create/details"), id("create")),
    route(`create/${param}`, file("create/layout"), id("wizard"), [
      index(file("create/resume"), id("wizard-resume")),
      route(dd, file("create/data-dictionary"), id("wizard-data-dictionary")),
      ...onlyFor("migration", [route("databases", file("create/databases"), id("wizard-databases"))]),
      route("templates", file("create/templates"), id("wizard-templates")),
    ]),
    route(param, file("project/layout"), id("workspace"), [
      index(file("project/index"), id("workspace-index")),
      route("details", file("project/details"), id("details")),
      route(dd, file("project/data-dictionary/layout"), id("dictionary"), [
        index(file("project/data-dictionary/index"), id("dictionary-index")),
        route("data-definition/tables", file("project/data-dictionary/tables"), id("dictionary-tables")),
        ...withDatabases([route("source-data", file("project/data-dictionary/source-data"), id("dictionary-source-data"))]),
        route("data-definition/tables/new", file("project/data-dictionary/table-new"), id("dictionary-table-new")),
        route("tables/:tableId/details", file("project/data-dictionary/table-details"), id("dictionary-table-details")),
        route("bulk-update/upload-data", file("project/data-dictionary/upload-data"), id("dictionary-upload")),
        route("bulk-update/review/tables", file("project/data-dictionary/review"), id("dictionary-review")),
        route("bulk-update/review/tables/:tableName/details", file("project/data-dictionary/review-table"), id("dictionary-review-table")),
        ...onlyFor("translation", [
          route("mappingTable/:mappingSourceTableId", file("project/mapping-table"), id("mapping-table")),
          route("mappingTable/:mappingSourceTableId/column/:columnId", file("project/mapping-column"), id("mapping-column")),
          route("mappingTable/:mappingSourceTableId/column/:columnId/values.csv", file("project/mapping-column-csv"), id("mapping-column-csv")),
        ]),
      ]),
      ...withDatabases([
        route("databases/current", file("project/databases-current"), id("databases-current")),
        route("databases/flat-file/update-source", file("project/databases-load"), id("databases-load")),
        route("databases/backup/update-source", file("project/databases-restore"), id("databases-restore")),
        route("databases/backups/:backupId/download", file("project/databases-backup-download"), id("databases-backup-download")),
        ...onlyFor("onboarding", [route("databases/compare-source", file("project/databases-compare"), id("databases-compare"))]),
        route("databases/tables", file("project/databases-tables"), id("databases-tables")),
        route("databases/history/list", file("project/databases-history"), id("databases-history")),
        route("databases/history/:historyId/details", file("project/databases-history-entry"), id("databases-history-entry")),
        route("databases/history/:historyId/table/:tableId/details", file("project/databases-history-table"), id("databases-history-table")),
        route("databases/history/:historyId/table/:tableId/rejected-rows.csv", file("project/databases-rejected-rows"), id("databases-rejected-rows")),
        route("background-process", file("project/background-process"), id("background-process")),
        route("background-process/progress", "routes/workspace/project/background-process-progress.ts", id("background-process-progress")),
        route("users/sql-permissions", file("project/sql-permissions"), id("sql-permissions")),
      ]),
      ...(ws.features.accessList ? [route("users/project-access", file("project/project-access"), id("project-access"))] : []),
      ...onlyFor("translation", [
        route("translate", file("project/translate"), id("translate")),
        route("translate/:translationId", file("project/translation"), id("translation")),
        route("translate/:translationId/file", file("project/translation-file"), id("translation-file")),
        route("translate/:translationId/progress", "routes/workspace/project/translation-progress.ts", id("translation-progress")),
      ]),
      workspaceTemplates(kind),
    ]),
  ]);
}

/**
 * The master data dictionary pages (spec §2: "data-dictionary: create, edit, view as in migration"):
 * one module may serve create, edit and view (each its own id), and the tree is registered under
 * /migration and /onboarding, each registration with its own ids. Master dictionaries are the
 * company's whichever area they are made in; the area only decides the URLs and who may write.
 * Migration keeps the ids it had before Onboarding got these pages (the first three are the files'
 * default ids); Onboarding's are prefixed with the area.
 */
function masterDictionary(area: "migration" | "onboarding"): RouteConfigEntry {
  const dd = (name: string) => `routes/migration/data-dictionary/${name}.tsx`;
  const id = (name: string, fileIdInMigration = false) =>
    area === "migration" ? (fileIdInMigration ? {} : { id: name }) : { id: `${area}-${name}` };
  return route("data-dictionary", dd("layout"), id("dd-layout", true), [
    index(dd("list"), id("dd-list", true)),
    route("create/new/application", dd("create-new"), id("dd-create-new", true)),
    route("create/:dataDictionaryId", dd("dictionary-layout"), id("dd-create"), [
      index(dd("dictionary-index"), id("dd-create-index")),
      route("application", dd("application"), id("dd-create-application")),
      route("upload-data", dd("upload-data"), id("dd-create-upload-data")),
      route("review/tables", dd("review"), id("dd-create-review")),
    ]),
    route("edit/:dataDictionaryId", dd("dictionary-layout"), id("dd-edit"), [
      index(dd("dictionary-index"), id("dd-edit-index")),
      route("application", dd("application"), id("dd-edit-application")),
      route("data-definition", dd("section-layout"), id("dd-edit-data-definition"), [
        index(dd("data-definition"), id("dd-edit-data-definition-index")),
        route("tables/new", dd("table"), id("dd-edit-table-new")),
        route("tables/:tableId", dd("table"), id("dd-edit-table")),
      ]),
      route("bulk-update", dd("section-layout"), id("dd-edit-bulk-update"), [
        index(dd("upload-data"), id("dd-edit-bulk-update-index")),
        route("review/tables", dd("review"), id("dd-edit-bulk-update-review")),
      ]),
    ]),
    route("view/:dataDictionaryId", dd("dictionary-layout"), id("dd-view"), [
      index(dd("dictionary-index"), id("dd-view-index")),
      route("application", dd("application"), id("dd-view-application")),
      route("data-definition", dd("data-definition"), id("dd-view-data-definition")),
    ]),
  ]);
}

/**
 * The template and script pages (issue 11), one module each: `templatePages` is one owner's tree
 * (create, and a template with its script pages), registered for the master templates of /migration,
 * /translations and /onboarding and for each kind of workspace; `idPrefix` keeps each registration's
 * ids its own.
 */
function templatePages(idPrefix: string): RouteConfigEntry[] {
  const file = (name: string) => `routes/templates/${name}.tsx`;
  const id = (name: string) => ({ id: `${idPrefix}-templates-${name}` });
  const scriptPages = (mode: "edit" | "view") =>
    route(`level/:levelId/script/${mode}/:scriptId`, file("script-layout"), id(`script-${mode}`), [
      ...(mode === "edit"
        ? [
            index(file("script-edit"), id("script-edit-index")),
            route("details", file("script-details"), id("script-details")),
            route("info", file("script-details"), id("script-info")),
            route("history", file("script-history"), id("script-history")),
            route("lock-audit", file("script-lock-audit"), id("script-lock-audit")),
            route("version/:version", file("script-version"), id("script-version")),
          ]
        : [index(file("script-view"), id("script-view-index"))]),
    ]);
  return [
    route("create", file("create"), id("create")),
    route(":templateId/edit", file("template-layout"), id("template"), [
      index(file("template-edit"), id("template-edit")),
      route("compare-master", file("compare-master"), id("compare-master")),
      route("level/:levelId/script/create", file("script-create"), id("script-create")),
      scriptPages("edit"),
      scriptPages("view"),
    ]),
  ];
}

function masterTemplates(area: "migration" | "translations" | "onboarding"): RouteConfigEntry {
  return route("master-templates", "routes/templates/layout.tsx", { id: `${area}-templates-layout` }, [
    index("routes/templates/list.tsx", { id: `${area}-templates-list` }),
    ...templatePages(area),
  ]);
}

/** A workspace's own templates (…/{id}/templates): assigned (run order), assigned/add, and the template pages. */
function workspaceTemplates(kind: WorkspaceKind): RouteConfigEntry {
  return route("templates", "routes/templates/layout.tsx", { id: `${kind}-ws-templates-layout` }, [
    index("routes/templates/workspace-index.tsx", { id: `${kind}-ws-templates-index` }),
    route("assigned", "routes/templates/assigned.tsx", { id: `${kind}-ws-templates-assigned` }),
    route("assigned/add", "routes/templates/assign.tsx", { id: `${kind}-ws-templates-assign` }),
    // Runs need databases to run in: a mapping project's templates are edited here and run where its maps are used.
    ...(WORKSPACES[kind].features.databases
      ? [
          route("run", "routes/templates/run.tsx", { id: `${kind}-ws-templates-run` }),
          route("run-history", "routes/templates/run-history.tsx", { id: `${kind}-ws-templates-run-history` }),
          route("run-history/:runId/details", "routes/templates/run-details.tsx", { id: `${kind}-ws-templates-run-details` }),
          route("run-history/:runId/progress", "routes/templates/run-progress.ts", { id: `${kind}-ws-templates-run-progress` }),
        ]
      : []),
    ...templatePages(`${kind}-ws`),
  ]);
}

export default [
  index("routes/home.tsx"),
  route("login", "routes/auth/login.tsx"),
  route("auth/callback", "routes/auth/callback.tsx"),
  route("auth/session", "routes/auth/session.tsx"),
  route("logout", "routes/auth/logout.tsx"),
  route("healthz", "routes/healthz.tsx"),
  route("sidebar", "routes/sidebar.tsx"),

  layout("routes/shell.tsx", [
    // Inside the shell: the header shows the role in the selected company, and the picker lets the user leave it.
    route("permission-denied", "routes/permission-denied.tsx"),
    area("additional-options", [
      route("sql-credentials/users", "routes/additional-options/sql-credentials.tsx"),
      route("product-info/details", "routes/additional-options/product-info.tsx"),
      route("audit-log", "routes/additional-options/audit-log.tsx"),
      route("audit-log.csv", "routes/additional-options/audit-log-csv.tsx"),
      route("notifications", "routes/additional-options/notifications.tsx"),
    ]),
    area("migration", [
      workspace("migration", "projects"),
      masterTemplates("migration"),
      masterDictionary("migration"),
      // The company's ClientAdmin manages its webhooks here (the page checks the role); admins under Additional Options.
      route("notifications", "routes/additional-options/notifications.tsx", { id: "migration-notifications" }),
      route("application", "routes/migration/application/layout.tsx", [
        index("routes/migration/application/list.tsx"),
        route("create", "routes/migration/application/create.tsx"),
      ]),
    ]),
    area("translations", [
      workspace("translation", "mappings"),
      masterTemplates("translations"),
    ]),
    area("onboarding", [
      workspace("onboarding", "configurations"),
      masterTemplates("onboarding"),
      masterDictionary("onboarding"),
    ]),
  ]),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
