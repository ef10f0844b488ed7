import { sql, type Kysely } from "kysely";
import type { ProjectAccess, ProjectUser } from "../../../../contracts/projects.ts";
import { ApiProblem, NotFoundError } from "../api-problem.ts";
import type { Database } from "../db/schema.ts";
import { inTransaction, toFlag, totalOf } from "./db-helpers.ts";
import { lockWorkspaceRow } from "./workspaces.ts";

/**
 * A project's access list: who may read it and who may also write (project-access page). A project
 * always keeps at least one user with write access, or nobody but an admin could ever change it again.
 */

export const LAST_WRITER_MESSAGE =
  "A project needs at least one user with write access: give another user write access before removing it from this one.";
export const PROJECT_USER_NOT_FOUND_MESSAGE = "This user has no access to the project.";

const grantsOf = (db: Kysely<Database>, projectId: string) => db.selectFrom("project_users").where("project_id", "=", projectId);

type GrantRow = { user_id: string; can_read: number; can_write: number; granted_at: string };
const toProjectUser = (r: GrantRow): ProjectUser => ({
  userId: r.user_id,
  canRead: Number(r.can_read) === 1,
  canWrite: Number(r.can_write) === 1,
  grantedAt: r.granted_at,
});

/**
 * A page of the access list, paged in SQL: the latest grant first, so that a user just given access is
 * on the first page; the user id keeps ties stable (index project_users_project_granted, migration 0023).
 */
export async function pageProjectUsers(db: Kysely<Database>, projectId: string, query: { page: number; pageSize: number; userId?: readonly string[] }) {
  const { userId = [], ...page } = query;
  const matching = () => grantsOf(db, projectId).$if(userId.length > 0, (q) => q.where("user_id", "in", userId));
  const rows = await matching()
    .select(["user_id", "can_read", "can_write", "granted_at"])
    .orderBy("granted_at", "desc")
    .orderBy("user_id")
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const total = await totalOf(rows.length, page, () =>
    matching()
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow(),
  );
  return { items: rows.map(toProjectUser), total, ...page };
}

/** One user's entry on the access list (the answer to a grant), or null. */
export async function findProjectUser(db: Kysely<Database>, projectId: string, userId: string): Promise<ProjectUser | null> {
  const row = await grantsOf(db, projectId).select(["user_id", "can_read", "can_write", "granted_at"]).where("user_id", "=", userId).executeTakeFirst();
  return row ? toProjectUser(row) : null;
}

/** What the access list grants `userId` (admins are decided elsewhere: they need no entry). */
export async function listedAccess(db: Kysely<Database>, projectId: string, userId: string): Promise<ProjectAccess> {
  const row = await db
    .selectFrom("project_users")
    .select(["can_read", "can_write"])
    .where("project_id", "=", projectId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return { canRead: Number(row?.can_read ?? 0) === 1, canWrite: Number(row?.can_write ?? 0) === 1 };
}

/**
 * `existing`: only change the user's grant, never create one (404 when they have none). `adding`: only
 * create one, never change a grant the user has (AlreadyGrantedError).
 */
export type Grant = {
  canRead: boolean;
  canWrite: boolean;
  existing?: boolean;
  adding?: boolean;
  /** The access the change was based on (what the page showed): one changed meanwhile to another is AccessChangedError. */
  was?: "read" | "write";
  grantedBy: string;
  now?: Date;
};

/** An add of a user who has access already (given meanwhile, in another tab or by someone else): `current` is kept. */
export class AlreadyGrantedError extends Error {
  override name = "AlreadyGrantedError";
  constructor(readonly current: ProjectUser) {
    super("The user has access already.");
  }
}

/** A change based on an access (`was`) that was changed meanwhile to neither it nor the one asked for: `current` is kept. */
export class AccessChangedError extends Error {
  override name = "AccessChangedError";
  constructor(readonly current: ProjectUser) {
    super("The user's access was changed meanwhile.");
  }
}

const levelOf = (access: { canWrite: boolean }) => (access.canWrite ? "write" : "read");

/**
 * Adds the user or changes their access (only one of the two with `adding` or `existing`); demoting the last user with write access is a 409. A change
 * keeps the grant's time and maker: the page shows the user has had access "Since" then. A change of
 * an existing grant whose user was removed meanwhile is a 404, as their removal would be.
 */
export async function setProjectUser(db: Kysely<Database>, projectId: string, userId: string, grant: Grant) {
  const canRead = grant.canRead || grant.canWrite;
  return inTransaction(db, async (trx) => {
    // Two admins demoting the two last writers at once must not both succeed: one at a time.
    await lockWorkspaceRow(trx, projectId);
    // Read after the serialising lock, so a removal or a grant committed just before is seen.
    const current = grant.existing || grant.adding || grant.was ? await findProjectUser(trx, projectId, userId) : null;
    if (grant.existing && !current) throw new NotFoundError(PROJECT_USER_NOT_FOUND_MESSAGE);
    if (grant.adding && current) throw new AlreadyGrantedError(current);
    // The same change sent again (a double submit), or made the same in another tab, is no conflict: only an access now
    // neither the one the page showed nor the one asked for is stale.
    if (grant.was && current && levelOf(current) !== grant.was && levelOf(current) !== levelOf(grant)) throw new AccessChangedError(current);
    if (!grant.canWrite) await assertAnotherWriter(trx, projectId, userId);
    const at = (grant.now ?? new Date()).toISOString();
    const access = { can_read: toFlag(canRead), can_write: toFlag(grant.canWrite) };
    await trx
      .insertInto("project_users")
      .values({ project_id: projectId, user_id: userId, ...access, granted_at: at, granted_by: grant.grantedBy })
      .onConflict((oc) => oc.columns(["project_id", "user_id"]).doUpdateSet(access))
      .execute();
  });
}

/** Removes the user from the list; the last user with write access cannot be removed (409). */
export async function removeProjectUser(db: Kysely<Database>, projectId: string, userId: string) {
  return inTransaction(db, async (trx) => {
    // Two admins demoting the two last writers at once must not both succeed: one at a time.
    await lockWorkspaceRow(trx, projectId);
    await assertAnotherWriter(trx, projectId, userId);
    const result = await trx.deleteFrom("project_users").where("project_id", "=", projectId).where("user_id", "=", userId).executeTakeFirst();
    if (result.numDeletedRows !== 1n) throw new NotFoundError(PROJECT_USER_NOT_FOUND_MESSAGE);
  });
}

/** Throws unless somebody other than `userId` keeps write access (only when `userId` writes now): two rows at most are read. */
async function assertAnotherWriter(trx: Kysely<Database>, projectId: string, userId: string) {
  const writers = await grantsOf(trx, projectId).select("user_id").where("can_write", "=", 1).orderBy(sql`user_id = ${userId}`, "desc").limit(2).execute();
  if (writers.length === 1 && writers[0]!.user_id === userId) throw new ApiProblem(409, "last_writer", LAST_WRITER_MESSAGE);
}
