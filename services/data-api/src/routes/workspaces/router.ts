import type { MiddlewareHandler } from "hono";
import { WORKSPACES, type WorkspaceKind } from "../../../../../contracts/workspaces.ts";
import { areaIsAvailable } from "../../access.ts";
import { NotFoundError } from "../../api-problem.ts";
import type { AppEnv } from "../../context.ts";
import { createRouter } from "../../openapi.ts";
import { createWorkspaceDictionaryRouter } from "./dictionary.ts";
import { createWorkspaceHistoryRouter } from "./history.ts";
import { createWorkspaceBackupsRouter } from "./backups.ts";
import { createWorkspaceFlatFileParametersRouter } from "./flat-file-parameters.ts";
import { createWorkspaceJobsRouter } from "./jobs.ts";
import { createWorkspaceLoadsRouter } from "./loads.ts";
import { createMigrationRoutes } from "./migration.ts";
import { createOnboardingRoutes } from "./onboarding.ts";
import { createTranslationRoutes } from "./translation.ts";
import { collectionPath } from "./shared.ts";
import { createWorkspaceRunsRouter } from "./runs.ts";
import { createWorkspaceSqlPermissionsRouter } from "./sql-permissions.ts";
import { createWorkspaceTemplatesRouter } from "./templates.ts";
import { createWorkspaceUsersRouter } from "./users.ts";

/** What only one kind has: its create, search, read and update bodies and its own extra routes. */
const KIND_ROUTES: Record<WorkspaceKind, () => ReturnType<typeof createRouter>> = {
  migration: createMigrationRoutes,
  onboarding: createOnboardingRoutes,
  translation: createTranslationRoutes,
};

/**
 * Every route of one kind of workspace, mounted at the kind's apiBase (contracts/workspaces.server.ts):
 * /api/v1/projects for migration projects, /api/v1/audit-projects for onboarding configurations.
 * The access, users, jobs, try-create-databases, flat-file parameters and loads, history, backups and comparisons, and data-dictionary routes are one implementation,
 * built from the descriptor; only the kind's own routes differ.
 */
export function createWorkspaceRouter(kind: WorkspaceKind) {
  const descriptor = WORKSPACES[kind];
  const base = collectionPath(descriptor);
  const router = createRouter();

  // An area that does not exist on this cloud target (Onboarding on Azure) has no endpoints at all:
  // every path under it answers the 404 of an unknown path, before any other rule.
  const areaExists: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (!areaIsAvailable(c, descriptor.area)) throw new NotFoundError("Not found.");
    await next();
  };
  router.use(base, areaExists);
  router.use(`${base}/*`, areaExists);

  // The kind's routes first: its literal paths (/search, /checkdefaultproject/{id}) before any /{id}.
  router.route("/", KIND_ROUTES[kind]());
  router.route("/", createWorkspaceUsersRouter(descriptor));
  // A kind without databases (mapping projects) has no jobs, loads, history, backups or runs: none of their paths exist.
  if (descriptor.features.databases) {
    router.route("/", createWorkspaceJobsRouter(descriptor));
    router.route("/", createWorkspaceFlatFileParametersRouter(descriptor));
    router.route("/", createWorkspaceLoadsRouter(descriptor));
    router.route("/", createWorkspaceHistoryRouter(descriptor));
    router.route("/", createWorkspaceBackupsRouter(descriptor));
    router.route("/", createWorkspaceSqlPermissionsRouter(descriptor));
  }
  router.route("/", createWorkspaceDictionaryRouter(descriptor));
  router.route("/", createWorkspaceTemplatesRouter(descriptor));
  if (descriptor.features.databases) router.route("/", createWorkspaceRunsRouter(descriptor));
  return router;
}
