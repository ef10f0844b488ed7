import { afterAll, describe, expect, it } from "vitest";
import { DEMO_COMPANIES, demoUsers } from "../../../../scripts/demo-data";
import { finishJob, insertJob } from "../../../../services/data-api/src/jobs/job-store";
import { createTranslation, recordProgress } from "../../../../services/data-api/src/repositories/translations";
import type { JobsPoll } from "~/components/projects/live-jobs";
import type { TranslationPoll } from "~/components/projects/live-translation";
import { PORTAL_URL, routeArgs, startLiveServices, throughMiddleware } from "~/test/live-services";

/**
 * What a job's page polls every second while a job runs, against the live services: the workspace's
 * running jobs (…/background-process/progress: the background-process page, a history entry, the
 * databases step) and a translation's counts (…/translate/{id}/progress), each guarded as its page.
 */
const live = await startLiveServices();
afterAll(() => live.stop());

const { createHarness, unwrap } = await import("../test-support");
const { call, api, mappedGrade } = await createHarness();
const { shellMiddleware } = await import("~/lib/guards.server");
const areaLayout = await import("../../area/layout");
const projectLayout = await import("./layout");
const backgroundProcess = await import("./background-process");
const jobsPoll = await import("./background-process-progress");
const translationPage = await import("./translation");
const translationPoll = await import("./translation-progress");

const [, acme, birch] = DEMO_COMPANIES;
const ANALYST = "analyst@demo.test";
const analystId = demoUsers().find((u) => u.email === ANALYST)!.id;

/** A migration project of acme whose load runs (locked), after one that ended. */
async function projectWithRunningLoad() {
  const application = await api(ANALYST, "POST", "/api/v1/applications", { companyId: acme.id, name: `Jobs ${crypto.randomUUID()}`, description: null });
  const project = await api(ANALYST, "POST", "/api/v1/projects", {
    companyId: acme.id,
    name: `Jobs ${crypto.randomUUID().slice(0, 8)}`,
    applicationId: application.id,
    sourceType: "FlatFile",
    description: null,
  });
  const job = (id: string, now: string) => ({
    id,
    projectId: project.id,
    kind: "FlatFile",
    previousStatus: "Active",
    createdBy: analystId,
    now,
    stepNames: ["Read"],
  });
  const [done, running] = [crypto.randomUUID(), crypto.randomUUID()];
  await insertJob(live.dataApiDb, job(done, "2026-01-01T00:00:00.000Z"));
  await finishJob(live.dataApiDb, done, { status: "SUCCESS", error: null }, "2026-01-01T00:01:00.000Z");
  await insertJob(live.dataApiDb, job(running, "2026-01-02T00:00:00.000Z"));
  await live.dataApiDb.updateTable("jobs").set({ progress: 40 }).where("id", "=", running).execute();
  await live.dataApiDb
    .updateTable("projects")
    .set({ is_locked: 1, lock_reason: "FlatFileCreation", lock_state: "Locked", lock_job_id: running })
    .where("id", "=", project.id)
    .execute();
  const at = (page: string, companyId: string = acme.id) => `/migration/projects/${project.id}/${page}?companyId=${companyId}`;
  return { at, options: { params: { projectId: project.id }, middleware: projectLayout.middleware }, done, running };
}

/** The poll's answer, which no cache may keep. */
async function polled<T>(res: unknown): Promise<T> {
  expect(res).toBeInstanceOf(Response);
  expect((res as Response).headers.get("Cache-Control")).toBe("no-store");
  return (await (res as Response).json()) as T;
}

/** `loader` for `path` as a browser without a session asks it. */
function signedOut(path: string, params: Record<string, string>, loader: (args: any) => unknown, middleware: readonly unknown[]) {
  const args = routeArgs(new Request(`${PORTAL_URL}${path}`), params);
  return throughMiddleware(args, [shellMiddleware, ...areaLayout.middleware, ...middleware] as any[], () => loader(args));
}

describe("a workspace's jobs poll (…/background-process/progress)", () => {
  it("answers the lock and the running job with its progress and steps, not the jobs that ended; the page's loader reads both", async () => {
    const { at, options, done, running } = await projectWithRunningLoad();
    const page = (await call(ANALYST, at("background-process"), backgroundProcess.loader, options)) as { jobs: { id: string }[]; readAt: number };
    expect(page.jobs.map((j) => j.id)).toEqual([running, done]);

    const poll = await polled<JobsPoll>(await call(ANALYST, at("background-process/progress"), jobsPoll.loader, options));
    expect(poll).toMatchObject({ isLocked: true, lockReason: "FlatFileCreation", lockState: "Locked" });
    expect(poll.jobs.map((j) => [j.id, j.status, j.progress, j.steps.map((s) => s.name)])).toEqual([[running, "IN_PROGRESS", 40, ["Read"]]]);
    expect(poll.readAt).toBeGreaterThanOrEqual(page.readAt);
  });

  it("is guarded as the page: another company's user answers 404, a browser without a session goes to sign in", async () => {
    const { at, options } = await projectWithRunningLoad();
    const refused = unwrap(await call("clientadmin@demo.test", at("background-process/progress", birch.id), jobsPoll.loader, options));
    expect(refused?.status).toBe(404);
    const anonymous = (await signedOut(at("background-process/progress"), options.params, jobsPoll.loader, options.middleware)) as Response;
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
  });
});

describe("a translation's poll (…/translate/{id}/progress)", () => {
  async function runningTranslation() {
    const { projectId } = await mappedGrade(ANALYST, acme.id, [{ sourceValue: "A", targetValue: "B" }]);
    const translationId = await createTranslation(live.dataApiDb, {
      projectId,
      tableName: "employees",
      fileName: "grades.csv",
      bytesTotal: 1000,
      userId: analystId,
    });
    await recordProgress(live.dataApiDb, translationId, { bytesRead: 400, rowsRead: 12, rowsWritten: 12, rowsRejected: 0 });
    const at = (page: string, companyId: string = acme.id) => `/translations/mappings/${projectId}/translate/${translationId}${page}?companyId=${companyId}`;
    return { at, options: { params: { mappingProjectId: projectId, translationId }, middleware: projectLayout.middleware } };
  }

  it("answers how far the translation has read", async () => {
    const { at, options } = await runningTranslation();
    const page = (await call(ANALYST, at(""), translationPage.loader, options)) as { readAt: number };
    const poll = await polled<TranslationPoll>(await call(ANALYST, at("/progress"), translationPoll.loader, options));
    expect(poll.translation).toMatchObject({ status: "Running", bytesRead: 400, bytesTotal: 1000, rowsRead: 12 });
    expect(poll.readAt).toBeGreaterThanOrEqual(page.readAt);
  });

  it("is guarded as the page: another company's user answers 404, a browser without a session goes to sign in", async () => {
    const { at, options } = await runningTranslation();
    // Acme's mapping project asked for with Birch Logistics selected (the analyst reads both companies).
    const refused = unwrap(await call(ANALYST, at("/progress", birch.id), translationPoll.loader, options));
    expect(refused?.status).toBe(404);
    const anonymous = (await signedOut(at("/progress"), options.params, translationPoll.loader, options.middleware)) as Response;
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
  });
});
