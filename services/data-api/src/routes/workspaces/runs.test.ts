import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_COMPANIES } from "../../../../../scripts/demo-data.ts";
import type { RunDetails, RunStep } from "../../../../../contracts/runs.ts";
import type { Template } from "../../../../../contracts/templates.ts";
import { TEST_DATABASE_KINDS, TEST_POSTGRES_ADMIN_URL } from "../../../../shared/testing/databases.ts";
import { asProjectOwner, databaseNameOf } from "../../data-plane/project-databases.ts";
import { SERVER_LOST_MESSAGE } from "../../data-plane/server-lost.ts";
import { TEST_DATABASE_SERVER, USERS, createTestApi, type TestApi } from "../../testing/harness.ts";
import { addProjectTable, column, loadableProject, makeApplication, makeMappingProject, makeProject } from "../../testing/project-fixtures.ts";
import { recoverInterruptedJobs } from "../../jobs/recover.ts";
import { RERUN_AGAIN_MESSAGE, TEST_RUN_RERUN_MESSAGE } from "../../runs/run-jobs.ts";
import { finishRun, finishSteps, getRun, insertRun, setRunJob, setTableCounts, startStep, type StepResult } from "../../repositories/runs.ts";

const [, , birch] = DEMO_COMPANIES;

describe.skipIf(!TEST_POSTGRES_ADMIN_URL).each(TEST_DATABASE_KINDS)("runs on %s", (kind) => {
  let api: TestApi;
  let owner: string;
  let applicationId: string;
  beforeAll(async () => {
    api = await createTestApi(kind);
    owner = await api.tokenFor(USERS.clientAdmin);
    applicationId = (await makeApplication(api, birch.id)).id;
  });
  afterAll(() => api?.close());

  /** An Active project with source rows and one template of the given scripts (level "Load"), in order. */
  async function projectWith(scripts: { name: string; sql: string }[]) {
    const project = await loadableProject(api, owner, { companyId: birch.id, applicationId, sourceType: "BackUp" });
    await asProjectOwner(api.dataPlane, TEST_DATABASE_SERVER, project.id, (c) =>
      c.query(`insert into source."Customers" values (1, 'A', 10, null), (2, 'B', 20, null), (3, 'C', 30, null)`),
    );
    await api.db.updateTable("projects").set({ status: "Active" }).where("id", "=", project.id).execute();
    const base = `/api/v1/projects/${project.id}/templates`;
    let t: Template = (await api.send("POST", base, owner, { name: "Main", type: "Core" })).body;
    t = (await api.send("POST", `${base}/${t.id}/levels`, owner, { version: t.version, name: "Load" })).body;
    for (const s of scripts) {
      const created = await api.send("POST", `${base}/${t.id}/levels/${t.levels[0]!.id}/scripts`, owner, { version: t.version, ...s });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      t = (await api.get(`${base}/${t.id}`, owner)).body;
    }
    return { project, template: t };
  }
  const start = (projectId: string, body: object) => api.send("POST", `/api/v1/projects/${projectId}/run`, owner, { onError: "stop", ...body });
  async function finished(projectId: string, runId: string): Promise<RunDetails> {
    await api.jobs.idle();
    return (await api.get(`/api/v1/projects/${projectId}/runs/${runId}`, owner)).body;
  }
  const jobProgress = async (projectId: string, jobId: string): Promise<number | undefined> =>
    ((await api.get(`/api/v1/projects/${projectId}/jobs`, owner)).body.jobs as { id: string; progress: number }[]).find((j) => j.id === jobId)?.progress;
  const destinationCustomers = async (projectId: string) =>
    (await asProjectOwner(api.dataPlane, TEST_DATABASE_SERVER, projectId, (c) => c.query(`select count(*)::int as n from destination."Customers"`))).rows[0].n;

  it("a Full run executes the scripts in order, each in its own transaction, recording rows, notices and the destination's counts", async () => {
    const { project } = await projectWith([
      { name: "Customers", sql: `insert into destination."Customers" select * from source."Customers";` },
      { name: "Warn", sql: `do $$ begin raise warning 'Codes were trimmed'; end $$;\nupdate "Customers" set "Code" = lower("Code") where "CustomerId" > 1;` },
    ]);
    const started = await start(project.id, { type: "Full" });
    expect(started.status).toBe(202);
    expect(started.body.run).toMatchObject({ type: "Full", status: "IN_PROGRESS", stepCount: 2 });
    const run = await finished(project.id, started.body.run.id);
    expect(run.status).toBe("CompletedWithWarning");
    expect(run.steps.map((s) => [s.scriptName, s.status, s.rowsAffected, s.scriptVersion])).toEqual([
      ["Customers", "Completed", 3, 1],
      ["Warn", "Completed", 2, 1],
    ]);
    expect(run.steps[1]!.notices).toEqual(["WARNING: Codes were trimmed"]);
    expect(run.steps[0]!.sql).toContain('insert into destination."Customers"');
    expect(run.tables.find((t) => t.table === "Customers")).toMatchObject({ rowsBefore: 0, rows: 3, previousRows: null });
    expect(await destinationCustomers(project.id)).toBe(3);
    expect((await api.get(`/api/v1/projects/${project.id}`, owner)).body).toMatchObject({ status: "Active", isLocked: false });
    // The audit log's entry of the start names the run, for its page to be reached from there.
    const audit = await api.get(`/api/v1/audit-log?workspace=${project.id}&contains=%2Frun`, await api.tokenFor(USERS.superAdmin));
    expect(audit.body.items).toEqual([
      expect.objectContaining({ target: "POST /api/v1/projects/:id/run", summary: expect.objectContaining({ type: "Full", runId: run.id, jobId: run.jobId }) }),
    ]);
  });

  it("a run commits the control plane once as it starts (the run, its steps, its job and the lock) and once as it ends (the last step results, the table counts, the run's end and its job's)", async () => {
    const { project } = await projectWith([{ name: "Customers", sql: `insert into destination."Customers" select * from source."Customers";` }]);
    // Each commit of the control plane waits for the disk: a run of many small scripts felt each one.
    const transaction = vi.spyOn(api.db, "transaction");
    try {
      const started = await start(project.id, { type: "Full" });
      expect(started.status).toBe(202);
      const run = await finished(project.id, started.body.run.id);
      expect(run.status).toBe("SUCCESS");
      expect(run.steps.map((s) => [s.status, s.rowsAffected])).toEqual([["Completed", 3]]);
      expect(run.tables.find((t) => t.table === "Customers")).toMatchObject({ rowsBefore: 0, rows: 3 });
      // The start; the job's step Started; the end. Was five, and a statement of its own naming the run's job.
      expect(transaction).toHaveBeenCalledTimes(3);
    } finally {
      transaction.mockRestore();
    }
  });

  it("counts the rows a create table … as and a select … into stored as rows changed, in a Test run and a Full one; a plain select's rows are not", async () => {
    const { project } = await projectWith([
      { name: "Summary", sql: `-- every customer\ncreate table destination.summary as select * from source."Customers";` },
      { name: "Ids", sql: `select "CustomerId" into destination.ids from source."Customers" where "CustomerId" > 1;\nselect count(*) from destination.ids;` },
      { name: "Look", sql: `select * from source."Customers" as c;` },
    ]);
    for (const type of ["Test", "Full"]) {
      const started = await start(project.id, { type });
      const run = await finished(project.id, started.body.run.id);
      expect(run.steps.map((s) => [s.scriptName, s.status, s.rowsAffected])).toEqual([
        ["Summary", "Completed", 3],
        ["Ids", "Completed", 2],
        ["Look", "Completed", null],
      ]);
    }
  });

  it("a project's scripts join the value maps of the mapping project it names, as tables of schema maps", async () => {
    const script = `insert into destination."Customers"\nselect s."CustomerId", coalesce(m.target_value, s."Code"), s."Balance", s."Since"\nfrom source."Customers" s left join maps.codes_code m on m.source_value = s."Code";`;
    const { project } = await projectWith([{ name: "Translate codes", sql: script }]);
    // Without a mapping project the table does not exist: the preflight says so, nothing runs.
    const refused = await start(project.id, { type: "Full" });
    expect(refused.status).toBe(409);
    expect(refused.body.errors.join(" ")).toContain("Table maps.codes_code does not exist.");

    // Birch's mapping project: table codes, its column code translated (A → Alpha, B → Beta; C unmapped).
    const admin = await api.tokenFor(USERS.superAdmin);
    const mapping = await makeMappingProject(api, admin, { companyId: birch.id, applicationId });
    const { tableId } = await addProjectTable(api, mapping.id, { name: "Codes", columns: [column("Code", "nvarchar", { length: 10 })] });
    const table = (await api.get(`/api/v1/mapping-projects/${mapping.id}/mapping-tables/${tableId}`, admin)).body;
    const code = table.columns[0];
    await api.send("PUT", `/api/v1/mapping-projects/${mapping.id}/mapping-columns/${code.id}/settings`, admin, { version: 0, translate: true });
    await api.send("POST", `/api/v1/mapping-projects/${mapping.id}/mapping-columns/${code.id}/values`, admin, {
      version: 1,
      values: [
        { sourceValue: "A", targetValue: "Alpha" },
        { sourceValue: "B", targetValue: "Beta" },
        { sourceValue: "C", targetValue: null },
      ],
    });
    // Another company's mapping project, or a project that is none, cannot be named.
    const current = (await api.get(`/api/v1/projects/${project.id}`, owner)).body;
    const wrong = await api.send("PATCH", `/api/v1/projects/${project.id}`, owner, { version: current.version, mappingProjectId: project.id });
    expect(wrong.status).toBe(400);
    expect(wrong.body.fieldErrors.mappingProjectId).toEqual(["Choose a translation mapping project of this company."]);
    const linked = await api.send("PATCH", `/api/v1/projects/${project.id}`, owner, { version: current.version, mappingProjectId: mapping.id });
    expect(linked.body.mappingProjectId).toBe(mapping.id);

    const started = await start(project.id, { type: "Full" });
    expect(started.status).toBe(202);
    const run = await finished(project.id, started.body.run.id);
    expect(run.status).toBe("SUCCESS");
    const codes = await asProjectOwner(api.dataPlane, TEST_DATABASE_SERVER, project.id, (c) =>
      c.query<{ code: string }>(`select "Code" as code from destination."Customers" order by "CustomerId"`),
    );
    expect(codes.rows.map((r) => r.code)).toEqual(["Alpha", "Beta", "C"]);

    // Unlinked: the next run drops the maps, and a script that joins them fails its preflight again.
    const again = (await api.get(`/api/v1/projects/${project.id}`, owner)).body;
    await api.send("PATCH", `/api/v1/projects/${project.id}`, owner, { version: again.version, mappingProjectId: null });
    expect((await start(project.id, { type: "Full" })).status).toBe(409);
  });

  it("a Test run changes nothing and reports what it would have left", async () => {
    const { project } = await projectWith([{ name: "Customers", sql: `insert into destination."Customers" select * from source."Customers";` }]);
    const started = await start(project.id, { type: "Test" });
    const run = await finished(project.id, started.body.run.id);
    expect(run.status).toBe("SUCCESS");
    expect(run.tables.find((t) => t.table === "Customers")).toMatchObject({ rowsBefore: 0, rows: 3 });
    expect(await destinationCustomers(project.id)).toBe(0);
    // A Full run after it is not set beside the rows the Test rolled back; a Test run after that is set beside the Full run's.
    const full = await finished(project.id, (await start(project.id, { type: "Full" })).body.run.id);
    expect(full.tables.find((t) => t.table === "Customers")).toMatchObject({ rowsBefore: 0, rows: 3, previousRows: null });
    // (Its insert fails on the keys the Full run kept: going on, it still counts.)
    const test = await finished(project.id, (await start(project.id, { type: "Test", onError: "continue" })).body.run.id);
    expect(test.tables.find((t) => t.table === "Customers")).toMatchObject({ rowsBefore: 3, rows: 3, previousRows: 3 });
  });

  it("a failing script stops the run at its line (the others Pending), or the run goes on; rerun from the failed step", async () => {
    const { project, template } = await projectWith([
      { name: "First", sql: `insert into destination."Customers" select * from source."Customers";` },
      { name: "Broken", sql: `select 1;\nupdate "Customers" set "Code" = null;` },
      { name: "Last", sql: `delete from destination."Orders";` },
    ]);
    const stopped = await finished(project.id, (await start(project.id, { type: "Full" })).body.run.id);
    expect(stopped.status).toBe("ERROR");
    expect(stopped.steps.map((s) => s.status)).toEqual(["Completed", "Failed", "Pending"]);
    expect(stopped.steps[1]).toMatchObject({ errorLine: 2, error: expect.stringMatching(/null value in column "Code"/) });
    expect(stopped.message).toMatch(/^Script Broken failed at line 2: null value/);
    expect(stopped.rerunBy).toBeNull();
    expect(await destinationCustomers(project.id)).toBe(3);

    const going = await finished(project.id, (await start(project.id, { type: "Full", onError: "continue" })).body.run.id);
    expect(going.status).toBe("CompletedWithFailures");
    expect(going.steps.map((s) => s.status)).toEqual(["Failed", "Failed", "Completed"]);

    // Fix the script, then rerun from the failed step of the stopped run: it starts at Broken.
    const broken = template.levels[0]!.scripts[1]!;
    const scriptUrl = `/api/v1/projects/${project.id}/templates/${template.id}/scripts/${broken.id}`;
    await api.send("POST", `${scriptUrl}/lock`, owner);
    await api.send("PUT", scriptUrl, owner, { baseVersion: 1, sql: `update "Customers" set "Code" = 'Z';` });
    const rerun = await finished(project.id, (await start(project.id, { type: "Full", rerunOf: stopped.id })).body.run.id);
    expect(rerun).toMatchObject({ status: "SUCCESS", rerunOf: stopped.id });
    expect(rerun.steps.map((s) => [s.scriptName, s.scriptVersion, s.status])).toEqual([
      ["Broken", 2, "Completed"],
      ["Last", 1, "Completed"],
    ]);
    // Rerun again (a double click, Back and resend): refused, no run started, its scripts not run twice.
    const runsNow = (await api.get(`/api/v1/projects/${project.id}/runs`, owner)).body.total;
    expect(await start(project.id, { type: "Full", rerunOf: stopped.id })).toMatchObject({ status: 409, body: { errors: [RERUN_AGAIN_MESSAGE] } });
    await api.jobs.idle();
    expect((await api.get(`/api/v1/projects/${project.id}/runs`, owner)).body.total).toBe(runsNow);
    // The stopped run tells it was rerun, and by which run (its page links to it in place of Rerun); its progress too.
    expect((await finished(project.id, stopped.id)).rerunBy).toEqual({ id: rerun.id, createdAt: rerun.createdAt });
    expect((await api.get(`/api/v1/projects/${project.id}/runs/${stopped.id}/progress`, owner)).body.rerunBy).toEqual({
      id: rerun.id,
      createdAt: rerun.createdAt,
    });
    expect(rerun.rerunBy).toBeNull();

    const list = await api.get(`/api/v1/projects/${project.id}/runs?status=ERROR&status=SUCCESS`, owner);
    expect(list.body.items.map((r: { id: string }) => r.id)).toEqual([rerun.id, stopped.id]);
    // Sorted by when they started, oldest first when asked; an unknown sort is refused.
    const oldestFirst = await api.get(`/api/v1/projects/${project.id}/runs?sort=createdAt`, owner);
    expect(oldestFirst.body.items.map((r: { id: string }) => r.id)).toEqual([stopped.id, going.id, rerun.id]);
    expect((await api.get(`/api/v1/projects/${project.id}/runs?sort=type`, owner)).status).toBe(400);
    expect(list.body.items[1]).toMatchObject({ failedSteps: 1, stepCount: 3 });

    // A failed Test run kept nothing of the scripts before its failure: it is never rerun from there.
    // (First's insert fails on the keys the Full runs kept.)
    const failedTest = await finished(project.id, (await start(project.id, { type: "Test" })).body.run.id);
    expect(failedTest.steps.map((s) => s.status)).toEqual(["Failed", "Pending", "Pending"]);
    expect(await start(project.id, { type: "Test", rerunOf: failedTest.id })).toMatchObject({ status: 409, body: { errors: [TEST_RUN_RERUN_MESSAGE] } });
  });

  it("a rerun of a run that went on after its failures runs again only the steps that did not complete: what completed is not done twice", async () => {
    const { project, template } = await projectWith([
      { name: "Broken", sql: `insert into destination."Customers" ("CustomerId") values (1);` },
      { name: "Add order", sql: `insert into destination."Orders" select coalesce(max("OrderId"), 0) + 1, 'added' from destination."Orders";` },
      { name: "Also broken", sql: `insert into destination."Customers" ("CustomerId") values (2);` },
    ]);
    const orders = async () =>
      (await asProjectOwner(api.dataPlane, TEST_DATABASE_SERVER, project.id, (c) => c.query(`select count(*)::int as n from destination."Orders"`))).rows[0].n;
    const going = await finished(project.id, (await start(project.id, { type: "Full", onError: "continue" })).body.run.id);
    expect(going.steps.map((s) => s.status)).toEqual(["Failed", "Completed", "Failed"]);
    expect(await orders()).toBe(1);
    const [broken, , alsoBroken] = template.levels[0]!.scripts;
    const fix = async (script: { id: string }, sql: string) => {
      const scriptUrl = `/api/v1/projects/${project.id}/templates/${template.id}/scripts/${script.id}`;
      await api.send("POST", `${scriptUrl}/lock`, owner);
      expect((await api.send("PUT", scriptUrl, owner, { baseVersion: 1, sql })).status).toBe(200);
    };
    await fix(broken!, `insert into destination."Customers" values (1, 'A', 10, null);`);
    // The rerun runs the failed steps, not Add order, which completed and kept its row.
    const rerun = await finished(project.id, (await start(project.id, { type: "Full", rerunOf: going.id })).body.run.id);
    expect(rerun.steps.map((s) => [s.scriptName, s.scriptVersion, s.status])).toEqual([
      ["Broken", 2, "Completed"],
      ["Also broken", 1, "Failed"],
    ]);
    expect(await orders()).toBe(1);
    // Its own rerun, the last script fixed: that script alone, Add order still not run again.
    await fix(alsoBroken!, `insert into destination."Customers" values (2, 'B', 20, null);`);
    const again = await finished(project.id, (await start(project.id, { type: "Full", rerunOf: rerun.id })).body.run.id);
    expect(again).toMatchObject({ status: "SUCCESS", rerunOf: rerun.id });
    expect(again.steps.map((s) => [s.scriptName, s.scriptVersion, s.status])).toEqual([["Also broken", 2, "Completed"]]);
    expect(await orders()).toBe(1);
    expect(await destinationCustomers(project.id)).toBe(2);
  });

  it("a run narrowed to a template, level or script removed meanwhile is refused, nothing started, where it ran the rest unsaid", async () => {
    const { project, template } = await projectWith([{ name: "Customers", sql: `select 1;` }]);
    const base = `/api/v1/projects/${project.id}/templates`;
    let gone: Template = (await api.send("POST", base, owner, { name: "Gone", type: "Core" })).body;
    gone = (await api.send("POST", `${base}/${gone.id}/levels`, owner, { version: gone.version, name: "Old" })).body;
    const goneLevel = gone.levels[0]!.id;
    expect((await api.send("DELETE", `${base}/${gone.id}?version=${gone.version}`, owner)).status).toBe(200);
    const runs = async () => (await api.get(`/api/v1/projects/${project.id}/runs`, owner)).body.total;
    for (const [scope, what] of [
      [{ templateIds: [template.id, gone.id] }, "A template you chose is"],
      [{ levelIds: [template.levels[0]!.id, goneLevel] }, "A level you chose is"],
      [{ scriptId: "a-script-of-elsewhere" }, "A script you chose is"],
      [{ templateIds: [template.id, gone.id, "another-gone-one"] }, "2 templates you chose are"],
    ] as const) {
      const refused = await start(project.id, { type: "Test", ...scope });
      expect(refused.status, JSON.stringify(scope)).toBe(409);
      expect(refused.body.errors).toEqual([`${what} no longer in the project (removed meanwhile): nothing was started. Choose again.`]);
    }
    expect(await runs()).toBe(0);
    // What is there still runs, a tick given twice once.
    const started = await start(project.id, { type: "Test", templateIds: [template.id, template.id] });
    expect(started.status).toBe(202);
    expect((await finished(project.id, started.body.run.id)).steps.map((s) => s.scriptName)).toEqual(["Customers"]);
  });

  it("a run is narrowed to at most 100 templates and 100 levels: more is a 400 that names the field, nothing started", async () => {
    const { project, template } = await projectWith([{ name: "Customers", sql: `select 1;` }]);
    const many = Array.from({ length: 100 }, (_, i) => `more-${i}`);
    for (const [body, message] of [
      [{ templateIds: [template.id, ...many] }, "Choose at most 100 templates"],
      [{ levelIds: [template.levels[0]!.id, ...many] }, "Choose at most 100 levels"],
    ] as const) {
      const refused = await start(project.id, { type: "Test", ...body });
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(JSON.stringify(refused.body)).toContain(message);
    }
    expect((await api.get(`/api/v1/projects/${project.id}/runs`, owner)).body.total).toBe(0);
  });

  it("a Full run's preflight lists every script that names a table that does not exist, and runs nothing", async () => {
    const { project } = await projectWith([
      { name: "Good", sql: `insert into destination."Customers" select * from source."Customers";` },
      { name: "Typo", sql: `select 1;\ninsert into destination."Customer" select * from source."Customers";` },
    ]);
    const refused = await start(project.id, { type: "Full" });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("preflight_failed");
    expect(refused.body.errors).toEqual([
      "The run was not started: 1 problem in its scripts.",
      "Main / Load / Typo, line 2: Table destination.Customer does not exist.",
    ]);
    expect((await api.get(`/api/v1/projects/${project.id}/runs`, owner)).body.total).toBe(0);
    expect(await destinationCustomers(project.id)).toBe(0);
  });

  it("a run's page of steps comes from SQL: in order, a page at a time, filtered by status, with the run's own counts", async () => {
    // Twelve scripts, every third failing (On error: continue).
    const scripts = Array.from({ length: 12 }, (_, i) => ({
      name: `Step ${i + 1}`,
      sql: (i + 1) % 3 === 0 ? `select * from destination."Missing${i + 1}";` : `select ${i + 1};`,
    }));
    const { project } = await projectWith(scripts);
    const runId = (await start(project.id, { type: "Test", onError: "continue" })).body.run.id;
    const first = await finished(project.id, runId);
    // The default: the first 25 steps of all of them.
    expect(first.steps.map((s) => s.position)).toEqual(scripts.map((_, i) => i + 1));
    expect(first).toMatchObject({ stepCount: 12, failedSteps: 4, stepPage: { total: 12, page: 1, pageSize: 25 } });
    const runUrl = `/api/v1/projects/${project.id}/runs/${runId}`;
    const second: RunDetails = (await api.get(`${runUrl}?page=2&pageSize=10`, owner)).body;
    expect(second.steps.map((s) => [s.position, s.scriptName])).toEqual([
      [11, "Step 11"],
      [12, "Step 12"],
    ]);
    expect(second).toMatchObject({ stepCount: 12, failedSteps: 4, stepPage: { total: 12, page: 2, pageSize: 10 } });
    const failed: RunDetails = (await api.get(`${runUrl}?status=Failed`, owner)).body;
    expect(failed.steps.map((s) => [s.position, s.status])).toEqual([
      [3, "Failed"],
      [6, "Failed"],
      [9, "Failed"],
      [12, "Failed"],
    ]);
    expect(failed.steps[0]!.error).toMatch(/Missing3/);
    expect(failed.stepPage.total).toBe(4);
    // Past the end: no steps, the total still said; a page size the list does not offer is refused.
    expect((await api.get(`${runUrl}?status=Failed&page=2&pageSize=10`, owner)).body).toMatchObject({ steps: [], stepPage: { total: 4, page: 2 } });
    expect((await api.get(`${runUrl}?pageSize=7`, owner)).status).toBe(400);
    expect((await api.get(`${runUrl}?status=Lost`, owner)).status).toBe(400);
  });

  it("scripts cannot reach past the project: another database, the control plane, pg_authid, COPY TO PROGRAM, CREATE EXTENSION, ALTER SYSTEM, SET ROLE", async () => {
    const attempts = [
      { name: "Authid", sql: `select * from pg_catalog.pg_authid;` },
      { name: "Program", sql: `copy (select 1) to program 'id';` },
      { name: "Extension", sql: `create extension dblink;` },
      { name: "System", sql: `alter system set work_mem = '1GB';` },
      { name: "Role", sql: `set role postgres;` },
      { name: "Other database", sql: `select * from postgres.public.anything;` },
    ];
    const { project } = await projectWith(attempts);
    const run = await finished(project.id, (await start(project.id, { type: "Test", onError: "continue" })).body.run.id);
    expect(run.status).toBe("CompletedWithFailures");
    expect(run.steps.map((s) => [s.scriptName, s.status])).toEqual(attempts.map((a) => [a.name, "Failed"]));
    for (const step of run.steps)
      expect(step.error).toMatch(
        /permission denied|must be superuser|not allowed|cannot run inside a transaction block|cross-database references are not implemented|does not exist/,
      );
  });

  it("Cancel stops a long statement within 2 s and rolls the script back; the statement timeout stops an endless one", async () => {
    const { project } = await projectWith([{ name: "Endless", sql: `insert into destination."Orders" values (1, 'x');\nselect pg_sleep(60);` }]);
    const started = await start(project.id, { type: "Full" });
    const jobId = started.body.run.jobId as string;
    await new Promise((r) => setTimeout(r, 500));
    const cancelledAt = Date.now();
    await api.send("POST", `/api/v1/projects/${project.id}/jobs/${jobId}/cancel`, owner);
    const run = await finished(project.id, started.body.run.id);
    expect(Date.now() - cancelledAt).toBeLessThan(2_000);
    // ERROR (spec §4 has no other end for a stopped run), saying it was cancelled and what a Full run kept.
    expect(run).toMatchObject({ status: "ERROR", message: expect.stringMatching(/^Cancelled: the script that was running was rolled back/) });
    expect(run.steps[0]).toMatchObject({ status: "Failed", error: "Cancelled while it ran: rolled back." });
    const orders = await asProjectOwner(api.dataPlane, TEST_DATABASE_SERVER, project.id, (c) => c.query(`select count(*)::int as n from destination."Orders"`));
    expect(orders.rows[0].n).toBe(0);

    const timing = api.appWith({ runStatementTimeoutSeconds: 1 });
    const res = await timing.request(`/api/v1/projects/${project.id}/run`, {
      method: "POST",
      headers: { authorization: `Bearer ${owner}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "Full" }),
    });
    const timedOut = await finished(project.id, ((await res.json()) as { run: { id: string } }).run.id);
    expect(timedOut.steps[0]).toMatchObject({ status: "Failed", error: "canceling statement due to statement timeout" });
  }, 30_000);

  it("while a long script runs, the scripts before it show their results, not Pending, and the job's progress counts them", async () => {
    const { project } = await projectWith([
      { name: "Quick", sql: `insert into destination."Customers" select * from source."Customers";` },
      { name: "Quicker", sql: `select 1;` },
      { name: "Quickest", sql: `select 2;` },
      { name: "Slow", sql: `select pg_sleep(60);` },
    ]);
    const started = await start(project.id, { type: "Full" });
    const runPath = `/api/v1/projects/${project.id}/runs/${started.body.run.id}`;
    try {
      await vi.waitFor(async () => expect((await api.get(runPath, owner)).body.steps[3].status).toBe("Started"), { timeout: 5_000 });
      const running: RunDetails = (await api.get(runPath, owner)).body;
      expect(running.steps.map((s) => [s.scriptName, s.status, s.rowsAffected])).toEqual([
        ["Quick", "Completed", 3],
        ["Quicker", "Completed", null],
        ["Quickest", "Completed", null],
        ["Slow", "Started", null],
      ]);
      // Three of four scripts done: 75 %, where the quarter-second throttle had left it where it last spoke (25 % after the first).
      await vi.waitFor(async () => expect(await jobProgress(project.id, started.body.run.jobId as string)).toBe(75), { timeout: 2_000 });
    } finally {
      await api.send("POST", `/api/v1/projects/${project.id}/jobs/${started.body.run.jobId as string}/cancel`, owner);
      await finished(project.id, started.body.run.id);
    }
  }, 30_000);

  it("a run whose database server went away says so on the run and its script, and keeps nothing of that script", async () => {
    const { project } = await projectWith([{ name: "Sleepy", sql: `insert into destination."Orders" values (1, 'x');\nselect pg_sleep(60);` }]);
    const started = await start(project.id, { type: "Full" });
    const runPath = `/api/v1/projects/${project.id}/runs/${started.body.run.id}`;
    await vi.waitFor(async () => expect((await api.get(runPath, owner)).body.steps[0].status).toBe("Started"), { timeout: 5_000 });
    // As PostgreSQL does to every session when it stops or is killed: the run's own session is ended.
    await api.dataPlane.withAdmin(TEST_DATABASE_SERVER, "postgres", (client) =>
      client.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query like '%pg_sleep(60)%' and pid <> pg_backend_pid()`, [
        databaseNameOf(project.id),
      ]),
    );
    const run = await finished(project.id, started.body.run.id);
    // In words a user reads, not pg's ("terminating connection due to administrator command").
    expect(run).toMatchObject({ status: "ERROR", message: `Script Sleepy failed at line 2: ${SERVER_LOST_MESSAGE}` });
    expect(run.steps[0]).toMatchObject({ status: "Failed", error: SERVER_LOST_MESSAGE });
    const orders = await asProjectOwner(api.dataPlane, TEST_DATABASE_SERVER, project.id, (c) => c.query(`select count(*)::int as n from destination."Orders"`));
    expect(orders.rows[0].n).toBe(0);
    expect((await api.get(`/api/v1/projects/${project.id}`, owner)).body).toMatchObject({ isLocked: false });
  }, 30_000);

  it("a force unlock ends the run with its reason, at once, and stops its statement", async () => {
    const { project } = await projectWith([{ name: "Sleepy", sql: `insert into destination."Orders" values (1, 'x');\nselect pg_sleep(60);` }]);
    const started = await start(project.id, { type: "Full" });
    const runPath = `/api/v1/projects/${project.id}/runs/${started.body.run.id}`;
    await vi.waitFor(async () => expect((await api.get(runPath, owner)).body.steps[0].status).toBe("Started"), { timeout: 5_000 });
    const admin = await api.tokenFor(USERS.superAdmin);
    const unlockedAt = Date.now();
    expect((await api.send("POST", `/api/v1/projects/${project.id}/force-unlock`, admin, { reason: "the server is moving" })).status).toBe(200);
    // Before the job's process has heard of it: the run's record ends in the unlock's transaction.
    const forced = {
      status: "ERROR",
      message: expect.stringMatching(/^Force-unlocked by .+: the server is moving\. The script that was running was rolled back\.$/),
    };
    expect((await api.get(runPath, owner)).body).toMatchObject(forced);
    const run = await finished(project.id, started.body.run.id);
    expect(Date.now() - unlockedAt).toBeLessThan(2_000);
    expect(run).toMatchObject(forced);
    expect(run.steps[0]).toMatchObject({ status: "Failed" });
    const orders = await asProjectOwner(api.dataPlane, TEST_DATABASE_SERVER, project.id, (c) => c.query(`select count(*)::int as n from destination."Orders"`));
    expect(orders.rows[0].n).toBe(0);
    const history = await api.get(`/api/v1/projects/${project.id}/runs?status=IN_PROGRESS`, owner);
    expect(history.body.items).toEqual([]);
  }, 30_000);

  it("a script saved while a run holds the lock is a new version for the next run; the run keeps the one it started with", async () => {
    const { project, template } = await projectWith([{ name: "Sleepy", sql: `select pg_sleep(60);` }]);
    const started = await start(project.id, { type: "Full" });
    const runPath = `/api/v1/projects/${project.id}/runs/${started.body.run.id}`;
    const base = `/api/v1/projects/${project.id}/templates/${template.id}`;
    const script = template.levels[0]!.scripts[0]!;
    try {
      await vi.waitFor(async () => expect((await api.get(runPath, owner)).body.steps[0].status).toBe("Started"), { timeout: 5_000 });
      // The script's editing lock and a new version go through while the project is locked by the run.
      expect((await api.send("POST", `${base}/scripts/${script.id}/lock`, owner)).status).toBe(200);
      const saved = await api.send("PUT", `${base}/scripts/${script.id}`, owner, { baseVersion: 1, sql: "select 2;" });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body).toMatchObject({ version: 2, sql: "select 2;" });
      // The template's shape is not a script's text: it waits for the run, the lock named in words.
      const level = await api.send("POST", `${base}/levels`, owner, { version: template.version, name: "More" });
      expect(level).toMatchObject({ status: 409, body: { code: "project_locked", errors: [expect.stringContaining("locked (Project run)")] } });
    } finally {
      await api.send("POST", `/api/v1/projects/${project.id}/jobs/${started.body.run.jobId as string}/cancel`, owner);
    }
    const run = await finished(project.id, started.body.run.id);
    expect(run.steps.map((s) => [s.scriptName, s.scriptVersion, s.sql])).toEqual([["Sleepy", 1, "select pg_sleep(60);"]]);
  }, 30_000);

  it("refuses a run while the project is locked, with the lock's reason; another company's run is 404", async () => {
    const { project } = await projectWith([{ name: "One", sql: `select 1;` }]);
    await api.db.updateTable("projects").set({ is_locked: 1, lock_reason: "Backup" }).where("id", "=", project.id).execute();
    const locked = await start(project.id, { type: "Test" });
    expect(locked.status).toBe(409);
    expect(locked.body.errors[0]).toMatch(/backup/i);
    await api.db.updateTable("projects").set({ is_locked: 0, lock_reason: null }).where("id", "=", project.id).execute();
    const analyst = await api.tokenFor(USERS.superAdmin);
    expect((await api.get(`/api/v1/projects/${project.id}/runs/not-a-run`, analyst)).status).toBe(404);
  });
});

describe("runs whose job ended without them", () => {
  it("are ERROR after a restart, the step that was running Failed, the others as they were", async () => {
    const api = await createTestApi("sqlite");
    try {
      const app = await makeApplication(api, birch.id);
      const owner = await api.tokenFor(USERS.clientAdmin);
      const project = await makeProject(api, owner, { companyId: birch.id, applicationId: app.id });
      const steps = ["A", "B"].map((n) => ({ templateName: "T", levelName: "L", scriptId: n, scriptName: n, scriptVersion: 1, sql: "select 1;" }));
      const scope = { templateIds: [], levelIds: [], scriptId: null, fromScriptId: null };
      const runId = await insertRun(api.db, { projectId: project.id, type: "Full", onError: "stop", scope, rerunOf: null, userId: "u", userName: null, steps });
      const now = new Date().toISOString();
      await api.db
        .insertInto("jobs")
        .values({
          id: "job-1",
          project_id: project.id,
          kind: "ProjectRun",
          status: "IN_PROGRESS",
          previous_status: "Active",
          created_by: "u",
          created_at: now,
          heartbeat_at: now,
        })
        .execute();
      await setRunJob(api.db, runId, "job-1");
      await startStep(api.db, runId, 1);
      await recoverInterruptedJobs(api.db);
      const run = (await api.get(`/api/v1/projects/${project.id}/runs/${runId}`, owner)).body as RunDetails;
      expect(run.status).toBe("ERROR");
      expect(run.steps.map((s) => s.status)).toEqual(["Failed", "Pending"]);
      expect(run.steps[0]!.error).toMatch(/restarted: the script that was running was rolled back/);
    } finally {
      await api.close();
    }
  });
});

describe.each(TEST_DATABASE_KINDS)("a run's answer on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api?.close());

  it("says every step's notices, failure and rows and each table's counts beside the Full run before, in three statements", async () => {
    const owner = await api.tokenFor(USERS.clientAdmin);
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId: (await makeApplication(api, birch.id)).id });
    const scope = { templateIds: [], levelIds: [], scriptId: null, fromScriptId: null };
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 28, 9, minute));
    const insert = (type: "Full" | "Test", minute: number, names: string[]) =>
      insertRun(
        api.db,
        {
          projectId: project.id,
          type,
          onError: "stop",
          scope,
          rerunOf: null,
          userId: "u-1",
          userName: "Ana",
          steps: names.map((n) => ({ templateName: "Main", levelName: "Load", scriptId: `s-${n}`, scriptName: n, scriptVersion: 2, sql: `select '${n}';` })),
        },
        at(minute),
      );
    // The Full run before, and a Test run after it whose counts were rolled back: the Full run is set beside the Full one.
    const before = await insert("Full", 0, ["A"]);
    await setTableCounts(api.db, before, [
      { table: "Customers", rowsBefore: 0, rows: 5 },
      { table: "Orders", rowsBefore: 0, rows: 2 },
    ]);
    const test = await insert("Test", 5, ["A"]);
    await setTableCounts(api.db, test, [{ table: "Customers", rowsBefore: 5, rows: 50 }]);
    const runId = await insert("Full", 10, ["A", "B", "C"]);
    // What the steps came to, as written and as the answer must say it.
    const trimmed = {
      status: "Completed",
      rowsAffected: 3,
      durationMs: 12,
      notices: ["NOTICE: trimmed", 'WARNING: "Code" was long'],
      error: null,
      errorLine: null,
    } satisfies StepResult;
    const broken = {
      status: "Failed",
      rowsAffected: null,
      durationMs: 4,
      notices: [],
      error: 'null value in column "Code"',
      errorLine: 2,
    } satisfies StepResult;
    await finishSteps(api.db, runId, [
      { position: 1, result: trimmed, finishedAt: at(11) },
      { position: 2, result: broken, finishedAt: at(11) },
    ]);
    await setTableCounts(api.db, runId, [
      { table: "Customers", rowsBefore: 5, rows: 8 },
      { table: "Orders", rowsBefore: 2, rows: 2 },
      { table: "Returns", rowsBefore: null, rows: 1 },
    ]);
    await finishRun(api.db, runId, "ERROR", "Script B failed at line 2", at(12));

    const step = (position: number, name: string) => ({
      position,
      templateName: "Main",
      levelName: "Load",
      scriptId: `s-${name}`,
      scriptName: name,
      scriptVersion: 2,
      sql: `select '${name}';`,
    });
    const url = `/api/v1/projects/${project.id}/runs/${runId}`;
    const res = await api.get(url, owner);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: runId,
      projectId: project.id,
      jobId: null,
      type: "Full",
      status: "ERROR",
      onError: "stop",
      createdBy: "u-1",
      createdByName: "Ana",
      createdAt: at(10).toISOString(),
      finishedAt: at(12).toISOString(),
      durationMs: 120_000,
      stepCount: 3,
      failedSteps: 1,
      rerunOf: null,
      message: "Script B failed at line 2",
      rerunBy: null,
      stepPage: { total: 3, page: 1, pageSize: 25 },
      steps: [
        { ...step(1, "A"), ...trimmed },
        { ...step(2, "B"), ...broken },
        { ...step(3, "C"), status: "Pending", rowsAffected: null, durationMs: null, notices: [], error: null, errorLine: null },
      ],
      tables: [
        { table: "Customers", rowsBefore: 5, rows: 8, previousRows: 5 },
        { table: "Orders", rowsBefore: 2, rows: 2, previousRows: 2 },
        { table: "Returns", rowsBefore: null, rows: 1, previousRows: null },
      ],
    });
    // Two statuses, a page of one that cannot tell the total: the total is counted.
    const filtered = (await api.get(`${url}?status=Failed&status=Pending&pageSize=10`, owner)).body as RunDetails;
    expect(filtered.steps.map((s) => [s.position, s.status])).toEqual([
      [2, "Failed"],
      [3, "Pending"],
    ]);
    expect(filtered.stepPage).toEqual({ total: 2, page: 1, pageSize: 10 });
    expect((await api.get(`${url}?status=Failed&status=Pending&pageSize=10&page=2`, owner)).body).toMatchObject({ steps: [], stepPage: { total: 2 } });

    // The run's page polls it every second while it runs: the run with its counts, the page of steps, the tables.
    let statements = 0;
    const counting = api.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => (statements++, args.result),
    });
    expect(await getRun(counting, project.id, runId)).toEqual(res.body);
    expect(statements).toBe(3);
  });

  it("…/progress answers what the run's page polls: the run and the same page of steps without their SQL, guarded as the run", async () => {
    const owner = await api.tokenFor(USERS.clientAdmin);
    const applicationId = (await makeApplication(api, birch.id)).id;
    const project = await makeProject(api, owner, { companyId: birch.id, applicationId });
    const long = `select 1;\n${"-- a long script\n".repeat(1000)}`;
    const runId = await insertRun(api.db, {
      projectId: project.id,
      type: "Full",
      onError: "continue",
      scope: { templateIds: [], levelIds: [], scriptId: null, fromScriptId: null },
      rerunOf: null,
      userId: "u-1",
      userName: "Ana",
      steps: ["A", "B", "C"].map((n) => ({ templateName: "Main", levelName: "Load", scriptId: `s-${n}`, scriptName: n, scriptVersion: 1, sql: long })),
    });
    await finishSteps(api.db, runId, [
      {
        position: 1,
        result: { status: "Completed", rowsAffected: 2, durationMs: 5, notices: ["NOTICE: done"], error: null, errorLine: null },
        finishedAt: new Date(),
      },
    ]);
    await startStep(api.db, runId, 2);
    const url = `/api/v1/projects/${project.id}/runs/${runId}`;

    const whole = (await api.get(url, owner)).body as RunDetails;
    const progress = await api.get(`${url}/progress`, owner);
    expect(progress.status).toBe(200);
    // Field for field the run's answer, each step without its SQL.
    expect(progress.body).toEqual({ ...whole, steps: whole.steps.map(({ sql: _sql, ...step }) => step) });
    expect(progress.body.steps.map((s: RunStep) => [s.position, s.status])).toEqual([
      [1, "Completed"],
      [2, "Started"],
      [3, "Pending"],
    ]);
    expect(JSON.stringify(progress.body)).not.toContain("a long script");
    // The page's filter and paging, as the run's.
    expect((await api.get(`${url}/progress?status=Started&pageSize=10`, owner)).body).toMatchObject({
      steps: [{ position: 2, status: "Started" }],
      stepPage: { total: 1, page: 1, pageSize: 10 },
    });
    expect((await api.get(`${url}/progress?pageSize=7`, owner)).status).toBe(400);

    // Guarded as the run: another company's caller, the run under another project, an unknown run: 404.
    expect((await api.get(`${url}/progress`, await api.tokenFor(USERS.viewer))).status).toBe(404);
    const other = await makeProject(api, owner, { companyId: birch.id, applicationId });
    expect((await api.get(`/api/v1/projects/${other.id}/runs/${runId}/progress`, owner)).status).toBe(404);
    expect((await api.get(`/api/v1/projects/${project.id}/runs/not-a-run/progress`, owner)).status).toBe(404);
  });
});
