/**
 * What every page of one project needs: the project and what the caller may do with it, loaded once
 * per request by the middleware of the project's layouts (the entity pages and the wizard steps), so
 * that every loader AND action below can run the lock and write guards without loading it again.
 */
import { createContext, data, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { companyUsersResponseSchema } from "../../../../contracts/client-portal";
import { projectAccessSchema, projectSchema, type Project, type ProjectAccess } from "../../../../contracts/projects";
import { projectPath } from "~/components/projects/next-step";
import { callService, type ServiceFailure } from "~/lib/api.server";
import { serviceFailure } from "~/lib/forms.server";
import { requireUnlocked, requireWrite, shellContext } from "~/lib/guards.server";

export type ProjectScope = { project: Project; access: ProjectAccess };

/** The project of the request, or why it could not be loaded (answered by the first loader that asks). */
export const projectContext = createContext<ProjectScope | { failure: { status: number; body: ServiceFailure } }>();

/** The caller, for callService: the user's request and tokens. */
export function caller(context: Readonly<RouterContextProvider>) {
  const shell = context.get(shellContext);
  return { request: shell.request, authenticated: shell.authenticated };
}

export const projectApi = (projectId: string, rest = "") => `/api/v1/projects/${encodeURIComponent(projectId)}${rest}`;

export const PROJECT_NOT_FOUND = "Project not found.";

/**
 * Loads the project and the caller's access once per request. A project that cannot be loaded (not
 * found, not readable, the service down) is not thrown from here: an error thrown by middleware has
 * no loader data above it and would replace the whole shell. The loaders and actions throw it
 * instead (projectScope), so the error page shows inside the portal's layout.
 */
export const projectMiddleware: MiddlewareFunction<Response> = async ({ params, context }, next) => {
  const shell = context.get(shellContext);
  const projectId = params.projectId ?? "";
  const as = caller(context);
  try {
    const [project, access] = await Promise.all([
      callService("data-api", projectApi(projectId), as, { schema: projectSchema }),
      callService("data-api", projectApi(projectId, "/access"), as, { schema: projectAccessSchema }),
    ]);
    // A project of another company than the selected one is not found here, as the data API answers
    // for a company the caller cannot see: the company picker sends the user to that company's list.
    if (project.companyId !== shell.company?.id) context.set(projectContext, { failure: { status: 404, body: { errors: [PROJECT_NOT_FOUND] } } });
    else context.set(projectContext, { project, access });
  } catch (err) {
    const failure = serviceFailure(err);
    if (!failure) throw err;
    context.set(projectContext, { failure });
  }
  return next();
};

/** The project, the caller's access and company; throws the load's failure for the error page. */
export function projectScope(context: Readonly<RouterContextProvider>) {
  const scope = context.get(projectContext);
  if ("failure" in scope) throw data<ServiceFailure>(scope.failure.body, { status: scope.failure.status });
  const companyId = context.get(shellContext).company?.id ?? null;
  return { ...scope, companyId, as: caller(context) };
}

/** Spec §5 for lock-sensitive pages: a locked project sends them to its background-process page. */
export function requireProjectUnlocked(context: Readonly<RouterContextProvider>) {
  const { project, companyId } = projectScope(context);
  requireUnlocked(project, projectPath(project.id, "background-process"), companyId);
}

/** Spec §5 for edit pages and writes: no write permission sends the user to `parentPath`. */
export function requireProjectWrite(context: Readonly<RouterContextProvider>, parentPath: string) {
  const { access, companyId } = projectScope(context);
  requireWrite(access, parentPath, companyId);
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
    const users = await callService("client-portal", `/api/v1/companies/${encodeURIComponent(shell.company.id)}/users`, caller(context), {
      schema: companyUsersResponseSchema,
    });
    for (const u of users) names[u.id] = u.name;
  } catch (err) {
    if (err instanceof Response || !serviceFailure(err)) throw err;
  }
  return names;
}
