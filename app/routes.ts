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
      empty("projects", "migration-projects"),
      empty("master-templates", "migration-master-templates"),
      empty("data-dictionary", "migration-data-dictionary"),
      empty("application", "migration-application"),
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
