/**
 * The project lock (spec §4: isLocked, lockReason, lock state). Taken by one conditional UPDATE, so
 * two requests racing for it cannot both win on either engine; released only by the job that holds
 * it (`lock_job_id`), in the same transaction that writes the job's final status.
 */
import { sql, type Kysely } from "kysely";
import type { LockReason, ProjectStatus } from "../../../../contracts/projects.ts";
import type { Database } from "../db/schema.ts";

export type TakeLock = {
  projectId: string;
  jobId: string;
  reason: LockReason;
  /** The status the project must still have (read just before): the lock and the status check are one step. */
  expectedStatus: string;
  /** The status while the job runs; unchanged when omitted. */
  statusWhileRunning?: ProjectStatus;
  now: string;
};

/** True when this call took the lock; false when the project is locked already or its status moved. */
export async function takeProjectLock(db: Kysely<Database>, lock: TakeLock): Promise<boolean> {
  const result = await db
    .updateTable("projects")
    .set({
      is_locked: 1,
      lock_reason: lock.reason,
      lock_state: "Locked",
      lock_job_id: lock.jobId,
      ...(lock.statusWhileRunning ? { status: lock.statusWhileRunning } : {}),
      version: sql`version + 1`,
      updated_at: lock.now,
    })
    .where("id", "=", lock.projectId)
    .where("is_locked", "=", 0)
    .where("status", "=", lock.expectedStatus)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/**
 * Unlocks the project and sets its status, if `jobId` still holds the lock. After a force-unlock
 * (a later issue) the project is someone else's again and a late-finishing job leaves it alone.
 */
export async function releaseProjectLock(db: Kysely<Database>, projectId: string, jobId: string, status: ProjectStatus, now: string) {
  const result = await db
    .updateTable("projects")
    .set({
      is_locked: 0,
      lock_reason: null,
      lock_state: "Unlocked",
      lock_job_id: null,
      status,
      version: sql`version + 1`,
      updated_at: now,
    })
    .where("id", "=", projectId)
    .where("lock_job_id", "=", jobId)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}
