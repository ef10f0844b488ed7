/** What a running job says of its progress, as a user reads it on the load's page and on background-process. */
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { Job } from "../../../contracts/projects";
import { jobOf } from "~/test/fixtures";
import { jobAnnouncement, jobPhase, JobProgress } from "./job-progress";

const step = (name: string, status: Job["steps"][number]["status"], startedAt: string | null = null, finishedAt: string | null = null) => ({
  name,
  status,
  startedAt,
  finishedAt,
  message: null,
});

/** A flat-file load reading its one file. */
const job = (changes: Partial<Job>) => jobOf({ steps: [step("Load a.csv into A", "Started", "2025-03-04T14:05:00.000Z")], ...changes });

function JobProgressStub({ j, startedBy }: { j: Job; startedBy?: string }) {
  const Stub = createRoutesStub([{ path: "/", Component: () => <JobProgress job={j} startedBy={startedBy} /> }]);
  return <Stub initialEntries={["/"]} />;
}

/** `startedBy`: the name the page knows for the job's starter (none: the page cannot name them). */
function text(j: Job, { startedBy }: { startedBy?: string } = { startedBy: "Ann Analyst" }): string {
  return renderToStaticMarkup(<JobProgressStub j={j} startedBy={startedBy} />)
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

describe("a job's progress", () => {
  it("says how much of the file is read, how many rows, and about how long is left", () => {
    const detail = { bytesRead: 25 * 1024 * 1024, bytesTotal: 60 * 1024 * 1024, rowsRead: 210_000, secondsLeft: 95 };
    expect(text(job({ progressDetail: detail }))).toContain("25.0 MB of 60.0 MB read · 210,000 rows · about 1 min 35 s left");
    // Too early to tell: said so, not a guess.
    expect(text(job({ progressDetail: { ...detail, secondsLeft: null } }))).toContain("210,000 rows · estimating the time left");
  });

  it("names the step of a job with several (one per file), and says when each step ran", () => {
    const steps = [
      step("Load a.csv into A", "Completed", "2025-03-04T14:05:00.000Z", "2025-03-04T14:07:05.000Z"),
      step("Load b.csv into B", "Started", "2025-03-04T14:07:05.000Z"),
    ];
    const shown = text(job({ steps, progressDetail: { bytesRead: 512, bytesTotal: 2048, rowsRead: 3, secondsLeft: 4 } }));
    expect(shown).toContain("Step 2 of 2: 512 B of 2.0 KB read · 3 rows · about 4 s left");
    expect(shown).toContain("Started 2025-03-04 14:05 UTC · took 2 min 5 s");
    expect(shown).toContain("Started 2025-03-04 14:07 UTC");
  });

  it("says at which step a failed job stopped, never a percentage: a tiny file refused at its third row was read whole", () => {
    const error = "The file could not be read: on row 3, a quoted field is never closed. Nothing was loaded.";
    const refused = job({
      status: "ERROR",
      progress: 99,
      error,
      finishedAt: "2025-03-04T14:06:00.000Z",
      steps: [
        step("Back up the current data", "Completed", "2025-03-04T14:05:00.000Z", "2025-03-04T14:05:01.000Z"),
        { ...step("Load a.csv into A", "Failed", "2025-03-04T14:05:01.000Z", "2025-03-04T14:06:00.000Z"), message: error },
      ],
    });
    expect(text(refused)).toContain("Stopped at step 2 of 2: Load a.csv into A");
    expect(text(refused)).not.toContain("99%");
    expect(renderToStaticMarkup(<JobProgressStub j={refused} />)).not.toContain('role="progressbar"');
    expect(text(job({ progress: 40 }))).toContain("40% done");
  });

  it("never shows a user id for who started it: a starter the page cannot name is someone else", () => {
    const started = job({ createdBy: "a0000000-0000-4000-8000-000000000001" });
    expect(text(started)).toContain("by Ann Analyst");
    expect(text(started, {})).toContain("by someone else");
    expect(text(started, {})).not.toContain("a0000000-0000-4000-8000-000000000001");
  });

  it("says nothing of an input once the job has ended", () => {
    const ended = job({ status: "SUCCESS", progress: 100, progressDetail: { bytesRead: 1, bytesTotal: 1, rowsRead: 1, secondsLeft: null } });
    expect(text(ended)).not.toContain(" read ·");
  });
});

describe("what a screen reader is told as a job goes on (JobAnnouncer)", () => {
  const twoFiles = (first: Job["steps"][number]["status"], second: Job["steps"][number]["status"], changes: Partial<Job> = {}) =>
    job({ steps: [step("Load a.csv into A", first), step("Load b.csv into B", second)], ...changes });
  const said = (j: Job) => new Map([[j.id, jobPhase(j)]]);

  it("is the step that runs and the end, never the percentage", () => {
    expect(jobPhase(job({ progress: 40 }))).toBe("Flat file load running: Load a.csv into A");
    expect(jobPhase(twoFiles("Completed", "Started"))).toBe("Flat file load running, step 2 of 2: Load b.csv into B");
    expect(jobPhase(twoFiles("Completed", "Completed", { status: "SUCCESS", progress: 100 }))).toBe("Flat file load succeeded");
    expect(jobPhase(twoFiles("Completed", "Failed", { status: "ERROR" }))).toBe("Flat file load failed");
  });

  it("says nothing while only the percentage and the bytes move; a new step and the end are said", () => {
    const at40 = twoFiles("Started", "Pending", { progress: 40 });
    const detail = { bytesRead: 1, bytesTotal: 2, rowsRead: 5, secondsLeft: 3 };
    expect(jobAnnouncement(said(at40), [{ ...at40, progress: 45, progressDetail: detail }])).toBeNull();
    expect(jobAnnouncement(said(at40), [twoFiles("Completed", "Started", { progress: 60 })])).toBe("Flat file load running, step 2 of 2: Load b.csv into B");
    expect(jobAnnouncement(said(at40), [twoFiles("Completed", "Completed", { status: "SUCCESS", progress: 100 })])).toBe("Flat file load succeeded");
  });

  it("says a job that appears, beside the others that did not change", () => {
    const backup = jobOf({ id: "j2", kind: "Backup", steps: [] });
    expect(jobAnnouncement(said(job({})), [job({}), backup])).toBe("Backup running");
  });
});
