import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Project } from "../../../../contracts/projects.ts";
import { DEMO_COMPANIES } from "../../../../scripts/demo-data.ts";
import { createLogger } from "../../../shared/logger.ts";
import { TEST_DATABASE_KINDS } from "../../../shared/testing/databases.ts";
import { USERS, createTestApi, type TestApi } from "../testing/harness.ts";
import { makeApplication, makeProject } from "../testing/project-fixtures.ts";
import { findJob } from "./job-store.ts";
import { recoverInterruptedJobs } from "./recover.ts";
import { JobRefusedError, secondsLeft, startJob, type JobDeps } from "./start-job.ts";

const [, , birch] = DEMO_COMPANIES;

/** A promise the test resolves when it chooses: a step waits on it, or the test waits on a step. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** The job mechanism with kinds other than database creation: what later jobs rely on. */
describe.each(TEST_DATABASE_KINDS)("startJob on %s", (kind) => {
  let api: TestApi;
  let deps: JobDeps;
  let applicationId: string;
  beforeAll(async () => {
    api = await createTestApi(kind);
    deps = { db: api.db, logger: createLogger("jobs-test", "silent"), jobs: api.jobs };
    applicationId = (await makeApplication(api, birch.id)).id;
  });
  afterAll(() => api?.close());

  async function activeProject(): Promise<Project> {
    const project = await makeProject(api, await api.tokenFor(USERS.analyst), { companyId: birch.id, applicationId });
    await api.db.updateTable("projects").set({ status: "Active" }).where("id", "=", project.id).execute();
    return project;
  }
  /** A restore job's start on `projectId`, by a user "u1". */
  const restoreOf = (projectId: string) => ({ projectId, workspace: "migration", kind: "Restore", lockReason: "Restore", userId: "u1" }) as const;
  const row = (id: string) => api.db.selectFrom("projects").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it("reports progress within a step, and writes onSuccess's update in the transaction that unlocks", async () => {
    const project = await activeProject();
    const held = gate();
    const progressed = gate();
    const job = await startJob(deps, {
      projectId: project.id,
      workspace: "migration",
      kind: "Backup",
      lockReason: "Backup",
      userId: "u1",
      steps: [
        {
          name: "Copy",
          run: async (ctx) => {
            // A second into the step and half-way through its input: about a second left.
            await new Promise((r) => setTimeout(r, 1100));
            await ctx.progress(0.5, { bytesRead: 500, bytesTotal: 1000, rowsRead: 42 });
            progressed.open();
            await held.opened;
          },
        },
        { name: "Verify", run: async () => undefined },
      ],
      onSuccess: {
        status: "previous",
        update: async (trx) => {
          await trx.updateTable("projects").set({ current_backup_name: "backup-1" }).where("id", "=", project.id).execute();
        },
      },
    });
    await progressed.opened;
    const running = await findJob(api.db, job.id);
    expect(running).toMatchObject({ progress: 25, progressDetail: { bytesRead: 500, bytesTotal: 1000, rowsRead: 42 } });
    expect(running?.progressDetail?.secondsLeft).toBeGreaterThanOrEqual(1);
    expect(running?.progressDetail?.secondsLeft).toBeLessThanOrEqual(3);
    // No statusWhileRunning: the status stays; the lock says why.
    expect(await row(project.id)).toMatchObject({ status: "Active", is_locked: 1, lock_reason: "Backup", lock_state: "Locked", lock_job_id: job.id });
    held.open();
    await api.jobs.idle();
    expect(await row(project.id)).toMatchObject({ status: "Active", is_locked: 0, lock_reason: null, lock_job_id: null, current_backup_name: "backup-1" });
    // Done: it is nowhere in an input any more.
    expect(await findJob(api.db, job.id)).toMatchObject({ status: "SUCCESS", progressDetail: null });
  });

  it("weighs each step's progress by its weight: a light first step done is a small part of the bar", async () => {
    const project = await activeProject();
    const held = gate();
    const progressed = gate();
    const job = await startJob(deps, {
      ...restoreOf(project.id),
      steps: [
        { name: "Back up", weight: 1, run: async () => undefined },
        {
          name: "Read the file",
          weight: 19,
          run: async (ctx) => {
            await ctx.progress(0.5, { bytesRead: 500, bytesTotal: 1000 });
            progressed.open();
            await held.opened;
          },
        },
      ],
      onSuccess: { status: "previous" },
    });
    await progressed.opened;
    // The first step is 1/20 of the work, half of the second 9.5/20: 52%, not 75%.
    expect(await findJob(api.db, job.id)).toMatchObject({ progress: 52 });
    held.open();
    await api.jobs.idle();
    expect(await findJob(api.db, job.id)).toMatchObject({ status: "SUCCESS", progress: 100 });
  });

  it("puts the previous status back when a job of a kind without its own failure status fails: cleans up under the lock, records the failure as it unlocks", async () => {
    const project = await activeProject();
    const seen: { cleanUp?: string; record?: string; locked: number }[] = [];
    await startJob(deps, {
      ...restoreOf(project.id),
      statusWhileRunning: "SetupRestoreDatabaseIncomplete",
      steps: [{ name: "Restore", run: async () => Promise.reject(new Error("corrupt backup")) }],
      onSuccess: { status: "Active" },
      // Still locked: a Retry cannot start while the clean-up drops what it would make.
      onFailure: async (err) => void seen.push({ cleanUp: (err as Error).message, locked: (await row(project.id)).is_locked }),
      // In the transaction that unlocks: whoever reads the failure recorded reads the lock released.
      recordFailure: async (trx, err) => {
        const { is_locked } = await trx.selectFrom("projects").select("is_locked").where("id", "=", project.id).executeTakeFirstOrThrow();
        seen.push({ record: (err as Error).message, locked: is_locked });
      },
    });
    await api.jobs.idle();
    expect(await row(project.id)).toMatchObject({ status: "Active", is_locked: 0 });
    expect(seen).toEqual([
      { cleanUp: "corrupt backup", locked: 1 },
      { record: "corrupt backup", locked: 0 },
    ]);
  });

  it("tells a step about to commit that its job was ended in another process, without waiting for the next poll", async () => {
    const project = await activeProject();
    const held = gate();
    const atCommit = gate();
    let heard: string | undefined;
    let committed = false;
    const job = await startJob(deps, {
      ...restoreOf(project.id),
      steps: [
        {
          name: "Restore",
          run: async (ctx) => {
            atCommit.open();
            await held.opened;
            try {
              await ctx.stillWanted();
              committed = true;
            } catch (err) {
              heard = (err as Error).message;
              throw err;
            }
          },
        },
      ],
      onSuccess: { status: "Active" },
    });
    await atCommit.opened;
    // As a force-unlock in another process leaves it: the job's record ended, this process not told.
    await api.db.updateTable("jobs").set({ status: "ERROR", error: "Force-unlocked: the server is moving" }).where("id", "=", job.id).execute();
    held.open();
    await api.jobs.idle();
    expect({ heard, committed }).toEqual({ heard: "Force-unlocked: the server is moving", committed: false });
  });

  it("refuses to start from a status it does not allow, or on a locked project, taking nothing", async () => {
    const project = await activeProject();
    const definition = {
      projectId: project.id,
      workspace: "migration" as const,
      kind: "DatabaseCreation" as const,
      lockReason: "DatabaseCreation" as const,
      userId: "u1",
      steps: [],
      onSuccess: { status: "previous" as const },
    };
    await expect(startJob(deps, { ...definition, allowedStatuses: ["SetupUploadTypeIncomplete"] })).rejects.toThrow(JobRefusedError);
    await api.db.updateTable("projects").set({ is_locked: 1, lock_reason: "Backup" }).where("id", "=", project.id).execute();
    await expect(startJob(deps, definition)).rejects.toThrow(/locked \(Backup\)/);
    expect(await api.db.selectFrom("jobs").select("id").where("project_id", "=", project.id).execute()).toEqual([]);
  });

  it("lets only one of two simultaneous starts take the lock", async () => {
    const project = await activeProject();
    const held = gate();
    // Held, so the winner cannot finish (and unlock) before the others try.
    const definition = {
      projectId: project.id,
      workspace: "migration" as const,
      kind: "Backup" as const,
      lockReason: "Backup" as const,
      userId: "u1",
      steps: [{ name: "Hold", run: () => held.opened }],
      onSuccess: { status: "previous" as const },
    };
    const results = await Promise.allSettled([startJob(deps, definition), startJob(deps, definition), startJob(deps, definition)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected").every((r) => (r as PromiseRejectedResult).reason instanceof JobRefusedError)).toBe(true);
    held.open();
    await api.jobs.idle();
  });

  it("recovers an interrupted job of a 'previous' kind to the status it had before", async () => {
    const project = await activeProject();
    const held = gate();
    const job = await startJob(deps, {
      ...restoreOf(project.id),
      statusWhileRunning: "SetupRestoreDatabaseIncomplete",
      steps: [{ name: "Restore", run: () => held.opened }],
      onSuccess: { status: "Active" },
    });
    expect(await recoverInterruptedJobs(api.db)).toEqual([job.id]);
    expect(await row(project.id)).toMatchObject({ status: "Active", is_locked: 0 });
    held.open();
    await api.jobs.idle();
  });
});

describe("the time a step has left", () => {
  it("is the time it took so far for the share done, applied to the share left; unknown in its first second or first 1%", () => {
    expect(secondsLeft(0.25, 10_000)).toBe(30);
    expect(secondsLeft(0.5, 61_000)).toBe(61);
    expect(secondsLeft(0.5, 900)).toBeNull();
    expect(secondsLeft(0.005, 60_000)).toBeNull();
    expect(secondsLeft(1, 60_000)).toBeNull();
  });
});
