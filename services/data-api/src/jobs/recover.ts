/**
 * A job whose process died (killed, crashed, redeployed) must not leave its project locked forever.
 * At start, server.ts ends the jobs a previous process left running; with PostgreSQL, where several
 * processes share the control plane, a periodic sweep also ends jobs whose heartbeat stopped, so a
 * job is only taken for dead when nobody has run it for a while (not merely because another
 * process is busy with it). With pg-boss (start-job.ts) its expiry takes over this role.
 *
 * A dead job also leaves files behind: the temporary files of a database it was creating, and
 * (killed after a database was renamed into place, or before its failure's clean-up ran) whole
 * databases beside a project marked DatabaseCreationFailed. The recovery removes those too.
 */
import type { Kysely } from "kysely";
import type { ProjectStatus } from "../../../../contracts/projects.ts";
import type { Logger } from "../../../shared/logger.ts";
import { projectsWithFolders, removeProjectDatabases, removeTemporaryFiles } from "../data-plane/project-databases.ts";
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
  /** The data folder: when given, also remove what failed and interrupted jobs left there (removeJobLeftovers). */
  dataDir?: string;
  /** Where the files removed are reported. */
  logger?: Logger;
};

/**
 * Ends every matching IN_PROGRESS job as ERROR, its running step Failed, and releases its project's
 * lock with the status the job kind's failure rule gives (DatabaseCreation → DatabaseCreationFailed).
 * One transaction per job, each conditional on the job still running: safe to run from several
 * processes at once. With `dataDir`, then removes the files such jobs left (removeJobLeftovers).
 * Answers the ids of the jobs it ended.
 */
export async function recoverInterruptedJobs(db: Kysely<Database>, options: RecoverOptions = {}): Promise<string[]> {
  // Files written since the recovery started belong to jobs started since: never theirs to remove.
  const startedAt = new Date();
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
  if (options.dataDir) {
    // Best effort: a file that cannot be removed (permissions, say) must not keep the service from starting.
    try {
      const removed = await removeJobLeftovers(db, options.dataDir, { before: options.staleBefore ?? startedAt });
      if (removed.length) options.logger?.warn("removed files that failed or interrupted jobs left", { files: removed });
    } catch (err) {
      options.logger?.warn("could not remove the files failed or interrupted jobs left", { err });
    }
  }
  return recovered;
}

/** The status a failed database creation leaves its project at (job-kinds.ts). */
const CREATION_FAILED: ProjectStatus = "DatabaseCreationFailed";

/** Project ids per query (SQLite allows some 32,000 bound parameters). */
const PROJECTS_PER_QUERY = 500;

/**
 * Removes what failed and interrupted jobs left in the data folder, for every project no job is
 * running on (unlocked): temporary files of a database creation, and for a project whose
 * creation failed, its databases (partial or complete), so a retry starts clean. Only files last
 * written before `before`: a job that started since, in another process, keeps its own. A locked
 * project is left alone (its job, here or elsewhere, is using its files), and so are the other
 * healthy projects' databases. Answers the paths removed.
 */
export async function removeJobLeftovers(db: Kysely<Database>, dataDir: string, options: { before: Date }): Promise<string[]> {
  const ids = projectsWithFolders(dataDir);
  const removed: string[] = [];
  for (let at = 0; at < ids.length; at += PROJECTS_PER_QUERY) {
    const projects = await db
      .selectFrom("projects")
      .select(["id", "status", "is_locked"])
      .where("id", "in", ids.slice(at, at + PROJECTS_PER_QUERY))
      .execute();
    for (const project of projects) {
      if (project.is_locked) continue;
      removed.push(...removeTemporaryFiles(dataDir, project.id, options.before));
      if (project.status === CREATION_FAILED) removed.push(...removeProjectDatabases(dataDir, project.id, options.before));
    }
  }
  return removed;
}

/**
 * Runs the stale-job sweep every `everyMs` until stopped; for deployments with several processes.
 * With `dataDir`, a sweep that ended jobs also removes what they left (removeJobLeftovers).
 */
export function startStaleJobSweep(db: Kysely<Database>, logger: Logger, options: { everyMs?: number; dataDir?: string } = {}): () => void {
  const { everyMs = STALE_JOB_MS / 2, dataDir } = options;
  const timer = setInterval(() => {
    const staleBefore = new Date(Date.now() - STALE_JOB_MS);
    recoverInterruptedJobs(db, { staleBefore })
      .then(async (ids) => {
        if (!ids.length) return;
        logger.warn("ended jobs whose process stopped", { jobIds: ids });
        const removed = dataDir ? await removeJobLeftovers(db, dataDir, { before: staleBefore }) : [];
        if (removed.length) logger.warn("removed files that failed or interrupted jobs left", { files: removed });
      })
      .catch((err) => logger.warn("stale job sweep failed", { err }));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
