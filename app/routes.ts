import { type RouteConfig, type RouteConfigEntry, index, layout, route } from "@react-router/dev/routes";

/**
 * Every URL of the portal (spec §2). Area pages that later issues fill are served by
 * routes/area/empty-page.tsx until then; each registration needs its own id.
 */
const empty = (path: string, id: string) => route(path, "routes/area/empty-page.tsx", { id });
const area = (path: string, children: RouteConfigEntry[]) =>
  route(path, "routes/area/layout.tsx", { id: `${path}-layout` }, [
    index("routes/area/index.tsx", { id: `${path}-index` }),
    ...children,
  ]);

/** The master data dictionary pages: one module may serve create, edit and view (each its own id). */
const dd = (file: string) => `routes/migration/data-dictionary/${file}.tsx`;

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
      empty("sql-credentials/users", "sql-credentials-users"),
      route("product-info/details", "routes/additional-options/product-info.tsx"),
    ]),
    area("migration", [
      route("projects", "routes/migration/projects/layout.tsx", [
        index("routes/migration/projects/list.tsx"),
        route("create", "routes/migration/projects/create/details.tsx"),
        route("create/:projectId", "routes/migration/projects/create/layout.tsx", [
          index("routes/migration/projects/create/resume.tsx"),
          route("data-dictionary", "routes/migration/projects/create/data-dictionary.tsx"),
          route("databases", "routes/migration/projects/create/databases.tsx"),
        ]),
        route(":projectId", "routes/migration/projects/project/layout.tsx", [
          index("routes/migration/projects/project/index.tsx"),
          route("details", "routes/migration/projects/project/details.tsx"),
          route("data-dictionary", "routes/migration/projects/project/data-dictionary/layout.tsx", [
            index("routes/migration/projects/project/data-dictionary/index.tsx"),
            route("data-definition/tables", "routes/migration/projects/project/data-dictionary/tables.tsx"),
            route("data-definition/tables/new", "routes/migration/projects/project/data-dictionary/table-new.tsx"),
            route("tables/:tableId/details", "routes/migration/projects/project/data-dictionary/table-details.tsx"),
            route("bulk-update/upload-data", "routes/migration/projects/project/data-dictionary/upload-data.tsx"),
            route("bulk-update/review/tables", "routes/migration/projects/project/data-dictionary/review.tsx"),
            route("bulk-update/review/tables/:tableName/details", "routes/migration/projects/project/data-dictionary/review-table.tsx"),
          ]),
          route("users/project-access", "routes/migration/projects/project/project-access.tsx"),
          route("background-process", "routes/migration/projects/project/background-process.tsx"),
        ]),
      ]),
      empty("master-templates", "migration-master-templates"),
      route("data-dictionary", dd("layout"), [
        index(dd("list")),
        route("create/new/application", dd("create-new")),
        route("create/:dataDictionaryId", dd("dictionary-layout"), { id: "dd-create" }, [
          index(dd("dictionary-index"), { id: "dd-create-index" }),
          route("application", dd("application"), { id: "dd-create-application" }),
          route("upload-data", dd("upload-data"), { id: "dd-create-upload-data" }),
          route("review/tables", dd("review"), { id: "dd-create-review" }),
        ]),
        route("edit/:dataDictionaryId", dd("dictionary-layout"), { id: "dd-edit" }, [
          index(dd("dictionary-index"), { id: "dd-edit-index" }),
          route("application", dd("application"), { id: "dd-edit-application" }),
          route("data-definition", dd("section-layout"), { id: "dd-edit-data-definition" }, [
            index(dd("data-definition"), { id: "dd-edit-data-definition-index" }),
            route("tables/new", dd("table"), { id: "dd-edit-table-new" }),
            route("tables/:tableId", dd("table"), { id: "dd-edit-table" }),
          ]),
          route("bulk-update", dd("section-layout"), { id: "dd-edit-bulk-update" }, [
            index(dd("upload-data"), { id: "dd-edit-bulk-update-index" }),
            route("review/tables", dd("review"), { id: "dd-edit-bulk-update-review" }),
          ]),
        ]),
        route("view/:dataDictionaryId", dd("dictionary-layout"), { id: "dd-view" }, [
          index(dd("dictionary-index"), { id: "dd-view-index" }),
          route("application", dd("application"), { id: "dd-view-application" }),
          route("data-definition", dd("data-definition"), { id: "dd-view-data-definition" }),
        ]),
      ]),
      route("application", "routes/migration/application/layout.tsx", [
        index("routes/migration/application/list.tsx"),
        route("create", "routes/migration/application/create.tsx"),
      ]),
    ]),
    area("translations", [
      empty("mappings", "translations-mappings"),
      empty("master-templates", "translations-master-templates"),
    ]),
    area("onboarding", [
      empty("configurations", "onboarding-configurations"),
      empty("master-templates", "onboarding-master-templates"),
      empty("data-dictionary", "onboarding-data-dictionary"),
    ]),
  ]),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
