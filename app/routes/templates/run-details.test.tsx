/**
 * A run's steps as its page shows them, rendered on the server: a script the run never reached keeps
 * the spec's Pending, and once the run has stopped the page says it was not reached.
 */
import { describe, expect, it } from "vitest";
import type { RunDetails, RunStep } from "../../../contracts/runs";
import type { RunStatus } from "../../../contracts/values/runs";
import { runDetailsOf } from "~/test/fixtures";
import { renderPage } from "~/test/render-page";
import { shownRun } from "./live-run";
import RunDetailsPage from "./run-details";

const page = "/migration/projects/p1/templates/run-history/r1/details";

const step = (position: number, status: RunStep["status"]) =>
  ({
    position,
    templateName: "Core",
    levelName: "Load",
    scriptId: `s${position}`,
    scriptName: `Script ${position}`,
    scriptVersion: 1,
    status,
    rowsAffected: null,
    durationMs: null,
    notices: [],
    error: null,
    errorLine: null,
    sql: `select ${position};`,
  }) satisfies RunDetails["steps"][number];

/** The run's page as `canWrite` (or not) sees it. */
function runPage(
  status: RunStatus,
  steps: RunDetails["steps"],
  { type = "Full", canWrite = true, lockedByRun = status === "IN_PROGRESS" }: { type?: "Full" | "Test"; canWrite?: boolean; lockedByRun?: boolean } = {},
) {
  return renderPage(page, page, RunDetailsPage, { projectId: "p1", run: runOf(status, steps, type), canWrite, lockedByRun, search, readAt: 1000 });
}

const search = { status: [], page: 1, pageSize: 25 };

function runOf(status: RunStatus, steps: RunDetails["steps"], type: "Full" | "Test" = "Full"): RunDetails {
  const running = status === "IN_PROGRESS";
  return runDetailsOf({ type, status, steps, failedSteps: 1, ...(running ? { finishedAt: null, durationMs: null, jobId: "j1" } : {}) });
}

/** The text of each row of the Steps table's Status column. */
function statusCells(status: RunStatus, steps: RunDetails["steps"]) {
  const html = runPage(status, steps);
  const rows = [...html.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].slice(1);
  return rows.map((row) => [...row[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/g)][2]![1]!.replace(/<[^>]+>/g, ""));
}

describe("a run's steps", () => {
  const steps = [step(1, "Completed"), step(2, "Failed"), step(3, "Pending")];

  it("says that a stopped run never reached the scripts after its failure", () => {
    expect(statusCells("ERROR", steps)).toEqual(["Completed", "Failed", "Pending Not reached: the run stopped before it"]);
  });

  it("shows a running run's next scripts as Pending only: they may still run", () => {
    expect(statusCells("IN_PROGRESS", [step(1, "Completed"), step(2, "Started"), step(3, "Pending")])).toEqual(["Completed", "Started", "Pending"]);
  });
});

describe("a run over a big table", () => {
  it("writes its counts of rows grouped, as the history and the databases pages do", () => {
    const steps = [{ ...step(1, "Completed"), rowsAffected: 1_000_000 }, step(2, "Completed")];
    const run = runDetailsOf({
      steps,
      stepPage: { total: 1_200, page: 1, pageSize: 25 },
      tables: [{ table: "Transactions", rowsBefore: 0, rows: 1_000_000, previousRows: 999_000 }],
    });
    const html = renderPage(page, page, RunDetailsPage, { projectId: "p1", run, canWrite: true, search, readAt: 1000 }).replace(/<!-- -->/g, "");
    expect(html).toMatch(/<td[^>]*>1,000,000<\/td><td[^>]*>/);
    expect(html).toMatch(/<td[^>]*>Transactions<\/td><td[^>]*>0<\/td><td[^>]*>1,000,000<\/td><td[^>]*>999,000<\/td>/);
    expect(html).toContain("Page 1 of 48 · 1,200 steps");
  });
});

describe("what a run's page offers", () => {
  const failed = [step(1, "Completed"), step(2, "Failed"), step(3, "Pending")];
  const rerun = /<button[^>]*>Rerun from the failed step<\/button>/;
  const history = /<a[^>]*>Run history<\/a>/;

  it("offers a failed Full run's rerun from its failed step, and the history", () => {
    const html = runPage("ERROR", failed);
    expect(html).toMatch(rerun);
    expect(html).toMatch(history);
  });

  it("says what the rerun runs again: not the steps that completed (a run that went on after its failure kept what they did)", () => {
    const html = runPage("CompletedWithFailures", [step(1, "Failed"), step(2, "Completed"), step(3, "Failed")]).replace(/<!-- -->/g, "");
    const describedBy = /<button[^>]*aria-describedby="([^"]+)"[^>]*>Rerun from the failed step<\/button>/.exec(html)?.[1];
    expect(describedBy).toBeDefined();
    expect(new RegExp(`<[^>]*id="${describedBy}"[^>]*>([^<]*)<`).exec(html)?.[1]).toBe(
      "Runs again the steps that failed or were not reached, each script at its newest version; the steps that completed are not run again.",
    );
  });

  it("never a failed Test run's: it kept nothing of the scripts before its failure", () => {
    expect(runPage("ERROR", failed, { type: "Test" })).not.toMatch(rerun);
  });

  it("gives a reader without write access the way back to the history, and no rerun", () => {
    const html = runPage("ERROR", failed, { canWrite: false });
    expect(html).not.toMatch(rerun);
    expect(html).toMatch(history);
  });
});

/** What a running run's page shows over its polls (useLiveRun): the poll's statuses, the SQL its loader read. */
describe("a running run's page over its polls", () => {
  const loaded = { run: runOf("IN_PROGRESS", [step(1, "Started"), step(2, "Pending")]), search, readAt: 1000 };
  /** A poll's answer: the run without its steps' SQL, read at `readAt`. */
  const polled = (run: RunDetails, readAt = 2000) => ({ run: { ...run, steps: run.steps.map(({ sql: _sql, ...s }) => s) }, search, readAt });

  it("shows a newer poll's statuses, each step with the SQL its loader read", () => {
    const now = runOf("IN_PROGRESS", [{ ...step(1, "Completed"), rowsAffected: 3 }, step(2, "Started")]);
    expect(shownRun(loaded, polled(now))).toEqual({ run: now, reload: false });
  });

  it("reads its loaders again when the poll says the run ended, showing it meanwhile", () => {
    const shown = shownRun(loaded, polled(runOf("SUCCESS", [step(1, "Completed"), step(2, "Completed")])));
    expect(shown.reload).toBe(true);
    expect(shown.run.status).toBe("SUCCESS");
  });

  it("keeps its loader's run over a poll it cannot show whole: a step it has no SQL for, read again", () => {
    expect(shownRun(loaded, polled(runOf("IN_PROGRESS", [step(1, "Completed"), step(3, "Failed")])))).toEqual({ run: loaded.run, reload: true });
  });

  it("follows on after the run ended while the project was read still locked by a run, until a read sees the lock released", () => {
    const done = [step(1, "Completed"), step(2, "Completed")];
    const refreshes = (html: string) => html.includes('http-equiv="refresh"');
    // The layout read the lock just before the run ended: without JavaScript the page is read again; with it, polled.
    expect(refreshes(runPage("SUCCESS", done, { lockedByRun: true }))).toBe(true);
    expect(refreshes(runPage("SUCCESS", done, { lockedByRun: false }))).toBe(false);
    expect(refreshes(runPage("IN_PROGRESS", [step(1, "Started"), step(2, "Pending")]))).toBe(true);
  });

  it("ignores a poll older than its loader's run, of another run or of another page of steps", () => {
    const now = polled(runOf("IN_PROGRESS", [step(1, "Completed"), step(2, "Started")]));
    for (const stale of [
      { ...now, readAt: 999 },
      { ...now, run: { ...now.run, id: "r2" } },
      { ...now, search: { ...search, page: 2 } },
    ]) {
      expect(shownRun(loaded, stale)).toEqual({ run: loaded.run, reload: false });
    }
    expect(shownRun(loaded, undefined)).toEqual({ run: loaded.run, reload: false });
  });
});

describe("the run's status", () => {
  it("is a live region, so that a screen reader hears Running become Succeeded without the focus moving", () => {
    const live = (status: RunStatus) =>
      /<span aria-live="polite" aria-atomic="true">(.*?)<\/span><\/span>/.exec(runPage(status, [step(1, "Completed")]))?.[1] ?? "";
    expect(live("IN_PROGRESS").replace(/<[^>]+>/g, "")).toBe("Run status: Running");
    expect(live("SUCCESS").replace(/<[^>]+>/g, "")).toBe("Run status: Succeeded");
  });
});

describe("a failed run rerun already", () => {
  const steps = [step(1, "Completed"), step(2, "Failed"), step(3, "Pending")];

  it("links to its rerun in place of Rerun from the failed step, which the data API would refuse", () => {
    const failed = runOf("ERROR", steps);
    const before = renderPage(page, page, RunDetailsPage, { projectId: "p1", run: failed, canWrite: true, lockedByRun: false, search, readAt: 1000 });
    expect(before).toContain("Rerun from the failed step");
    expect(before).not.toContain("Rerun as");

    const rerun = { ...failed, rerunBy: { id: "r2", createdAt: "2026-11-28T08:00:00.000Z" } };
    const html = renderPage(page, page, RunDetailsPage, { projectId: "p1", run: rerun, canWrite: true, lockedByRun: false, search, readAt: 1000 }).replace(
      /<!-- -->/g,
      "",
    );
    expect(html).not.toContain("Rerun from the failed step");
    expect(html).not.toContain('name="intent" value="rerun"');
    expect(html).toMatch(/Rerun as <a[^>]*href="\/migration\/projects\/p1\/templates\/run-history\/r2\/details"[^>]*>the run of [^<]+<\/a>/);
  });
});
