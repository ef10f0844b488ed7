import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Job, Project } from "../../../../../contracts/projects.ts";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import { TEST_DATABASE_KINDS } from "../../../../shared/testing/databases.ts";
import { DATABASE_CREATION_STEPS } from "../../data-plane/database-creation.ts";
import { projectDatabasePath } from "../../data-plane/project-databases.ts";
import { INTERRUPTED_MESSAGE, recoverInterruptedJobs } from "../../jobs/recover.ts";
import { USERS, createTestApi, type TestApi } from "../../testing/harness.ts";
import { addProjectTable, column, makeApplication, makeProject } from "../../testing/project-fixtures.ts";

const [, , birch] = DEMO_COMPANIES;

/** A promise a test resolves (or rejects) when it lets a held job go on. */
function gate() {
  let open!: () => void;
  let fail!: (err: Error) => void;
  const promise = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

describe.each(TEST_DATABASE_KINDS)("jobs and database creation on %s", (kind) => {
  let api: TestApi;
  let applicationId: string;
  let owner: string;

  beforeAll(async () => {
    api = await createTestApi(kind);
    applicationId = (await makeApplication(api, birch.id)).id;
    owner = await api.tokenFor(USERS.analyst);
  });
  afterEach(async () => {
    api.jobs.hooks = {};
    await api.jobs.idle();
  });
  afterAll(() => api?.close());

  /** A project at wizard step 3: two tables with columns, an upload type, status SetupUploadTypeIncomplete. */
  async function readyProject(sourceType: "BackUp" | "FlatFile" = "BackUp"): Promise<Project> {
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId, sourceType });
    await addProjectTable(api, project.id, {
      name: "Customers",
      columns: [
        column("CustomerId", "int", { isKey: true, nullable: false }),
        column("Name", "nvarchar", { length: 10, nullable: false }),
        column("Balance", "decimal", { precision: 12, scale: 2 }),
        column("Since", "date"),
      ],
    });
    await addProjectTable(api, project.id, { name: "Orders", columns: [column("OrderId", "uniqueidentifier", { isKey: true, nullable: false }), column("At", "datetime")] });
    await api.db.updateTable("projects").set({ status: "SetupUploadTypeIncomplete" }).where("id", "=", project.id).execute();
    await api.send("POST", `/api/v1/projects/${project.id}/upload-type`, owner, { uploadType: "SingleFile" });
    return (await api.get(`/api/v1/projects/${project.id}`, owner)).body;
  }

  const tryCreate = (project: Project, app = api.app) =>
    app.request(`/api/v1/projects/${project.id}/try-create-databases`, { method: "POST", headers: { authorization: `Bearer ${owner}` } });
  const jobsOf = async (project: Project, app = api.app) =>
    (await (await app.request(`/api/v1/projects/${project.id}/jobs`, { headers: { authorization: `Bearer ${owner}` } })).json()) as {
      isLocked: boolean;
      lockReason: string | null;
      lockState: string;
      jobs: Job[];
    };
  const projectNow = async (project: Project) => (await api.get(`/api/v1/projects/${project.id}`, owner)).body as Project;
  const databaseFiles = (project: Project) => (fs.existsSync(path.dirname(projectDatabasePath(api.dataDir, project.id, "source"))) ? fs.readdirSync(path.dirname(projectDatabasePath(api.dataDir, project.id, "source"))).sort() : []);

  it("takes the lock at once, answers 202 with the job, and releases it with SetupRestoreDatabaseIncomplete when done", async () => {
    const project = await readyProject();
    const held = gate();
    api.jobs.hooks.beforeStep = async (step) => {
      if (step.projectId === project.id && step.position === 0) await held.promise;
    };
    const res = await tryCreate(project);
    expect(res.status).toBe(202);
    const job = (await res.json()) as Job;
    expect(job).toMatchObject({
      projectId: project.id,
      kind: "DatabaseCreation",
      status: "IN_PROGRESS",
      progress: 0,
      error: null,
      createdBy: USERS.analyst.id,
      finishedAt: null,
      steps: Object.values(DATABASE_CREATION_STEPS).map((name) => ({ name, status: "Pending", startedAt: null, finishedAt: null, message: null })),
    });
    // Locked by the request itself, before any step has run.
    expect(await projectNow(project)).toMatchObject({ isLocked: true, lockReason: "DatabaseCreation", status: "DatabaseCreation" });
    held.open();

    await api.jobs.idle();
    const after = await jobsOf(project);
    expect(after).toMatchObject({ isLocked: false, lockReason: null, lockState: "Unlocked" });
    expect(after.jobs).toHaveLength(1);
    expect(after.jobs[0]).toMatchObject({ id: job.id, status: "SUCCESS", progress: 100, error: null, finishedAt: expect.any(String) });
    expect(after.jobs[0]!.steps.map((s) => [s.status, !!s.startedAt, !!s.finishedAt])).toEqual([
      ["Completed", true, true],
      ["Completed", true, true],
      ["Completed", true, true],
    ]);
    expect(await projectNow(project)).toMatchObject({ isLocked: false, lockReason: null, status: "SetupRestoreDatabaseIncomplete" });
    expect(databaseFiles(project)).toEqual(["destination.sqlite", "source.sqlite"]);
  });

  it("creates source and destination with one table per dictionary table and typed columns", async () => {
    const project = await readyProject();
    await tryCreate(project);
    await api.jobs.idle();
    for (const which of ["source", "destination"] as const) {
      const db = new Database(projectDatabasePath(api.dataDir, project.id, which));
      try {
        expect(db.prepare("select name from sqlite_master where type = 'table' order by name").pluck().all()).toEqual(["Customers", "Orders"]);
        const info = db.prepare(`pragma table_info("Customers")`).all() as { name: string; type: string; notnull: number; pk: number }[];
        expect(info.map((c) => [c.name, c.type, c.notnull, c.pk])).toEqual([
          ["CustomerId", "INTEGER", 1, 1],
          ["Name", "TEXT", 1, 0],
          ["Balance", "NUMERIC(12,2)", 0, 0],
          ["Since", "TEXT", 0, 0],
        ]);
        const insert = db.prepare(`insert into "Customers" ("CustomerId", "Name", "Balance", "Since") values (?, ?, ?, ?)`);
        insert.run(1, "Ann", 10.5, "2024-05-01");
        expect(() => insert.run(2, "Much too long", 1, null)).toThrow(/CHECK constraint failed/);
        expect(() => insert.run(3, "Bob", 1, "2024-13-01")).toThrow(/CHECK constraint failed/);
      } finally {
        db.close();
      }
    }
  });

  it("refuses a second start while the first job runs (409), and shows the running job and its steps", async () => {
    const project = await readyProject();
    const held = gate();
    api.jobs.hooks.beforeStep = async (step) => {
      if (step.projectId === project.id && step.name === DATABASE_CREATION_STEPS.source) await held.promise;
    };
    expect((await tryCreate(project)).status).toBe(202);
    await waitFor(async () => (await jobsOf(project)).jobs[0]?.steps[1]?.status === "Started");

    const second = await tryCreate(project);
    expect(second.status).toBe(409);
    expect(((await second.json()) as { errors: string[] }).errors[0]).toMatch(/^The project is locked \(DatabaseCreation\)/);

    const running = await jobsOf(project);
    expect(running).toMatchObject({ isLocked: true, lockReason: "DatabaseCreation", lockState: "Locked" });
    expect(running.jobs[0]).toMatchObject({ status: "IN_PROGRESS", progress: 33 });
    expect(running.jobs[0]!.steps.map((s) => s.status)).toEqual(["Completed", "Started", "Pending"]);

    held.open();
    await api.jobs.idle();
    expect((await jobsOf(project)).jobs[0]!.status).toBe("SUCCESS");
  });

  it("on a failed step: ERROR with the reason, the step Failed, unlocked at DatabaseCreationFailed, no database left; a retry works", async () => {
    const project = await readyProject();
    api.jobs.hooks.beforeStep = (step) => {
      if (step.projectId === project.id && step.name === DATABASE_CREATION_STEPS.destination) throw new Error("disk full");
    };
    expect((await tryCreate(project)).status).toBe(202);
    await api.jobs.idle();

    const failed = await jobsOf(project);
    expect(failed).toMatchObject({ isLocked: false, lockReason: null });
    expect(failed.jobs[0]).toMatchObject({ status: "ERROR", error: "disk full", finishedAt: expect.any(String) });
    expect(failed.jobs[0]!.steps.map((s) => [s.status, s.message])).toEqual([
      ["Completed", null],
      ["Completed", null],
      ["Failed", "disk full"],
    ]);
    expect(await projectNow(project)).toMatchObject({ isLocked: false, status: "DatabaseCreationFailed" });
    // The source was made before the failure; a failed project keeps neither database.
    expect(databaseFiles(project)).toEqual([]);

    api.jobs.hooks = {};
    expect((await tryCreate(project)).status).toBe(202);
    await api.jobs.idle();
    const retried = await jobsOf(project);
    expect(retried.jobs.map((j) => j.status)).toEqual(["SUCCESS", "ERROR"]);
    expect(await projectNow(project)).toMatchObject({ isLocked: false, status: "SetupRestoreDatabaseIncomplete" });
    expect(databaseFiles(project)).toEqual(["destination.sqlite", "source.sqlite"]);
  });

  it("records a dictionary that became unusable after the start as the first step's failure", async () => {
    const project = await readyProject();
    api.jobs.hooks.beforeStep = async (step) => {
      if (step.projectId !== project.id || step.position !== 0) return;
      // A table without columns slipped in between the check and the lock.
      await addProjectTable(api, project.id, { name: "Empty", columns: [] });
    };
    await tryCreate(project);
    await api.jobs.idle();
    const { jobs } = await jobsOf(project);
    expect(jobs[0]).toMatchObject({ status: "ERROR", error: "1 table has no columns: every table needs at least one." });
    expect(jobs[0]!.steps.map((s) => s.status)).toEqual(["Failed", "Pending", "Pending"]);
  });

  it("ends a job its process left running as ERROR, unlocked at DatabaseCreationFailed, when the service restarts", async () => {
    const project = await readyProject();
    const held = gate();
    api.jobs.hooks.beforeStep = async (step) => {
      if (step.projectId === project.id && step.name === DATABASE_CREATION_STEPS.source) await held.promise;
    };
    expect((await tryCreate(project)).status).toBe(202);
    await waitFor(async () => (await jobsOf(project)).jobs[0]?.steps[1]?.status === "Started");

    // The "kill": this process's runner never finishes the job; a new one starts on the same database.
    const ended = await recoverInterruptedJobs(api.db);
    expect(ended).toHaveLength(1);
    const restarted = api.restartedApp();
    const after = await jobsOf(project, restarted);
    expect(after).toMatchObject({ isLocked: false, lockReason: null, lockState: "Unlocked" });
    expect(after.jobs[0]).toMatchObject({ status: "ERROR", error: INTERRUPTED_MESSAGE });
    expect(after.jobs[0]!.steps.map((s) => [s.status, s.message])).toEqual([
      ["Completed", null],
      ["Failed", INTERRUPTED_MESSAGE],
      ["Pending", null],
    ]);
    expect(await projectNow(project)).toMatchObject({ isLocked: false, status: "DatabaseCreationFailed" });

    // Should the old runner wake up after all, it cannot revive the job it lost.
    held.open();
    await api.jobs.idle();
    expect((await jobsOf(project, restarted)).jobs[0]).toMatchObject({ status: "ERROR", error: INTERRUPTED_MESSAGE });
    expect(await projectNow(project)).toMatchObject({ isLocked: false, status: "DatabaseCreationFailed" });

    // And the retry on the new process works.
    expect((await tryCreate(project, restarted)).status).toBe(202);
    await waitFor(async () => (await jobsOf(project, restarted)).jobs[0]?.status === "SUCCESS");
    expect(await projectNow(project)).toMatchObject({ status: "SetupRestoreDatabaseIncomplete" });
  });

  describe("at restart, removes what failed and interrupted jobs left in the data folder", () => {
    const folderOf = (project: Project) => path.dirname(projectDatabasePath(api.dataDir, project.id, "source"));
    /** What a process killed mid-creation leaves: the temporary database and SQLite's journal beside it. */
    function leaveTemporaryFiles(project: Project, kind: "source" | "destination") {
      fs.mkdirSync(folderOf(project), { recursive: true });
      const temporary = `${projectDatabasePath(api.dataDir, project.id, kind)}.0a1b2c3d4e5f.tmp`;
      fs.writeFileSync(temporary, "half a database");
      fs.writeFileSync(`${temporary}-journal`, "its journal");
    }
    const tablesOf = (project: Project, kind: "source" | "destination") => {
      const db = new Database(projectDatabasePath(api.dataDir, project.id, kind), { readonly: true });
      try {
        return db.prepare("select name from sqlite_master where type = 'table' order by name").pluck().all();
      } finally {
        db.close();
      }
    };

    it("temporary files and the databases of a creation killed midway; a healthy project's databases stay; the retry starts clean", async () => {
      const healthy = await readyProject();
      await tryCreate(healthy);
      await api.jobs.idle();
      expect(await projectNow(healthy)).toMatchObject({ status: "SetupRestoreDatabaseIncomplete" });
      const healthyBefore = databaseFiles(healthy).map((name) => [name, fs.statSync(path.join(folderOf(healthy), name)).mtimeMs]);

      // Killed while creating the destination: the source is complete, the destination half made.
      const killed = await readyProject();
      const held = gate();
      api.jobs.hooks.beforeStep = async (step) => {
        if (step.projectId === killed.id && step.name === DATABASE_CREATION_STEPS.destination) await held.promise;
      };
      try {
        expect((await tryCreate(killed)).status).toBe(202);
        await waitFor(async () => (await jobsOf(killed)).jobs[0]?.steps[2]?.status === "Started");
        leaveTemporaryFiles(killed, "destination");
        expect(databaseFiles(killed)).toEqual(["destination.sqlite.0a1b2c3d4e5f.tmp", "destination.sqlite.0a1b2c3d4e5f.tmp-journal", "source.sqlite"]);

        // Failed earlier, but its process died before the failure's clean-up ran: both databases left.
        const failedEarlier = await readyProject();
        await tryCreate(failedEarlier);
        await waitFor(async () => (await jobsOf(failedEarlier)).jobs[0]?.status === "SUCCESS");
        await api.db.updateTable("projects").set({ status: "DatabaseCreationFailed" }).where("id", "=", failedEarlier.id).execute();
        leaveTemporaryFiles(failedEarlier, "source");

        // A temporary file of a healthy project (a creation killed while retried, say) goes too.
        leaveTemporaryFiles(healthy, "source");

        const ended = await recoverInterruptedJobs(api.db, { dataDir: api.dataDir });
        expect(ended).toHaveLength(1);
        expect(await projectNow(killed)).toMatchObject({ isLocked: false, status: "DatabaseCreationFailed" });
        expect(databaseFiles(killed)).toEqual([]);
        expect(databaseFiles(failedEarlier)).toEqual([]);
        expect(databaseFiles(healthy).map((name) => [name, fs.statSync(path.join(folderOf(healthy), name)).mtimeMs])).toEqual(healthyBefore);
        expect(tablesOf(healthy, "source")).toEqual(["Customers", "Orders"]);
        expect(tablesOf(healthy, "destination")).toEqual(["Customers", "Orders"]);

        // The killed process never comes back; a restarted one retries from a clean folder.
        const restarted = api.restartedApp();
        expect((await tryCreate(killed, restarted)).status).toBe(202);
        await waitFor(async () => (await jobsOf(killed, restarted)).jobs[0]?.status === "SUCCESS");
        expect(databaseFiles(killed)).toEqual(["destination.sqlite", "source.sqlite"]);
      } finally {
        // Should the old runner wake up after all and fail, the clean-up of a job it no longer owns is not its to do.
        held.fail(new Error("disk full"));
      }
      await api.jobs.idle();
      expect(databaseFiles(killed)).toEqual(["destination.sqlite", "source.sqlite"]);
    });

    it("but never the files of a project a job is still running on, nor files written since the recovery started", async () => {
      const running = await readyProject();
      const held = gate();
      api.jobs.hooks.beforeStep = async (step) => {
        if (step.projectId === running.id && step.name === DATABASE_CREATION_STEPS.destination) await held.promise;
      };
      try {
        await tryCreate(running);
        await waitFor(async () => (await jobsOf(running)).jobs[0]?.steps[2]?.status === "Started");
        leaveTemporaryFiles(running, "destination");

        // A failed project another process is retrying right now: its files are newer than `before`.
        const retried = await readyProject();
        await api.db.updateTable("projects").set({ status: "DatabaseCreationFailed" }).where("id", "=", retried.id).execute();
        leaveTemporaryFiles(retried, "source");
        const before = new Date(Date.now() - 60_000);
        for (const name of databaseFiles(retried)) fs.utimesSync(path.join(folderOf(retried), name), new Date(), new Date(before.getTime() + 30_000));

        // The multi-process sweep: the running job's heartbeat is fresh, so it is not ended.
        expect(await recoverInterruptedJobs(api.db, { staleBefore: before, dataDir: api.dataDir })).toEqual([]);
        expect(databaseFiles(running)).toEqual(["destination.sqlite.0a1b2c3d4e5f.tmp", "destination.sqlite.0a1b2c3d4e5f.tmp-journal", "source.sqlite"]);
        expect(databaseFiles(retried)).toEqual(["source.sqlite.0a1b2c3d4e5f.tmp", "source.sqlite.0a1b2c3d4e5f.tmp-journal"]);
      } finally {
        held.open();
      }
      await api.jobs.idle();
      expect((await jobsOf(running)).jobs[0]!.status).toBe("SUCCESS");
    });
  });

  it("leaves recent jobs alone when asked only for stale ones (the multi-process sweep)", async () => {
    const project = await readyProject();
    const held = gate();
    api.jobs.hooks.beforeStep = async (step) => {
      if (step.projectId === project.id) await held.promise;
    };
    await tryCreate(project);
    expect(await recoverInterruptedJobs(api.db, { staleBefore: new Date(Date.now() - 60_000) })).toEqual([]);
    expect((await projectNow(project)).isLocked).toBe(true);
    held.open();
  });

  describe("refuses to start (409) with the reason", () => {
    it("when the dictionary has no table, or a table without columns", async () => {
      const project = await makeProject(api, owner, { companyId: birch.id, applicationId });
      await api.db.updateTable("projects").set({ status: "SetupUploadTypeIncomplete", upload_type: "SingleFile" }).where("id", "=", project.id).execute();
      let res = await tryCreate(project);
      expect(res.status).toBe(409);
      expect(((await res.json()) as { errors: string[] }).errors).toEqual(["The data dictionary has no tables: add at least one."]);

      await addProjectTable(api, project.id, { name: "Empty", columns: [] });
      res = await tryCreate(project);
      expect(((await res.json()) as { errors: string[] }).errors[0]).toMatch(/1 table has no columns/);
      expect((await jobsOf(project)).jobs).toEqual([]);
    });

    it("without an upload type, or flat-file parameters for a FlatFile project", async () => {
      const project = await readyProject("FlatFile");
      await api.db.updateTable("projects").set({ upload_type: null }).where("id", "=", project.id).execute();
      const res = await tryCreate(project);
      expect(res.status).toBe(409);
      expect(((await res.json()) as { errors: string[] }).errors[0]).toBe("Choose an upload type first. Set the flat file parameters first.");
    });

    it("from a status other than SetupUploadTypeIncomplete or DatabaseCreationFailed", async () => {
      const project = await readyProject();
      await api.db.updateTable("projects").set({ status: "Active" }).where("id", "=", project.id).execute();
      const res = await tryCreate(project);
      expect(res.status).toBe(409);
      expect(((await res.json()) as { errors: string[] }).errors[0]).toBe("The databases cannot be created while the project's status is Active.");
    });
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5_000) {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}
