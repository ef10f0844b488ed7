import { afterAll, describe, expect, it } from "vitest";
import type { RunDetails } from "../../../contracts/runs";
import { DEMO_COMPANIES } from "../../../scripts/demo-data";
import { finishSteps, insertRun, startStep } from "../../../services/data-api/src/repositories/runs";
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
async function runningRun() {
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
    type: "Full",
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
  return { at, options };
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
