/**
 * The project lock (spec §4: isLocked, lockReason, lock state). Taken by one conditional UPDATE, so
 * two requests racing for it cannot both win on either engine; released only by the job that holds
 * it (`lock_job_id`), in the same transaction that writes the job's final status.
 */
import crypto from "node:crypto";
import type { Kysely } from "kysely";
import type { LockReason, ProjectStatus } from "../../../../contracts/projects.ts";
import { LOCK_REASON_LABELS } from "../../../../contracts/values/projects.ts";
import type { Database } from "../db/schema.ts";
import { announceJobEnded } from "../notifications/webhooks.ts";
import { inTransaction } from "../repositories/db-helpers.ts";
import { nextVersion } from "../repositories/workspaces.ts";

/**
 * Why a locked workspace refuses a write or a job, its lock's reason in words ("Flat file creation",
 * as the portal's pages name it, not the enum's FlatFileCreation); `noun` is its kind's (WORKSPACES[kind].noun).
 */
export function lockedMessage(reason: string | null, noun: string) {
  const words = reason && reason in LOCK_REASON_LABELS ? LOCK_REASON_LABELS[reason as LockReason] : (reason ?? "unknown reason");
  return `The ${noun} is locked (${words}) while a background job runs. Try again when it has finished.`;
}

export type TakeLock = {
  projectId: string;
  jobId: string;
  reason: LockReason;
  /** The status the project must still have (read just before): the lock and the status check are one step. */
  expectedStatus: string;
  /** The version the project must still have, when the start was based on one. */
  expectedVersion?: number;
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
      // A job's change, not a user's save (nextVersion): a stale save after it reads "someone else".
      ...nextVersion(null, lock.now),
    })
    .where("id", "=", lock.projectId)
    .where("is_locked", "=", 0)
    .where("status", "=", lock.expectedStatus)
    .$if(lock.expectedVersion !== undefined, (q) => q.where("version", "=", lock.expectedVersion!))
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
      ...nextVersion(null, now),
    })
    .where("id", "=", projectId)
    .where("lock_job_id", "=", jobId)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/**
 * Force-unlock (SuperAdmin, Support): the project is released whatever holds it, its lock state
 * says ForceUnlocked, the job holding it (if any) ends as ERROR with the reason, and the event is
 * recorded, all in one transaction. The job's own process is asked to stop (requestCancel) by the
 * caller; when it finishes late it finds the job ended and the lock gone, and leaves both alone.
 * Answers the job it ended (or null) and the message it ended with; false when the project was not locked.
 */
export async function forceUnlock(
  db: Kysely<Database>,
  input: { projectId: string; userId: string; userName: string; reason: string; statusAfter: (jobKind: string, previousStatus: string) => ProjectStatus; now: string },
): Promise<{ jobId: string | null; message: string } | false> {
  return inTransaction(db, async (trx) => {
    const project = await trx.selectFrom("projects").select(["is_locked", "lock_job_id", "lock_reason", "status"]).where("id", "=", input.projectId).executeTakeFirst();
    if (!project || !Number(project.is_locked)) return false;
    let status = project.status as ProjectStatus;
    const message = `Force-unlocked by ${input.userName}: ${input.reason}`;
    if (project.lock_job_id) {
      const job = await trx.selectFrom("jobs").select(["kind", "previous_status"]).where("id", "=", project.lock_job_id).where("status", "=", "IN_PROGRESS").executeTakeFirst();
      if (job) {
        await trx.updateTable("jobs").set({ status: "ERROR", error: message, finished_at: input.now }).where("id", "=", project.lock_job_id).execute();
        await trx.updateTable("job_steps").set({ status: "Failed", finished_at: input.now, message }).where("job_id", "=", project.lock_job_id).where("status", "=", "Started").execute();
        status = input.statusAfter(job.kind, job.previous_status);
        // The job failed: its webhooks hear so (notifications/webhooks.ts), once the unlock commits.
        await announceJobEnded(trx, project.lock_job_id, input.now);
      }
    }
    await trx
      .updateTable("projects")
      // The administrator's own change (nextVersion), unlike the job's lock it ends.
      .set({ is_locked: 0, lock_reason: null, lock_state: "ForceUnlocked", lock_job_id: null, status, ...nextVersion(input.userId, input.now) })
      .where("id", "=", input.projectId)
      .execute();
    await trx
      .insertInto("lock_events")
      .values({
        id: crypto.randomUUID(),
        project_id: input.projectId,
        job_id: project.lock_job_id,
        action: "ForceUnlock",
        lock_reason: project.lock_reason,
        reason: input.reason,
        user_id: input.userId,
        at: input.now,
      })
      .execute();
    return { jobId: project.lock_job_id, message };
  });
}
