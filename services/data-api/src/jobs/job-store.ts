/**
 * Jobs and their steps in the control-plane database. Every transition of a running job is
 * conditional on the job still being IN_PROGRESS: once the recovery (this process restarted, or
 * another process found it stale) has ended a job, nothing the old runner does can revive it.
 */
import type { Kysely, Selectable } from "kysely";
import type { Job, JobProgressDetail } from "../../../../contracts/projects.ts";
import type { Database } from "../db/schema.ts";
import type { JobsTable, JobStepsTable } from "../db/schema-projects.ts";

export type JobRow = Selectable<JobsTable>;
export type JobStepRow = Selectable<JobStepsTable>;

export const IN_PROGRESS = "IN_PROGRESS";

export type NewJob = {
  id: string;
  projectId: string;
  kind: string;
  previousStatus: string;
  createdBy: string;
  now: string;
  stepNames: readonly string[];
};

export async function insertJob(db: Kysely<Database>, job: NewJob) {
  await db
    .insertInto("jobs")
    .values({
      id: job.id,
      project_id: job.projectId,
      kind: job.kind,
      status: IN_PROGRESS,
      progress: 0,
      error: null,
      previous_status: job.previousStatus,
      created_by: job.createdBy,
      created_at: job.now,
      started_at: null,
      finished_at: null,
      heartbeat_at: job.now,
    })
    .execute();
  if (job.stepNames.length) {
    await db
      .insertInto("job_steps")
      .values(
        job.stepNames.map((name, position) => ({
          job_id: job.id,
          position,
          name,
          status: "Pending",
          started_at: null,
          finished_at: null,
          message: null,
        })),
      )
      .execute();
  }
}

/**
 * Records that the job is alive (and its progress, and where its step is in its input: `detail`,
 * null to clear it); false when it is no longer running.
 */
export async function touchJob(
  db: Kysely<Database>,
  jobId: string,
  now: string,
  fields: { progress?: number; detail?: JobProgressDetail | null; started?: boolean } = {},
) {
  const result = await db
    .updateTable("jobs")
    .set({
      heartbeat_at: now,
      ...(fields.progress !== undefined ? { progress: fields.progress } : {}),
      ...(fields.detail !== undefined ? { progress_detail: fields.detail && JSON.stringify(fields.detail) } : {}),
      ...(fields.started ? { started_at: now } : {}),
    })
    .where("id", "=", jobId)
    .where("status", "=", IN_PROGRESS)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

/** Moves a step on, only while its job runs. */
export async function setStepStatus(
  db: Kysely<Database>,
  jobId: string,
  position: number,
  status: "Started" | "Completed" | "Failed",
  now: string,
  message: string | null = null,
) {
  await db
    .updateTable("job_steps")
    .set(status === "Started" ? { status, started_at: now } : { status, finished_at: now, message })
    .where("job_id", "=", jobId)
    .where("position", "=", position)
    .where((eb) => eb.exists(eb.selectFrom("jobs").select("jobs.id").where("jobs.id", "=", jobId).where("jobs.status", "=", IN_PROGRESS)))
    .execute();
}

/** Ends the job; false (and nothing written) when it had already ended. */
export async function finishJob(db: Kysely<Database>, jobId: string, outcome: { status: "SUCCESS" | "ERROR"; error: string | null }, now: string) {
  const result = await db
    .updateTable("jobs")
    .set({
      status: outcome.status,
      error: outcome.error,
      finished_at: now,
      heartbeat_at: now,
      progress_detail: null,
      ...(outcome.status === "SUCCESS" ? { progress: 100 } : {}),
    })
    .where("id", "=", jobId)
    .where("status", "=", IN_PROGRESS)
    .executeTakeFirst();
  return result.numUpdatedRows === 1n;
}

export async function findJob(db: Kysely<Database>, jobId: string): Promise<Job | undefined> {
  const row = await db.selectFrom("jobs").selectAll().where("id", "=", jobId).executeTakeFirst();
  if (!row) return undefined;
  const [job] = await withSteps(db, [row]);
  return job;
}

/** The project's jobs with their steps, newest first. */
export async function listProjectJobs(db: Kysely<Database>, projectId: string, limit: number): Promise<Job[]> {
  const rows = await db
    .selectFrom("jobs")
    .selectAll()
    .where("project_id", "=", projectId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return withSteps(db, rows);
}

/**
 * The project's running jobs with their steps, oldest first: what a job's page polls every second
 * (a project's lock admits one at a time; a job is never "None" here, but the pages count it as running).
 */
export async function listRunningJobs(db: Kysely<Database>, projectId: string): Promise<Job[]> {
  const rows = await db
    .selectFrom("jobs")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("status", "in", [IN_PROGRESS, "None"])
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return withSteps(db, rows);
}

async function withSteps(db: Kysely<Database>, rows: JobRow[]): Promise<Job[]> {
  if (rows.length === 0) return [];
  const steps = await db
    .selectFrom("job_steps")
    .selectAll()
    .where("job_id", "in", rows.map((r) => r.id))
    .orderBy("job_id")
    .orderBy("position")
    .execute();
  const byJob = new Map<string, JobStepRow[]>();
  for (const step of steps) {
    const list = byJob.get(step.job_id);
    if (list) list.push(step);
    else byJob.set(step.job_id, [step]);
  }
  return rows.map((row) => toJob(row, byJob.get(row.id) ?? []));
}

export function toJob(row: JobRow, steps: readonly JobStepRow[]): Job {
  return {
    id: row.id,
    projectId: row.project_id,
    kind: row.kind as Job["kind"],
    status: row.status as Job["status"],
    progress: Number(row.progress),
    // Only a running job is anywhere in its input.
    progressDetail: row.progress_detail && row.status === IN_PROGRESS ? (JSON.parse(row.progress_detail) as JobProgressDetail) : null,
    steps: steps.map((s) => ({
      name: s.name,
      status: s.status as Job["steps"][number]["status"],
      startedAt: s.started_at,
      finishedAt: s.finished_at,
      message: s.message,
    })),
    error: row.error,
    createdBy: row.created_by,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}
