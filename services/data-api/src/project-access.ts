import type { Context } from "hono";
import type { ProjectAccess } from "../../../contracts/projects.ts";
import { isAdmin } from "../../../contracts/roles.ts";
import { requireMigrationRole } from "./access.ts";
import { ApiProblem, NotFoundError } from "./api-problem.ts";
import type { AppEnv } from "./context.ts";
import { lockedMessage } from "./jobs/start-job.ts";
import { listedAccess } from "./repositories/project-users.ts";
import { PROJECT_NOT_FOUND_MESSAGE, findProjectRow, type ProjectRow } from "./repositories/projects.ts";

type AnyContext = Context<AppEnv, any, any>;

/**
 * The one project rule, on top of the company rule (access.ts):
 *
 *   const { project, access } = await requireProject(c, id, { write: true });
 *
 * 1. The caller must hold a Migration role for the project's company: another company's project
 *    answers 404 exactly like one that does not exist; a wrong role (a Viewer) 403.
 * 2. SuperAdmin and Support always read and write. Others as the project's access list says: not
 *    on it (or without read) → 404, they cannot know it exists; a write without write access → 403.
 * 3. A write to a locked project → 409: only the job holding the lock changes it meanwhile, and it
 *    does not come through here.
 */
export async function requireProject(
  c: AnyContext,
  projectId: string,
  options: { write: boolean },
): Promise<{ project: ProjectRow; access: ProjectAccess }> {
  const { db } = c.var.deps;
  const project = await findProjectRow(db, projectId);
  if (!project) throw new NotFoundError(PROJECT_NOT_FOUND_MESSAGE);
  // The company's 404 must read like the project's own, or it would tell that the id exists.
  await requireMigrationRole(c, project.company_id, { write: options.write, notFoundMessage: PROJECT_NOT_FOUND_MESSAGE });
  const access = isAdmin(c.var.caller.roles) ? { canRead: true, canWrite: true } : await listedAccess(db, project.id, c.var.caller.userId);
  if (!access.canRead) throw new NotFoundError(PROJECT_NOT_FOUND_MESSAGE);
  if (options.write && !access.canWrite) throw new ApiProblem(403, "forbidden", "You don't have write access to this project.");
  if (options.write && Number(project.is_locked) === 1) throw new ApiProblem(409, "project_locked", lockedMessage(project.lock_reason));
  return { project, access };
}
