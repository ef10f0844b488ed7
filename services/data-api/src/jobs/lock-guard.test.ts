/**
 * A write let through by requireWorkspace's lock check must not commit once a job has taken the
 * workspace's lock since that check (lock-guard.ts): the job would miss the write, or find it half made.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Project } from "../../../../contracts/projects.ts";
import { DEMO_COMPANIES } from "../../../../scripts/demo-data.ts";
import { createLogger } from "../../../shared/logger.ts";
import { TEST_DATABASE_KINDS } from "../../../shared/testing/databases.ts";
import { findProjectDictionaryRef } from "../repositories/dictionaries.ts";
import { createTable } from "../repositories/dictionary-tables.ts";
import { USERS, createTestApi, type TestApi } from "../testing/harness.ts";
import { column, makeApplication, makeProject } from "../testing/project-fixtures.ts";
import { expectUnlocked, guardLockedWrites } from "./lock-guard.ts";
import { takeProjectLock } from "./project-lock.ts";
import { startJob, type JobDeps } from "./start-job.ts";

const [, acme] = DEMO_COMPANIES;

/** Runs `work` as the API runs a POST: inside the guard's context. */
const asWriteRequest = (work: () => Promise<void>) => guardLockedWrites({ req: { method: "POST" } } as never, work);

describe.each(TEST_DATABASE_KINDS)("a write to a workspace a job locked since its check, on %s", (kind) => {
  let api: TestApi;
  let deps: JobDeps;
  let analyst: string;
  let applicationId: string;
  beforeAll(async () => {
    api = await createTestApi(kind);
    deps = { db: api.db, logger: createLogger("lock-guard-test", "silent"), jobs: api.jobs };
    analyst = await api.tokenFor(USERS.analyst);
    applicationId = (await makeApplication(api, acme.id)).id;
  });
  afterAll(() => api?.close());

  const newProject = () => makeProject(api, analyst, { companyId: acme.id, applicationId });
  const tablesOf = async (project: Project) => {
    const ref = await findProjectDictionaryRef(api.db, project.id);
    return (await api.db.selectFrom("dictionary_tables").select("name").where("dictionary_id", "=", ref!.id).execute()).map((t) => t.name);
  };
  const addTable = async (project: Project, name: string) => {
    const ref = await findProjectDictionaryRef(api.db, project.id);
    return createTable(api.db, ref!.id, { name, description: null, columns: [column("Id", "int")] }, { expectedVersion: ref!.version, userId: "u1" });
  };

  it("rolls the write back with the lock's 409 when a job took the lock between the check and the commit", async () => {
    const project = await newProject();
    let refusal: unknown;
    await asWriteRequest(async () => {
      expectUnlocked(project.id, "project");
      // Someone else's database creation starts now (its own request took the lock).
      expect(
        await takeProjectLock(api.db, {
          projectId: project.id,
          jobId: "their-job",
          reason: "DatabaseCreation",
          expectedStatus: project.status,
          now: new Date().toISOString(),
        }),
      ).toBe(true);
      refusal = await addTable(project, "Patients").catch((err: unknown) => err);
    });
    expect(refusal).toMatchObject({
      statusCode: 409,
      code: "project_locked",
      message: "The project is locked (Database creation) while a background job runs. Try again when it has finished.",
    });
    expect(await tablesOf(project)).toEqual([]);
  });

  it("lets the write through when the workspace stays unlocked, and the request's own job start and what follows it", async () => {
    const project = await newProject();
    await asWriteRequest(async () => {
      expectUnlocked(project.id, "project");
      await addTable(project, "Patients");
      // The request starts a job of its own: the lock is its, its writes after that are the job's start.
      await startJob(deps, {
        projectId: project.id,
        workspace: "migration",
        kind: "Backup",
        lockReason: "Backup",
        userId: "u1",
        steps: [{ name: "Copy", run: async () => undefined }],
        onSuccess: { status: "previous" },
      });
      await addTable(project, "Visits");
    });
    await api.jobs.idle();
    expect(await tablesOf(project)).toEqual(expect.arrayContaining(["Patients", "Visits"]));
  });

  it.runIf(kind === "postgres")("refuses a request whose check passed while a job's lock was being taken, through the API", async () => {
    const project = await newProject();
    const ref = await findProjectDictionaryRef(api.db, project.id);
    // A job's start in another process: its lock written, not yet committed (the request's check reads the row as it was).
    const other = new pg.Client({ connectionString: api.databaseUrl });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query(`UPDATE projects SET is_locked = 1, lock_reason = 'Backup', lock_state = 'Locked', lock_job_id = 'their-job' WHERE id = $1`, [
        project.id,
      ]);
      const answer = api.send("POST", `/api/v1/projects/${project.id}/data-dictionary/tables`, analyst, {
        version: ref!.version,
        name: "Patients",
        description: null,
        columns: [column("Id", "int")],
      });
      // The write waits on the project's row once it has passed the check: the job's start commits then.
      for (let waited = 0; ; waited += 20) {
        const { rows } = await other.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`);
        if (rows[0].n > 0) break;
        if (waited > 10_000) throw new Error("the write never waited on the project's row");
        await new Promise((r) => setTimeout(r, 20));
      }
      await other.query("COMMIT");
      const res = await answer;
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: "project_locked" });
      expect(await tablesOf(project)).toEqual([]);
    } finally {
      await other.end();
    }
  });
});
