import { Icon } from "~/components/ui/icon";
import { TextSeparator } from "~/components/ui/text-separator";
import { useEffect, useRef, useState } from "react";
import type { Job } from "../../../contracts/projects";
import { JOB_KIND_LABELS } from "../../../contracts/values/projects";
import { cn } from "~/lib/utils";
import { isRunning } from "./auto-refresh";
import { formatBytes, formatCount, formatDuration, formatTimestamp as formatTime } from "./format";

export const JOB_STATUS_LABELS: Record<Job["status"], string> = {
  None: "Not started",
  IN_PROGRESS: "Running",
  SUCCESS: "Succeeded",
  ERROR: "Failed",
  CompletedWithWarning: "Completed with warnings",
  CompletedWithFailures: "Completed with failures",
};

/**
 * A job's progress, its steps with their status, and the failure reason when it failed. `startedBy`: the
 * starter's name; unknown (a SuperAdmin or Support user, who is none of the company's people), "someone
 * else", as the history says, never the user id.
 */
export function JobProgress({ job, startedBy, headingLevel = 3 }: { job: Job; startedBy?: string; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const label = `${JOB_KIND_LABELS[job.kind]}: ${JOB_STATUS_LABELS[job.status]}`;
  return (
    <div className="space-y-3" data-job-id={job.id}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <Heading className="text-base font-semibold">{label}</Heading>
        <p className="text-xs text-muted-foreground">
          Started {formatTime(job.createdAt)} by {startedBy ?? "someone else"}
          {job.finishedAt ? ` · finished ${formatTime(job.finishedAt)}` : null}
        </p>
      </div>
      {/* A failed job's percentage is where its bar was, not how far it got (progressText): the steps say where it stopped. */}
      {job.status === "ERROR" ? null : (
        <div
          role="progressbar"
          aria-label={`${JOB_KIND_LABELS[job.kind]} progress`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={job.progress}
          className="h-2 w-full overflow-hidden rounded-full bg-muted"
        >
          <div
            className={cn("h-full rounded-full", job.status === "SUCCESS" ? "bg-emerald-600" : "bg-brand")}
            style={{ width: `${Math.max(0, Math.min(100, job.progress))}%` }}
          />
        </div>
      )}
      <p className="text-sm">{progressText(job)}</p>
      {job.progressDetail && isRunning(job) ? <p className="text-sm tabular-nums">{progressDetailText(job.progressDetail, job.steps)}</p> : null}
      {job.steps.length ? (
        <ol aria-label="Steps" className="space-y-1 text-sm">
          {job.steps.map((step, i) => (
            <li key={`${i}-${step.name}`} className="flex items-start gap-2">
              <StepIcon status={step.status} />
              <span>
                {step.name} <span className="text-muted-foreground">({step.status})</span>{" "}
                {/* Blocks by CSS only: the text keeps them apart too (a text browser showed "took 1 s2 rows were rejected"). */}
                {step.startedAt ? <span className="block text-xs text-muted-foreground">{stepTimes(step)}</span> : null}
                {step.startedAt && step.message ? <TextSeparator /> : null}
                {step.message ? <span className="block text-xs text-muted-foreground">{step.message}</span> : null}
              </span>
            </li>
          ))}
        </ol>
      ) : null}
      {/* Said once: a failed step already shows the job's error beside it. */}
      {job.error && !job.steps.some((s) => s.message === job.error) ? (
        <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 px-4 py-3 text-sm text-destructive">
          {job.error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * "40% done" while a job runs. A job that failed or was cancelled did not get done: it says the step
 * it stopped at ("Stopped at step 2 of 2: Load a.csv into A"), not a percentage. The percentage is
 * the bytes its reader had read, and a reader takes 64 KB at a time, so a file of a few rows refused
 * at its third row had been read whole: it said "Stopped at 99%".
 */
export function progressText(job: Pick<Job, "status" | "progress" | "steps">): string {
  if (job.status !== "ERROR") return `${job.progress}% done`;
  const at = job.steps.findIndex((s) => s.status === "Failed");
  if (at < 0) return "Stopped before it ended";
  return `Stopped at step ${at + 1} of ${job.steps.length}: ${job.steps[at]!.name}`;
}

/**
 * "Step 1 of 2: 12.0 MB of 56.0 MB read · 210,000 rows · about 40 s left": where the running step is in
 * its input. The time left is the step's (one step per file).
 */
export function progressDetailText(detail: NonNullable<Job["progressDetail"]>, steps: Job["steps"]): string {
  const running = steps.findIndex((s) => s.status === "Started");
  const parts = [`${formatBytes(detail.bytesRead)} of ${formatBytes(detail.bytesTotal)} read`];
  if (detail.rowsRead !== null) parts.push(`${formatCount(detail.rowsRead)} ${detail.rowsRead === 1 ? "row" : "rows"}`);
  parts.push(detail.secondsLeft === null ? "estimating the time left" : `about ${formatDuration(detail.secondsLeft)} left`);
  const text = parts.join(" · ");
  return steps.length > 1 && running >= 0 ? `Step ${running + 1} of ${steps.length}: ${text}` : text;
}

/** "Started 2025-03-04 14:05 UTC · took 12 s": when a step ran. */
function stepTimes(step: Job["steps"][number]): string {
  const started = `Started ${formatTime(step.startedAt)}`;
  if (!step.finishedAt || !step.startedAt) return started;
  return `${started} · took ${formatDuration((Date.parse(step.finishedAt) - Date.parse(step.startedAt)) / 1000)}`;
}

function StepIcon({ status }: { status: Job["steps"][number]["status"] }) {
  const cls = "mt-0.5 size-4 shrink-0";
  if (status === "Completed") return <Icon name="circle-check" className={cn(cls, "text-emerald-600")} />;
  if (status === "Failed") return <Icon name="circle-x" className={cn(cls, "text-destructive")} />;
  if (status === "Started") return <Icon name="loader-circle" className={cn(cls, "animate-spin text-brand")} />;
  return <Icon name="circle" className={cn(cls, "text-muted-foreground")} />;
}

/**
 * Where a job is, as said when it changes, a sentence for the ear rather than the heading's label again:
 * "Flat file load running, step 2 of 3: Load Orders.csv into Orders", "Flat file load succeeded". Its
 * percentage and bytes are not part of it: they change every second.
 */
export function jobPhase(job: Pick<Job, "kind" | "status" | "steps">): string {
  const said = `${JOB_KIND_LABELS[job.kind]} ${JOB_STATUS_LABELS[job.status].toLowerCase()}`;
  const at = isRunning(job) ? job.steps.findIndex((s) => s.status === "Started") : -1;
  if (at < 0) return said;
  return job.steps.length > 1 ? `${said}, step ${at + 1} of ${job.steps.length}: ${job.steps[at]!.name}` : `${said}: ${job.steps[at]!.name}`;
}

/**
 * What to say of `jobs` given what was said of them (`said`, a job's id → its phase): each job whose
 * phase changed, or that appeared, in the order shown; null when nothing did.
 */
export function jobAnnouncement(said: ReadonlyMap<string, string>, jobs: readonly Job[]): string | null {
  const changed = jobs.map((job) => jobPhase(job)).filter((phase, i) => said.get(jobs[i]!.id) !== phase);
  return changed.length ? changed.join(". ") : null;
}

/**
 * A job page's announcements, for a screen reader (with JavaScript, as the page follows its jobs): a
 * polite status that says a job's phase when it changes, a step beginning and the end, rather than
 * every tick of its progress, which a live region around the whole block read out each second. It is
 * empty until something changes: the page's own text says where the jobs were when it opened. Kept
 * by the page, not by each job's block, so a job that ends and moves from Running to Recent is still
 * said.
 */
export function JobAnnouncer({ jobs }: { jobs: readonly Job[] }) {
  const said = useRef<Map<string, string> | null>(null);
  const [message, setMessage] = useState("");
  const phases = jobs.map((job) => `${job.id} ${jobPhase(job)}`).join("\n");
  useEffect(() => {
    const next = jobAnnouncement(said.current ?? new Map(), jobs);
    // The first render's phases are the page's own text: nothing to say yet.
    if (said.current && next) setMessage(next);
    said.current = new Map(jobs.map((job) => [job.id, jobPhase(job)]));
    // `phases` stands for `jobs`: a poll gives new objects every second, whose phases seldom change.
  }, [phases]);
  return (
    <p role="status" className="sr-only">
      {message}
    </p>
  );
}

/** The one job a page follows (the databases step's creation, a history entry's load): its progress, and what a screen reader is told as it goes. */
export function FollowedJobProgress({ job, startedBy }: { job: Job; startedBy?: string }) {
  return (
    <>
      <JobAnnouncer jobs={[job]} />
      <JobProgress job={job} startedBy={startedBy} />
    </>
  );
}
