/**
 * What every page of one workspace (a migration project or an onboarding configuration) needs: which
 * kind it is, the workspace and what the caller may do with it, loaded once per request by the
 * middleware of the workspace's layouts (the entity pages and the wizard steps), so that every loader
 * AND action below can run the one entity guard (requireWorkspace) without loading it again.
 */
import { createContext, data, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import type { ProjectAccess } from "../../../contracts/projects";
import { PROJECT_STATUS_LABELS } from "../../../contracts/values/projects";
import type { WizardStepId, WorkspaceDescriptor } from "../../../contracts/workspaces";
import { isAdmin } from "../../../contracts/roles";
import type { Caller, ServiceFailure } from "~/lib/api.server";
import { workspaceApi, type Workspace } from "~/lib/api/workspaces.server";
import { companyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { serviceFailure } from "~/lib/forms.server";
import { callerOf, requireUnlocked, requireWrite, shellOf } from "~/lib/guards.server";
import { workspaceOfPath, workspacePaths } from "~/lib/workspace-paths";

export type ProjectScope = { project: Workspace; access: ProjectAccess };

type ProjectLoad = ProjectScope | { failure: { status: number; body: ServiceFailure } };

/**
 * The workspace of the request, on its way: `calls`, its API bound to the id in the URL, for calls a
 * loader starts before the workspace answered; `scope`, the workspace or why it could not be loaded
 * (answered by the first loader that asks).
 */
export const projectContext = createContext<{ calls: OneWorkspaceApi; scope: Promise<ProjectLoad> }>();

type OneWorkspaceApi = ReturnType<ReturnType<typeof workspaceApi>["one"]>;

/** The caller, for the API modules: the user's request and tokens. */
export function caller(context: Readonly<RouterContextProvider>): Caller {
  return callerOf(context);
}

/**
 * The workspace kind of this request (from its URL: the same modules are registered under both route
 * bases), its paths and its API, bound to the caller: known before the shell's data.
 */
export function workspaceKind(context: Readonly<RouterContextProvider>) {
  const as = caller(context);
  const ws = workspaceOfPath(new URL(as.request.url).pathname);
  return { ws, paths: workspacePaths(ws), api: workspaceApi(ws, as), as };
}

/** workspaceKind with the shell (the selected company): for the list and create pages, which have no workspace loaded yet. */
export async function workspaceKindScope(context: Readonly<RouterContextProvider>) {
  const shell = await shellOf(context);
  return { ...workspaceKind(context), shell, companyId: shell.company?.id ?? null };
}

/**
 * Starts loading the workspace and the caller's access, once per request, beside the shell's data and
 * the page's own calls. One that cannot be loaded (not found, not readable, the service down) is not
 * thrown from here: an error thrown by middleware has no loader data above it and would replace the
 * whole shell. The loaders and actions throw it instead (projectScope), so the error page shows inside
 * the portal's layout; every loader below awaits projectScope before it answers.
 */
export const projectMiddleware: MiddlewareFunction<Response> = async ({ params, context }, next) => {
  const { ws, api } = workspaceKind(context);
  const id = (params as Record<string, string | undefined>)[ws.idParam] ?? "";
  const one = api.one(id);
  const scope = Promise.all([one.get(), one.access(), shellOf(context)]).then(
    ([project, access, shell]): ProjectLoad =>
      // One of another company than the selected one is not found here, as the data API answers for a
      // company the caller cannot see: the company picker sends the user to that company's list.
      project.companyId !== shell.company?.id ? { failure: { status: 404, body: { errors: [ws.notFoundMessage] } } } : { project, access },
    (err: unknown): ProjectLoad => {
      const failure = serviceFailure(err);
      if (!failure) throw err;
      return { failure };
    },
  );
  // The shell's own refusal (a redirect) is answered by the shell's middleware; never unhandled here.
  scope.catch(() => undefined);
  context.set(projectContext, { calls: one, scope });
  return next();
};

/**
 * The workspace's API bound to the id in the URL, for calls a loader starts beside the workspace's
 * own load. Their answers may be used only after `projectScope`/`requireWorkspace` passed: use
 * `afterGuard(projectScope(context), calls)`. The data API checks the same access on each call.
 */
export function projectCalls(context: Readonly<RouterContextProvider>): OneWorkspaceApi {
  return context.get(projectContext).calls;
}

/** The workspace, the caller's access, company, kind, paths and API; throws the load's failure for the error page. */
export async function projectScope(context: Readonly<RouterContextProvider>) {
  const scope = await context.get(projectContext).scope;
  if ("failure" in scope) throw data<ServiceFailure>(scope.failure.body, { status: scope.failure.status });
  const kind = await workspaceKindScope(context);
  return { ...kind, ...scope, api: kind.api.one(scope.project.id) };
}

export type ProjectScopeOf = Awaited<ReturnType<typeof projectScope>>;

/**
 * The one entity guard (spec §5), for every loader and action of a workspace page:
 * - `write`: edit pages and every action that writes need write permission, else the parent route
 *   (`write` names it; the workspace's details page when `true`);
 * - `unlocked`: lock-sensitive pages send a locked workspace to its background-process page;
 * - `step`: a wizard step that the workspace's status does not open resumes at its first incomplete step;
 *   a post to it says so: a form from a tab left open on a step since passed would otherwise change
 *   nothing without a word.
 */
export async function requireWorkspace(
  context: Readonly<RouterContextProvider>,
  options: { write?: boolean | string; unlocked?: boolean; step?: WizardStepId } = {},
) {
  const scope = await projectScope(context);
  const { project, ws, paths, companyId, as } = scope;
  if (options.step && !["GET", "HEAD"].includes(as.request.method) && !paths.stepOpen(project.status, options.step)) {
    // Write access and the lock first, as for any post: a locked project's post goes to its background process.
    await checkWorkspace(scope, { ...options, step: undefined });
    const step = ws.steps.find((s) => s.id === options.step)?.label ?? options.step;
    throw await redirectWithFlash(
      companyHref(paths.nextStep(project), companyId),
      `Nothing was changed: the “${step}” step is not open for this ${ws.noun}, which is “${PROJECT_STATUS_LABELS[project.status]}” now.`,
    );
  }
  return checkWorkspace(scope, options);
}

/** requireWorkspace's checks on a scope already loaded. */
export async function checkWorkspace(scope: ProjectScopeOf, options: { write?: boolean | string; unlocked?: boolean; step?: WizardStepId }) {
  const { project, access, companyId, paths, as, ws } = scope;
  if (options.write) await requireWrite(access, typeof options.write === "string" ? options.write : paths.page(project.id), companyId);
  if (options.unlocked) await requireUnlocked(project, paths.page(project.id, "background-process"), companyId, { request: as.request, noun: ws.noun });
  if (options.step && !paths.stepOpen(project.status, options.step)) throw redirect(companyHref(paths.nextStep(project), companyId));
  return scope;
}

/**
 * What a workspace list with no search says when it is empty. The data API lists to a user other than
 * SuperAdmin and Support only the migration projects and configurations whose access list names them, so
 * to them an empty list says none is open to them yet, not that the company has none (which a duplicate
 * name refused at Create would then contradict).
 */
export function noWorkspacesYet(ws: WorkspaceDescriptor, roles: readonly string[]): string {
  const kind = ws.kind === "onboarding" ? "onboarding configurations" : ws.kind === "translation" ? "translation mapping projects" : "migration projects";
  if (isAdmin(roles) || !ws.features.accessList) return `There are no ${kind} in this company yet.`;
  return `No ${ws.noun} of this company is open to you yet: those you create are, and others once their owner gives you access (Project access).`;
}
