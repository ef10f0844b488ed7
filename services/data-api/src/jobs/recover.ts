/**
 * A job whose process died (killed, crashed, redeployed) must not leave its project locked forever.
 * At start, server.ts ends the jobs a previous process left running; with PostgreSQL, where several
 * processes share the control plane, a periodic sweep also ends jobs whose heartbeat stopped, so a
 * job is only taken for dead when nobody has run it for a while (not merely because another
 * process is busy with it). With pg-boss (start-job.ts) its expiry takes over this role.
 */
import type { Kysely } from "kysely";
import type { Logger } from "../../../shared/logger.ts";
import type { Database } from "../db/schema.ts";
import { statusAfterFailure } from "./job-kinds.ts";
import { IN_PROGRESS, finishJob } from "./job-store.ts";
import { releaseProjectLock } from "./project-lock.ts";

export const INTERRUPTED_MESSAGE = "Interrupted: the data service restarted";

/** A job silent for this long is dead: several heartbeats (runner.ts) missed in a row. */
export const STALE_JOB_MS = 60_000;

export type RecoverOptions = {
  /** Only jobs whose last heartbeat is older than this; every running job when omitted. */
  staleBefore?: Date;
  now?: Date;
};

/**
 * Ends every matching IN_PROGRESS job as ERROR, its running step Failed, and releases its project's
 * lock with the status the job kind's failure rule gives (DatabaseCreation → DatabaseCreationFailed).
 * One transaction per job, each conditional on the job still running: safe to run from several
 * processes at once. Answers the ids of the jobs it ended.
 */
export async function recoverInterruptedJobs(db: Kysely<Database>, options: RecoverOptions = {}): Promise<string[]> {
  let query = db.selectFrom("jobs").select(["id", "project_id", "kind", "previous_status"]).where("status", "=", IN_PROGRESS);
  if (options.staleBefore) query = query.where("heartbeat_at", "<", options.staleBefore.toISOString());
  const running = await query.execute();

  const recovered: string[] = [];
  for (const job of running) {
    const at = (options.now ?? new Date()).toISOString();
    const ended = await db.transaction().execute(async (trx) => {
      if (!(await finishJob(trx, job.id, { status: "ERROR", error: INTERRUPTED_MESSAGE }, at))) return false;
      await trx
        .updateTable("job_steps")
        .set({ status: "Failed", finished_at: at, message: INTERRUPTED_MESSAGE })
        .where("job_id", "=", job.id)
        .where("status", "=", "Started")
        .execute();
      await releaseProjectLock(trx, job.project_id, job.id, statusAfterFailure(job.kind, job.previous_status), at);
      return true;
    });
    if (ended) recovered.push(job.id);
  }
  return recovered;
}

/** Runs the stale-job sweep every `everyMs` until stopped; for deployments with several processes. */
export function startStaleJobSweep(db: Kysely<Database>, logger: Logger, everyMs = STALE_JOB_MS / 2): () => void {
  const timer = setInterval(() => {
    recoverInterruptedJobs(db, { staleBefore: new Date(Date.now() - STALE_JOB_MS) })
      .then((ids) => {
        if (ids.length) logger.warn("ended jobs whose process stopped", { jobIds: ids });
      })
      .catch((err) => logger.warn("stale job sweep failed", { err }));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
