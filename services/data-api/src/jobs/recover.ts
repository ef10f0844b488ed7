/**
 * A job whose process died (killed, crashed, redeployed) must not leave its project locked forever.
 * At start, server.ts ends the jobs a previous process left running; with PostgreSQL, where several
 * processes share the control plane, a periodic sweep also ends jobs whose heartbeat stopped, so a
 * job is only taken for dead when nobody has run it for a while (not merely because another
 * process is busy with it). With pg-boss (start-job.ts) its expiry takes over this role.
 *
 * A dead job also leaves things behind: a database creation killed midway (or before its failure's
 * clean-up ran) leaves a project marked DatabaseCreationFailed with a partial database on its
 * server. The recovery drops those too, so a retry starts clean.
 */
import { announceJobEnded } from "../notifications/webhooks.ts";
import type { Kysely } from "kysely";
import type { ProjectStatus } from "../../../../contracts/projects.ts";
import type { Logger } from "../../../shared/logger.ts";
import { forgetProjectDatabase } from "../data-plane/project-databases.ts";
import type { DataPlane } from "../data-plane/servers.ts";
import type { Database } from "../db/schema.ts";
import { failLoadsOfEndedJobs } from "../repositories/loads.ts";
import { failBackupsOfEndedJobs } from "../repositories/backups.ts";
import { failRunsOfEndedJobs } from "../repositories/runs.ts";
import { failInterruptedTranslations } from "../repositories/translations.ts";
import { failInterruptedReviews } from "../dictionary-bulk/reviews.ts";
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
  /** The project database servers: when given, also drop what failed and interrupted jobs left there (removeJobLeftovers). */
  dataPlane?: DataPlane;
  /** Where the databases dropped are reported. */
  logger?: Logger;
};

/**
 * Ends every matching IN_PROGRESS job as ERROR, its running step Failed, and releases its project's
 * lock with the status the job kind's failure rule gives (DatabaseCreation → DatabaseCreationFailed).
 * One transaction per job, each conditional on the job still running: safe to run from several
 * processes at once. With `dataPlane`, then drops the databases such jobs left (removeJobLeftovers).
 * Answers the ids of the jobs it ended.
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
      await announceJobEnded(trx, job.id, at);
      return true;
    });
    if (ended) recovered.push(job.id);
  }
  // The loads those jobs were running never committed: failed, nothing loaded.
  if (recovered.length) {
    await failLoadsOfEndedJobs(db, `${INTERRUPTED_MESSAGE}. Nothing was changed.`, options.now ?? new Date());
    // The backups they were writing are unfinished: their partial files go with the next backup's clean-up.
    await failBackupsOfEndedJobs(db, options.now ?? new Date());
    // Runs: PostgreSQL rolled back the script that was running when its connection went.
    await failRunsOfEndedJobs(db, `${INTERRUPTED_MESSAGE}: the script that was running was rolled back.`, options.now ?? new Date());
  }
  // Translations are no jobs (they lock nothing): one still Running, and silent, is dead too.
  await failInterruptedTranslations(db, options.staleBefore, options.now ?? new Date());
  // Nor are dictionary uploads still being read: when this process is the only one, nobody reads them now.
  if (!options.staleBefore) await failInterruptedReviews(db);
  if (options.dataPlane) {
    // Best effort: a server that cannot be reached must not keep the service from starting.
    try {
      const dropped = await removeJobLeftovers(db, options.dataPlane);
      if (dropped.length) options.logger?.warn("dropped the databases that failed or interrupted jobs left", { projectIds: dropped });
    } catch (err) {
      options.logger?.warn("could not drop the databases failed or interrupted jobs left", { err });
    }
  }
  return recovered;
}

/** The status a failed database creation leaves its project at (job-kinds.ts). */
const CREATION_FAILED: ProjectStatus = "DatabaseCreationFailed";

/**
 * Drops the databases of projects whose creation failed and that no job is running on (unlocked):
 * partial or complete, so a retry starts clean, and forgets their server. A locked project is left
 * alone (a retry, here or elsewhere, is making its database), and so are the healthy projects'.
 * Answers the ids of the projects whose database was dropped.
 */
export async function removeJobLeftovers(db: Kysely<Database>, dataPlane: DataPlane): Promise<string[]> {
  const projects = await db
    .selectFrom("projects")
    .select("id")
    .where("status", "=", CREATION_FAILED)
    .where("is_locked", "=", 0)
    .where("database_server", "is not", null)
    .execute();
  const dropped: string[] = [];
  for (const project of projects) if (await forgetProjectDatabase(db, dataPlane, project.id)) dropped.push(project.id);
  return dropped;
}

/**
 * Runs the stale-job sweep every `everyMs` until stopped; for deployments with several processes.
 * With `dataPlane`, a sweep that ended jobs also drops what they left (removeJobLeftovers).
 */
export function startStaleJobSweep(db: Kysely<Database>, logger: Logger, options: { everyMs?: number; dataPlane?: DataPlane } = {}): () => void {
  const { everyMs = STALE_JOB_MS / 2, dataPlane } = options;
  const timer = setInterval(() => {
    const staleBefore = new Date(Date.now() - STALE_JOB_MS);
    recoverInterruptedJobs(db, { staleBefore })
      .then(async (ids) => {
        if (!ids.length) return;
        logger.warn("ended jobs whose process stopped", { jobIds: ids });
        const dropped = dataPlane ? await removeJobLeftovers(db, dataPlane) : [];
        if (dropped.length) logger.warn("dropped the databases that failed or interrupted jobs left", { projectIds: dropped });
      })
      .catch((err) => logger.warn("stale job sweep failed", { err }));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
