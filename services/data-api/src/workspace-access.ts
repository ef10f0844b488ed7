import type { Context } from "hono";
import type { ProjectAccess } from "../../../contracts/projects.ts";
import { isAdmin } from "../../../contracts/roles.ts";
import { type WorkspaceKind } from "../../../contracts/workspaces.ts";
import { SERVICE_WORKSPACES } from "../../../contracts/workspaces.server.ts";
import { requireAreaRole } from "./access.ts";
import { ApiProblem, NotFoundError } from "./api-problem.ts";
import type { AppEnv } from "./context.ts";
import { expectUnlocked } from "./jobs/lock-guard.ts";
import { lockedMessage } from "./jobs/project-lock.ts";
import { listedAccess } from "./repositories/project-users.ts";
import { findWorkspaceRow, type WorkspaceRow } from "./repositories/workspaces.ts";

type AnyContext = Context<AppEnv, any, any>;

/**
 * The one workspace rule, on top of the company rule (access.ts), for migration projects and
 * onboarding configurations alike:
 *
 *   const { workspace, access } = await requireWorkspace(c, "onboarding", id, { write: true });
 *
 * 1. The row must exist and be of `kind`: a configuration's id under /projects (or a project's
 *    under /audit-projects) answers 404 with the kind's own message, as an unknown id does.
 * 2. The kind's area must exist on this cloud target and the caller must hold one of its roles for
 *    the workspace's company (requireAreaRole): another company's workspace answers 404 exactly
 *    like one that does not exist; a wrong role (a Viewer; a ClientAdmin in Onboarding) 403.
 * 3. SuperAdmin and Support always read and write. Others as the workspace's access list says: not
 *    on it (or without read) → 404, they cannot know it exists; a write without write access → 403.
 *    A kind without an access list (a mapping project) is read and written by the area's roles.
 * 4. A write to a locked workspace → 409: only the job holding the lock changes it meanwhile, and it
 *    does not come through here. Checked here, and again as the last statement of every transaction
 *    the request commits (jobs/lock-guard.ts), for a job that took the lock since this read. `whileLocked` lets through the one write no job reads: a new version
 *    of a script (a run reads the versions it pinned when it started; loads, restores and backups never
 *    read scripts), so a colleague's run does not stop the script editor.
 */
export async function requireWorkspace(
  c: AnyContext,
  kind: WorkspaceKind,
  id: string,
  options: { write: boolean; whileLocked?: boolean },
): Promise<{ workspace: WorkspaceRow; access: ProjectAccess }> {
  const descriptor = SERVICE_WORKSPACES[kind];
  const { db } = c.var.deps;
  const workspace = await findWorkspaceRow(db, id);
  if (!workspace || workspace.product_type !== descriptor.productType) throw new NotFoundError(descriptor.notFoundMessage);
  // The company's 404 must read like the workspace's own, or it would tell that the id exists.
  await requireAreaRole(c, descriptor.area, workspace.company_id, { write: options.write, notFoundMessage: descriptor.notFoundMessage });
  // A kind without an access list (mapping projects) is the area's: its role, checked above, reads and writes.
  const everyone = isAdmin(c.var.caller.roles) || !descriptor.features.accessList;
  const access = everyone ? { canRead: true, canWrite: true } : await listedAccess(db, workspace.id, c.var.caller.userId);
  if (!access.canRead) throw new NotFoundError(descriptor.notFoundMessage);
  if (options.write && !access.canWrite) throw new ApiProblem(403, "forbidden", `You don't have write access to this ${descriptor.noun}.`);
  if (options.write && !options.whileLocked && Number(workspace.is_locked) === 1) {
    throw new ApiProblem(409, "project_locked", lockedMessage(workspace.lock_reason, descriptor.noun));
  }
  // …and again inside each transaction the request commits: a job may take the lock meanwhile.
  if (options.write && !options.whileLocked) expectUnlocked(workspace.id, descriptor.noun);
  return { workspace, access };
}
