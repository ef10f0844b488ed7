/**
 * A write to a workspace whose lock a job holds is refused (workspace-access.ts, rule 4), so that a
 * job reads what it started from: a database creation the dictionary it was started on, a backup the
 * rows of its moment. requireWorkspace reads the lock when the request begins, and a job started by
 * someone else between that read and the write's commit would miss the write (its dictionary read
 * already, its tables copied) or find it half made. So the check is made again inside each
 * transaction the request commits, as its last statement, by a statement that holds the row:
 *
 *   UPDATE projects SET is_locked = is_locked WHERE id = ? AND is_locked = 0
 *
 * No row: a job took the lock, and the transaction is rolled back with the lock's 409. A row: on
 * PostgreSQL it stays locked by this transaction until it commits, so a job's lock (takeProjectLock,
 * one conditional UPDATE of the same row) waits for the write and then reads it; on SQLite the
 * control plane's transactions run one at a time anyway.
 *
 * The request that starts a job takes the lock itself (startJob says so with lockTakenHere): its
 * writes after that are the job's start. Writes outside `inTransaction` (none that a job reads, as
 * far as the routes go) and the project databases' own statements are not covered by this check.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";
import type { Kysely } from "kysely";
import { ApiProblem } from "../api-problem.ts";
import type { Database } from "../db/schema.ts";
import { addTransactionHook } from "../repositories/db-helpers.ts";
import { lockedMessage } from "./project-lock.ts";

/** The workspaces the request writes and expects unlocked, with their kind's noun (for the refusal). */
const expected = new AsyncLocalStorage<Map<string, string>>();

/** Around every write request of the API: the workspaces its guard checked, for its transactions to check again. */
export const guardLockedWrites: MiddlewareHandler = async (c, next) => {
  const method = c.req.method;
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return next();
  const workspaces = new Map<string, string>();
  try {
    await expected.run(workspaces, next);
  } finally {
    // Work the request left running (a review parsed after the answer) inherits this context: it is not the request's write.
    workspaces.clear();
  }
};

/** requireWorkspace let a write through to an unlocked workspace: its transactions check again. */
export function expectUnlocked(workspaceId: string, noun: string): void {
  expected.getStore()?.set(workspaceId, noun);
}

/** The request took the workspace's lock for its own job (startJob): nothing to check any more. */
export function lockTakenHere(workspaceId: string): void {
  expected.getStore()?.delete(workspaceId);
}

addTransactionHook(async (trx) => {
  const workspaces = expected.getStore();
  if (!workspaces?.size) return undefined;
  const db = trx as Kysely<Database>;
  for (const [id, noun] of workspaces) {
    const held = await db
      .updateTable("projects")
      .set((eb) => ({ is_locked: eb.ref("is_locked") }))
      .where("id", "=", id)
      .where("is_locked", "=", 0)
      .executeTakeFirst();
    if (held.numUpdatedRows === 1n) continue;
    // No row: locked since the request's check, or removed by the request itself (nothing to protect then).
    const now = await db.selectFrom("projects").select(["is_locked", "lock_reason"]).where("id", "=", id).executeTakeFirst();
    if (now && Number(now.is_locked) === 1) throw new ApiProblem(409, "project_locked", lockedMessage(now.lock_reason, noun));
  }
  return undefined;
});
