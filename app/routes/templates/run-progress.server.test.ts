import { afterAll, describe, expect, it, vi } from "vitest";
import type { RunDetails } from "../../../contracts/runs";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { finishRun, finishSteps, insertRun, setRunJob, startStep } from "../../../services/data-api/src/repositories/runs";
import { flashOf } from "~/test/flash-of";
import { startLiveServices } from "~/test/live-services";
import type { RunPoll } from "./run-progress";

/**
 * What a run's page polls every second while the run goes on (…/run-history/{runId}/progress), against
 * the live services: the run and the page's steps as its loader reads them, without their SQL.
 */
const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness, unwrap } = await import("../workspace/test-support");
const { call, api } = await createHarness();
const projectLayout = await import("../workspace/project/layout");
const detailsPage = await import("./run-details");
const progressRoute = await import("./run-progress");

const [, acme, birch] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";

/** A migration project of acme with a run of three long scripts: the first done, the second running. */
async function runningRun(type: "Full" | "Test" = "Full") {
  const application = await api(ANALYST, "POST", "/api/v1/applications", { companyId: acme.id, name: `Runs ${crypto.randomUUID()}`, description: null });
  const project = await api(ANALYST, "POST", "/api/v1/projects", {
    companyId: acme.id,
    name: `Runs ${crypto.randomUUID().slice(0, 8)}`,
    applicationId: application.id,
    sourceType: "BackUp",
    description: null,
  });
  const sql = `select 1;\n${"-- a long script\n".repeat(1000)}`;
  const runId = await insertRun(live.dataApiDb, {
    projectId: project.id,
    type,
    onError: "stop",
    scope: { templateIds: [], levelIds: [], scriptId: null, fromScriptId: null },
    rerunOf: null,
    userId: "u-1",
    userName: "Ana",
    steps: ["A", "B", "C"].map((n) => ({ templateName: "Main", levelName: "Load", scriptId: `s-${n}`, scriptName: n, scriptVersion: 1, sql })),
  });
  await finishSteps(live.dataApiDb, runId, [
    { position: 1, result: { status: "Completed", rowsAffected: 2, durationMs: 5, notices: [], error: null, errorLine: null }, finishedAt: new Date() },
  ]);
  await startStep(live.dataApiDb, runId, 2);
  const at = (page: string, companyId: string = acme.id) => `/migration/projects/${project.id}/templates/run-history/${runId}/${page}?companyId=${companyId}`;
  const options = { params: { projectId: project.id, runId }, middleware: projectLayout.middleware };
  return { at, options, projectId: project.id as string, runId };
}

describe("a run's poll", () => {
  it("answers the page's steps, their statuses as they are now, without their SQL; the page's loader reads it once", async () => {
    const { at, options } = await runningRun();
    const page = (await call(ANALYST, at("details"), detailsPage.loader, options)) as { run: RunDetails; readAt: number };
    expect(page.run.steps.map((s) => s.sql.includes("a long script"))).toEqual([true, true, true]);

    const poll = async (url: string) => {
      const res = (await call(ANALYST, url, progressRoute.loader, options)) as Response;
      expect(res.headers.get("Cache-Control")).toBe("no-store");
      return (await res.json()) as RunPoll;
    };
    const polled = await poll(at("progress"));
    expect(polled.run.steps.map((s) => [s.position, s.status])).toEqual([
      [1, "Completed"],
      [2, "Started"],
      [3, "Pending"],
    ]);
    expect(polled.run.steps.every((s) => !("sql" in s))).toBe(true);
    expect(JSON.stringify(polled)).not.toContain("a long script");
    // The same page of steps as the page asked, and read after it.
    expect(polled.search).toEqual({ status: [], page: 1, pageSize: 25 });
    expect(polled.readAt).toBeGreaterThanOrEqual(page.readAt);
    const failedOnly = await poll(`${at("progress")}&status=Failed&pageSize=10`);
    expect(failedOnly).toMatchObject({ run: { steps: [], stepPage: { total: 0, pageSize: 10 } }, search: { status: ["Failed"], pageSize: 10 } });
  });

  it("is guarded as the page: another company's user answers 404", async () => {
    const { at, options } = await runningRun();
    const refused = unwrap(await call("clientadmin@demo.test", at("progress", birch.id), progressRoute.loader, options));
    expect(refused?.status).toBe(404);
  });
});

describe("a run's page once the run ended", () => {
  it("does not follow a later run's lock (reloading every second while it runs), and follows its own until released", async () => {
    const { at, options, projectId, runId } = await runningRun();
    await finishRun(live.dataApiDb, runId, "ERROR", "Script B failed at line 1.");
    const lock = (isLocked: boolean) =>
      live.dataApiDb
        .updateTable("projects")
        .set(isLocked ? { is_locked: 1, lock_reason: "ProjectRun", lock_state: "Locked" } : { is_locked: 0, lock_reason: null, lock_state: "Unlocked" })
        .where("id", "=", projectId)
        .execute();
    // Another run (a rerun of this one, say) holds the lock now: this run's page is done.
    await lock(true);
    const page = (await call(ANALYST, at("details"), detailsPage.loader, options)) as { run: RunDetails; lockedByRun: boolean };
    expect(page.run.status).toBe("ERROR");
    expect(page.lockedByRun).toBe(false);
    // The layout read the lock just before the run ended and released it: the page follows on until a read sees it released.
    const fetch = globalThis.fetch;
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const answer = await fetch(input, init);
      if (new URL(String(input instanceof Request ? input.url : input)).pathname.endsWith(`/runs/${runId}`)) await lock(false);
      return answer;
    });
    try {
      expect(((await call(ANALYST, at("details"), detailsPage.loader, options)) as { lockedByRun: boolean }).lockedByRun).toBe(true);
    } finally {
      fetchSpy.mockRestore();
    }
  });
});

describe("a run's Cancel", () => {
  it("says there is nothing to cancel for a run without a job, never that it is cancelling; a run's job is asked to stop, in the words of its type", async () => {
    // A run recorded before runs had jobs: no job id.
    const old = await runningRun();
    const refused = unwrap(await call(ANALYST, old.at("details"), detailsPage.action, { ...old.options, form: { intent: "cancel" } }));
    expect(refused).toEqual({
      status: 409,
      data: { errors: ["This run has no job that runs it (it was recorded before runs had jobs): there is nothing to cancel."] },
    });

    const cancelled = async (type: "Full" | "Test") => {
      const { at, options, projectId, runId } = await runningRun(type);
      const jobId = crypto.randomUUID();
      const now = new Date().toISOString();
      await live.dataApiDb
        .insertInto("jobs")
        .values({
          id: jobId,
          project_id: projectId,
          kind: "ProjectRun",
          status: "IN_PROGRESS",
          previous_status: "Active",
          created_by: "u-1",
          created_at: now,
          heartbeat_at: now,
        })
        .execute();
      await setRunJob(live.dataApiDb, runId, jobId);
      const answer = await call(ANALYST, at("details"), detailsPage.action, { ...options, form: { intent: "cancel" } });
      expect(answer).toBeInstanceOf(Response);
      const job = await live.dataApiDb.selectFrom("jobs").select("cancel_requested_at").where("id", "=", jobId).executeTakeFirstOrThrow();
      expect(job.cancel_requested_at).not.toBeNull();
      return (await flashOf(answer))?.text;
    };
    expect(await cancelled("Full")).toBe("Cancelling: the running script is rolled back; the scripts that ran before it keep what they did.");
    expect(await cancelled("Test")).toBe("Cancelling: the Test run stops, and everything it did is rolled back.");
  });
});
