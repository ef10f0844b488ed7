/**
 * What every page of one workspace (a migration project or an onboarding configuration) needs: which
 * kind it is, the workspace and what the caller may do with it, loaded once per request by the
 * middleware of the workspace's layouts (the entity pages and the wizard steps), so that every loader
 * AND action below can run the one entity guard (requireWorkspace) without loading it again.
 */
import { createContext, data, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import type { ProjectAccess } from "../../../contracts/projects";
import type { WizardStepId } from "../../../contracts/workspaces";
import type { Caller, ServiceFailure } from "~/lib/api.server";
import { companyUsers, workspaceApi, type Workspace } from "~/lib/api/workspaces.server";
import { companyHref } from "~/lib/company-href";
import { serviceFailure } from "~/lib/forms.server";
import { requireUnlocked, requireWrite, shellContext } from "~/lib/guards.server";
import { workspaceOfPath, workspacePaths } from "~/lib/workspace-paths";

export type ProjectScope = { project: Workspace; access: ProjectAccess };

/** The workspace of the request, or why it could not be loaded (answered by the first loader that asks). */
export const projectContext = createContext<ProjectScope | { failure: { status: number; body: ServiceFailure } }>();

/** The caller, for the API modules: the user's request and tokens. */
export function caller(context: Readonly<RouterContextProvider>): Caller {
  const shell = context.get(shellContext);
  return { request: shell.request, authenticated: shell.authenticated };
}

/**
 * The workspace kind of this request (from its URL: the same modules are registered under both route
 * bases), its paths and its API, bound to the caller. For the list and create pages, which have no
 * workspace loaded yet.
 */
export function workspaceKindScope(context: Readonly<RouterContextProvider>) {
  const shell = context.get(shellContext);
  const ws = workspaceOfPath(new URL(shell.request.url).pathname);
  const as = caller(context);
  return { ws, paths: workspacePaths(ws), api: workspaceApi(ws, as), as, shell, companyId: shell.company?.id ?? null };
}

/**
 * Loads the workspace and the caller's access once per request. One that cannot be loaded (not found,
 * not readable, the service down) is not thrown from here: an error thrown by middleware has no
 * loader data above it and would replace the whole shell. The loaders and actions throw it instead
 * (projectScope), so the error page shows inside the portal's layout.
 */
export const projectMiddleware: MiddlewareFunction<Response> = async ({ params, context }, next) => {
  const { ws, api, shell } = workspaceKindScope(context);
  const id = (params as Record<string, string | undefined>)[ws.idParam] ?? "";
  try {
    const one = api.one(id);
    const [project, access] = await Promise.all([one.get(), one.access()]);
    // One of another company than the selected one is not found here, as the data API answers for a
    // company the caller cannot see: the company picker sends the user to that company's list.
    if (project.companyId !== shell.company?.id) context.set(projectContext, { failure: { status: 404, body: { errors: [ws.notFoundMessage] } } });
    else context.set(projectContext, { project, access });
  } catch (err) {
    const failure = serviceFailure(err);
    if (!failure) throw err;
    context.set(projectContext, { failure });
  }
  return next();
};

/** The workspace, the caller's access, company, kind, paths and API; throws the load's failure for the error page. */
export function projectScope(context: Readonly<RouterContextProvider>) {
  const scope = context.get(projectContext);
  if ("failure" in scope) throw data<ServiceFailure>(scope.failure.body, { status: scope.failure.status });
  const kind = workspaceKindScope(context);
  return { ...kind, ...scope, api: kind.api.one(scope.project.id) };
}

/**
 * The one entity guard (spec §5), for every loader and action of a workspace page:
 * - `write`: edit pages and every action that writes need write permission, else the parent route
 *   (`write` names it; the workspace's details page when `true`);
 * - `unlocked`: lock-sensitive pages send a locked workspace to its background-process page;
 * - `step`: a wizard step that the workspace's status does not open resumes at its first incomplete step.
 */
export function requireWorkspace(
  context: Readonly<RouterContextProvider>,
  options: { write?: boolean | string; unlocked?: boolean; step?: WizardStepId } = {},
) {
  const scope = projectScope(context);
  const { project, access, companyId, paths } = scope;
  if (options.write) requireWrite(access, typeof options.write === "string" ? options.write : paths.page(project.id), companyId);
  if (options.unlocked) requireUnlocked(project, paths.page(project.id, "background-process"), companyId);
  if (options.step && !paths.stepOpen(project.status, options.step)) throw redirect(companyHref(paths.nextStep(project), companyId));
  return scope;
}

/**
 * The names of the company's people by user id (client portal), for "started by" and the like. The
 * page still works without them: a failed call only costs the names (the caller's own is known).
 */
export async function companyUserNames(context: Readonly<RouterContextProvider>): Promise<Record<string, string>> {
  const shell = context.get(shellContext);
  const names: Record<string, string> = { [shell.user.id]: shell.user.name };
  if (!shell.company) return names;
  try {
    for (const u of await companyUsers(caller(context), shell.company.id)) names[u.id] = u.name;
  } catch (err) {
    if (err instanceof Response || !serviceFailure(err)) throw err;
  }
  return names;
}
