/**
 * The job mechanism every long piece of work uses (database creation, and later restores, flat-file
 * loads, backups, comparisons, runs): take the project lock, record the job and its steps, answer
 * at once, run the steps in the background, and release the lock with the final status.
 *
 *   const job = await startJob(deps, {
 *     projectId, workspace: "migration", kind: "Backup", lockReason: "Backup", userId,
 *     steps: [{ name: "Copy source", run: async (ctx) => { …; await ctx.progress(0.5); … } }],
 *     onSuccess: { status: "previous", update: (trx) => setBackupName(trx, …) },
 *   });
 *
 * Today the steps run in this process (runner.ts). At scale (ARCHITECTURE.md §5) the same call
 * moves onto a PostgreSQL-backed queue without changing callers: startJob keeps its transaction
 * (lock + job rows) and, instead of `runner.launch`, sends `{ jobId, kind }` to pg-boss in that same
 * transaction; workers in any process look the kind's steps up in a registry (kind → steps
 * built from the job's project, which is why steps must not capture request state they cannot
 * rebuild) and run `runSteps` below unchanged; pg-boss's expiry replaces the heartbeat sweep of
 * recover.ts. The lock, the step rows and the final transaction stay in these tables, so the
 * background-process page and the recovery rules do not change.
 */
import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Job, JobProgressDetail, LockReason, ProjectStatus } from "../../../../contracts/projects.ts";
import { JOB_KIND_LABELS, PROJECT_STATUS_LABELS } from "../../../../contracts/values/projects.ts";
import { WORKSPACES, type WorkspaceKind } from "../../../../contracts/workspaces.ts";
import type { Logger } from "../../../shared/logger.ts";
import type { AppDeps } from "../context.ts";
import type { Database } from "../db/schema.ts";
import { statusAfterFailure, type JobKind } from "./job-kinds.ts";
import { announceJobEnded } from "../notifications/webhooks.ts";
import { claimAudit, nothingToAudit } from "../audit-writes.ts";
import { failureMessage } from "../data-plane/server-lost.ts";
import { inTransaction } from "../repositories/db-helpers.ts";
import { IN_PROGRESS, finishJob, insertJob, setStepStatus, toJob, touchJob } from "./job-store.ts";
import { lockTakenHere } from "./lock-guard.ts";
import { lockedMessage, releaseProjectLock, takeProjectLock } from "./project-lock.ts";
import type { JobRunner } from "./runner.ts";

export type JobContext = {
  jobId: string;
  projectId: string;
  db: Kysely<Database>;
  logger: Logger;
  /**
   * Progress within the running step, from 0 to 1: moves the job's progress and heartbeat. A step
   * that reads an input says how far (`read`): the time left is estimated from `fraction` and the
   * time the step has run.
   */
  progress(fraction: number, read?: StepRead): Promise<void>;
  /** Aborted when someone cancels the job (its reason: a JobCancelledError): a long step stops its work then. */
  signal: AbortSignal;
  /**
   * Resolves while the job is still wanted, else throws why not (a JobCancelledError): a cancel asked
   * in this process or another, or its record ended elsewhere (a force-unlock, a recovery). A step asks
   * just before it commits what it did, so that such an end, heard in another process only at the
   * next poll (CANCEL_POLL_MS), is not outrun by a commit in the meantime.
   */
  stillWanted(): Promise<void>;
};

/** The job was cancelled: its message says by whom. Nothing a cancelled step did is kept. */
export class JobCancelledError extends Error {
  override name = "JobCancelledError";
}

/**
 * The job's input was refused (a file with rejected rows under "Load nothing", a file that cannot be
 * read): a failure its user reads on the background-process page, not one for the operator's log.
 */
export class JobInputRefusedError extends Error {
  override name = "JobInputRefusedError";
}

/** How often a running job looks whether another process was asked to cancel it. */
export const CANCEL_POLL_MS = 1000;

/** How far a step is in its input: bytes of the whole, and rows when it reads rows. */
export type StepRead = { bytesRead: number; bytesTotal: number; rowsRead?: number };

export type JobStep = {
  name: string;
  run: (ctx: JobContext) => Promise<void>;
  /**
   * How much of the job's work the step is, beside its other steps' (1 by default): its share of the
   * job's progress. A load weighs its files by their size and its backup little (flat-file-load.ts),
   * so that a backup of a second is not half the bar.
   */
  weight?: number;
};

export type JobDefinition = {
  projectId: string;
  /** The kind of workspace `projectId` is: its refusals say "project" or "configuration". */
  workspace: WorkspaceKind;
  kind: JobKind;
  lockReason: LockReason;
  /** Who started it (jobs.created_by). */
  userId: string;
  steps: readonly JobStep[];
  /** The project's status while the job runs; unchanged when omitted. */
  statusWhileRunning?: ProjectStatus;
  /** The statuses the project may start from, checked in the same statement that takes the lock. */
  allowedStatuses?: readonly ProjectStatus[];
  /** The workspace's version the start was based on (an undo's), checked in the statement that takes the lock: a start racing another change is refused. */
  expectedVersion?: number;
  /**
   * The job's own record of its work (a run and its planned steps), written in the transaction that
   * takes the lock and records the job: a refused start leaves none, and the start is one commit of
   * the control plane (each waits for the disk), not three.
   */
  record?: (trx: Kysely<Database>, jobId: string) => Promise<unknown>;
  /**
   * The project's status after the last step ("previous": as before the job), and any further
   * writes, all in the transaction that ends the job and releases the lock. `record`: what the last
   * step did (a run's last step results), written first in that transaction, and also when the job's
   * record was ended elsewhere meanwhile (a force unlock): it was done all the same.
   */
  onSuccess: {
    status: ProjectStatus | "previous";
    update?: (trx: Transaction<Database>, ctx: JobContext) => Promise<void>;
    record?: (trx: Transaction<Database>) => Promise<void>;
  };
  /**
   * Clean-up after a failure, while the job still holds the lock (best effort: a failure here is logged).
   * The status after a failure is the job kind's rule (job-kinds.ts), the same rule the restart
   * recovery applies, so it is not a parameter.
   */
  onFailure?: (error: unknown, ctx: JobContext) => Promise<void>;
  /**
   * Writes of the job's own record of its failure (a run's ERROR), in the transaction that ends the
   * job and releases the lock: a page that takes the record's end for the job's reads the lock
   * released with it, never a failed run under a lock still held.
   */
  recordFailure?: (trx: Transaction<Database>, error: unknown) => Promise<void>;
};

/** What a job needs of the app (AppDeps): the control-plane database, a logger and the runner. */
export type JobDeps = Pick<AppDeps, "db" | "progressDb" | "logger"> & { jobs: JobRunner };

/** The job could not start: the workspace is locked, or not in a status the job starts from (409). */
export class JobRefusedError extends Error {
  override name = "JobRefusedError";
}

const now = () => new Date().toISOString();

/** Takes the lock and records the job (one transaction), schedules its steps, and answers the job. */
export async function startJob(deps: JobDeps, definition: JobDefinition): Promise<Job> {
  return (await runJob(deps, definition)).job;
}

/**
 * startJob, answering also when the job has ended (its lock released): for short work a request
 * waits for (a dictionary change's DDL, dictionary-changes.ts), locked and recorded like any job.
 */
export async function runJob(deps: JobDeps, definition: JobDefinition): Promise<{ job: Job; ended: Promise<void> }> {
  const { db } = deps;
  const jobId = randomUUID();
  const at = now();
  const stepNames = definition.steps.map((s) => s.name);
  const { noun } = WORKSPACES[definition.workspace];

  const previousStatus = await inTransaction(db, async (trx) => {
    const project = await trx.selectFrom("projects").select(["status", "is_locked", "lock_reason"]).where("id", "=", definition.projectId).executeTakeFirst();
    if (!project) throw new JobRefusedError(`The ${noun} no longer exists.`);
    if (project.is_locked) throw new JobRefusedError(lockedMessage(project.lock_reason, noun));
    const allowed = definition.allowedStatuses;
    if (allowed && !allowed.includes(project.status as ProjectStatus)) {
      const status = PROJECT_STATUS_LABELS[project.status as ProjectStatus] ?? project.status;
      throw new JobRefusedError(`${JOB_KIND_LABELS[definition.kind]} cannot start while the ${noun}'s status is “${status}”.`);
    }
    const taken = await takeProjectLock(trx, {
      projectId: definition.projectId,
      jobId,
      reason: definition.lockReason,
      expectedStatus: project.status,
      expectedVersion: definition.expectedVersion,
      statusWhileRunning: definition.statusWhileRunning,
      now: at,
    });
    // Another request took the lock (or changed the status, or the version a start was based on) between our read and our update.
    if (!taken) throw new JobRefusedError(lockedMessage(definition.lockReason, noun));
    // The request's own job holds it now: what the request writes after this is the job's start.
    lockTakenHere(definition.projectId);
    await insertJob(trx, {
      id: jobId,
      projectId: definition.projectId,
      kind: definition.kind,
      previousStatus: project.status,
      createdBy: definition.userId,
      now: at,
      stepNames,
    });
    await definition.record?.(trx, jobId);
    // The request's audit entry is written here, where the job takes its lock (audit-writes.ts).
    claimAudit({ jobId });
    return project.status;
  });

  // runSteps never throws: every failure ends up on the job.
  const ended = new Promise<void>((resolve) => deps.jobs.launch(() => runSteps(deps, jobId, previousStatus, definition).finally(resolve)));

  const job = toJob(
    {
      id: jobId,
      project_id: definition.projectId,
      kind: definition.kind,
      status: IN_PROGRESS,
      progress: 0,
      progress_detail: null,
      error: null,
      previous_status: previousStatus,
      created_by: definition.userId,
      created_at: at,
      started_at: null,
      finished_at: null,
      heartbeat_at: at,
      cancel_requested_by: null,
      cancel_requested_at: null,
    },
    stepNames.map((name, position) => ({ job_id: jobId, position, name, status: "Pending", started_at: null, finished_at: null, message: null })),
  );
  return { job, ended };
}

/** Runs the steps in order and ends the job; never throws (every failure ends up on the job). */
export async function runSteps(deps: JobDeps, jobId: string, previousStatus: string, definition: JobDefinition): Promise<void> {
  const { db, logger } = deps;
  const progressDb = deps.progressDb ?? db;
  // Where each step starts on the bar, and how much of it it takes.
  const weights = definition.steps.map((step) => Math.max(0, step.weight ?? 1));
  const startsAt = weights.map((_, position) => weights.slice(0, position).reduce((sum, w) => sum + w, 0));
  const total = weights.reduce((sum, w) => sum + w, 0);
  let current: number | null = null;
  let stepStartedAt = Date.now();
  const tracked = deps.jobs.track(jobId);
  /** Reads the job's record now: a cancel asked there, or an end written there, stops the job (its signal). */
  const lookForCancel = async () => {
    const request = await cancelRequest(db, jobId);
    if (request) deps.jobs.cancel(jobId, request);
  };
  const ctx: JobContext = {
    jobId,
    projectId: definition.projectId,
    db,
    logger,
    signal: tracked.signal,
    stillWanted: async () => {
      await lookForCancel();
      tracked.signal.throwIfAborted();
    },
    progress: async (fraction, read) => {
      const within = Math.min(Math.max(fraction, 0), 1);
      const detail: JobProgressDetail | undefined = read && { rowsRead: null, ...read, secondsLeft: secondsLeft(within, Date.now() - stepStartedAt) };
      await touchJob(progressDb, jobId, now(), { progress: percent(current === null ? 0 : startsAt[current]! + within * weights[current]!, total), detail });
    },
  };
  // Alive while a long step runs, so a sweep in another process does not take the job for dead.
  const heartbeat = setInterval(() => {
    touchJob(progressDb, jobId, now()).catch((err) => logger.warn("job heartbeat failed", { err, jobId }));
  }, deps.jobs.heartbeatMs);
  heartbeat.unref();
  // A cancel asked of another process reaches this one through the jobs table.
  const cancelPoll = setInterval(() => {
    lookForCancel().catch((err) => logger.warn("job cancel poll failed", { err, jobId }));
  }, CANCEL_POLL_MS);
  cancelPoll.unref();

  try {
    if (!definition.steps.length && !(await touchJob(db, jobId, now(), { started: true }))) return;
    for (const [position, step] of definition.steps.entries()) {
      // The recovery may have ended the job meanwhile: stop rather than work for a dead job.
      // A new step has read nothing of its input yet. One commit (each waits for the disk) for the
      // job's progress, its start with the first step, and the step's Started.
      const live = await db.transaction().execute(async (trx) => {
        const at = now();
        if (!(await touchJob(trx, jobId, at, { progress: percent(startsAt[position]!, total), detail: null, started: position === 0 }))) return false;
        current = position;
        await setStepStatus(trx, jobId, position, "Started", at);
        return true;
      });
      if (!live) return;
      stepStartedAt = Date.now();
      await deps.jobs.hooks.beforeStep?.({ jobId, projectId: definition.projectId, kind: definition.kind, name: step.name, position });
      ctx.signal.throwIfAborted();
      await step.run(ctx);
      ctx.signal.throwIfAborted();
      // The last step's end commits with the job's below: one commit (a wait for the disk) the fewer.
      if (position === definition.steps.length - 1) break;
      await setStepStatus(db, jobId, position, "Completed", now());
      current = null;
    }
    const status = definition.onSuccess.status === "previous" ? (previousStatus as ProjectStatus) : definition.onSuccess.status;
    await db.transaction().execute(async (trx) => {
      const at = now();
      // Written only while the job runs, as the job's end below.
      if (current !== null) await setStepStatus(trx, jobId, current, "Completed", at);
      await definition.onSuccess.record?.(trx);
      if (!(await finishJob(trx, jobId, { status: "SUCCESS", error: null }, at))) return;
      await releaseProjectLock(trx, definition.projectId, jobId, status, at);
      await definition.onSuccess.update?.(trx, ctx);
      // Webhooks hear of it exactly when it committed (an outbox row, sent later: notifications/webhooks.ts).
      await announceJobEnded(trx, jobId, at);
    });
    logger.info("job succeeded", { jobId, kind: definition.kind, projectId: definition.projectId });
  } catch (error) {
    await failJob(deps, jobId, current, previousStatus, definition, error, ctx);
  } finally {
    clearInterval(heartbeat);
    clearInterval(cancelPoll);
    tracked.done();
  }
}

/**
 * Why a running job must stop, as the error it ends with, or null: a cancel was asked, or its record
 * says it is over already (a force-unlock or a recovery ended it while this process still works on it).
 */
export async function cancelRequest(db: Kysely<Database>, jobId: string): Promise<JobCancelledError | null> {
  const row = await db.selectFrom("jobs").select(["cancel_requested_by", "status", "error"]).where("id", "=", jobId).executeTakeFirst();
  if (!row) return new JobCancelledError("The job no longer exists.");
  if (row.status !== IN_PROGRESS) return new JobCancelledError(row.error ?? "The job was ended elsewhere.");
  return row.cancel_requested_by ? new JobCancelledError(CANCELLED_MESSAGE) : null;
}

export const CANCELLED_MESSAGE = "Cancelled: nothing it did was kept.";

/**
 * Asks a running job to stop (a user with write access): recorded, and the job stops at once when
 * it runs in this process, else within CANCEL_POLL_MS. Answers false when the job is not running.
 */
export async function requestCancel(deps: JobDeps, jobId: string, userId: string): Promise<boolean> {
  // A transaction of its own: the request's audit entry commits with the cancel, and only with one.
  const asked = await inTransaction(deps.db, async (trx) => {
    const result = await trx
      .updateTable("jobs")
      .set({ cancel_requested_by: userId, cancel_requested_at: now() })
      .where("id", "=", jobId)
      .where("status", "=", IN_PROGRESS)
      .executeTakeFirst();
    if (result.numUpdatedRows === 1n) return true;
    nothingToAudit();
    return false;
  });
  if (!asked) return false;
  deps.jobs.cancel(jobId, new JobCancelledError(CANCELLED_MESSAGE));
  return true;
}

async function failJob(
  deps: JobDeps,
  jobId: string,
  position: number | null,
  previousStatus: string,
  definition: JobDefinition,
  thrown: unknown,
  ctx: JobContext,
) {
  // A cancelled step often throws its stream's own AbortError ("The operation was aborted"): the
  // user is told why it stopped, the cancel's reason, instead.
  const error = ctx.signal.aborted && ctx.signal.reason instanceof Error ? ctx.signal.reason : thrown;
  const said = error instanceof JobInputRefusedError || error instanceof JobCancelledError;
  // A project database server that went away is said as that, not in pg's words (server-lost.ts).
  const message = said ? error.message : failureMessage(error);
  const about = { jobId, kind: definition.kind, projectId: definition.projectId };
  if (said) deps.logger.info("job ended without its result", { ...about, message });
  else deps.logger.warn("job failed", { ...about, err: error });
  // The clean-up runs while the job still holds the lock: a Retry the moment the lock is released
  // must not meet a clean-up still dropping what it is about to make. Only while the job is still
  // this run's: when the recovery ended it already (its process was taken for dead), the recovery did
  // the clean-up and the project may have moved on since (a retry made new databases).
  const ours = await deps.db
    .selectFrom("jobs")
    .select("status")
    .where("id", "=", jobId)
    .executeTakeFirst()
    .catch(() => undefined);
  if (ours?.status === IN_PROGRESS) {
    try {
      await definition.onFailure?.(error, ctx);
    } catch (err) {
      deps.logger.warn("job clean-up after a failure failed", { err, jobId });
    }
  }
  try {
    await deps.db.transaction().execute(async (trx) => {
      const at = now();
      // The step first: its update is conditional on the job still running.
      if (position !== null) await setStepStatus(trx, jobId, position, "Failed", at, message);
      if (!(await finishJob(trx, jobId, { status: "ERROR", error: message }, at))) return false;
      await releaseProjectLock(trx, definition.projectId, jobId, statusAfterFailure(definition.kind, previousStatus), at);
      await definition.recordFailure?.(trx, error);
      await announceJobEnded(trx, jobId, at);
      return true;
    });
  } catch (err) {
    // The database itself failed: the job stays IN_PROGRESS until the recovery ends it.
    deps.logger.error("could not record a job's failure", { err, jobId });
  }
}

/**
 * The seconds a step still needs at the pace it has kept: null in its first second or before it has
 * done 1% (too little to tell), and once done.
 */
export function secondsLeft(fraction: number, elapsedMs: number): number | null {
  if (elapsedMs < 1000 || fraction < 0.01 || fraction >= 1) return null;
  return Math.ceil(((elapsedMs / fraction) * (1 - fraction)) / 1000);
}

/** 0–99 while running: 100 means finished, and only the final transaction writes it. */
function percent(done: number, total: number) {
  return total === 0 ? 0 : Math.min(99, Math.floor((done / total) * 100));
}
