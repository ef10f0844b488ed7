import { useCallback } from "react";
import type { Job, ProjectJobs } from "../../../contracts/projects";
import { useCompanyHref } from "~/lib/company-href";
import { useLivePoll } from "~/lib/live-poll";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { isRunning } from "./auto-refresh";

/** What a job's page polls (background-process-progress.ts): the workspace's lock and running jobs, and when they were read (the server's clock). */
export type JobsPoll = ProjectJobs & { readAt: number };

/** What a job's page's loader read: the jobs it shows, whether the workspace was locked, and when (the server's clock, as a poll's readAt). */
type LoadedJobs = { jobs: readonly Job[]; isLocked: boolean; readAt: number };

/**
 * A workspace's jobs as a job's page shows them while one runs (with JavaScript): `poll` asks the
 * running jobs (background-process-progress.ts), `shown` gives a job as the latest poll says it (its
 * progress and steps), and the page's loaders are read again once jobsChanged (useLivePoll).
 */
export function useLiveJobs(projectId: string, loaded: LoadedJobs) {
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const { polled, poll } = useLivePoll<JobsPoll>(href(paths.page(projectId, "background-process/progress")), loaded.readAt, (p) => jobsChanged(loaded, p));
  const shown = useCallback((job: Job): Job => polled?.jobs.find((j) => j.id === job.id) ?? job, [polled]);
  return { shown, poll };
}

/** useLiveJobs for a page that follows one job (a history entry, the databases step): that job as the latest poll says it. */
export function useLiveJob(projectId: string, job: Job | null, loaded: Omit<LoadedJobs, "jobs">) {
  const { shown, poll } = useLiveJobs(projectId, { ...loaded, jobs: job ? [job] : [] });
  return { job: job && shown(job), poll };
}

/**
 * Whether what the page read is out of date: the lock was taken or released, or the running jobs are
 * not the ones it shows running (one ended: its outcome, the unlocked pages; another began: its starter).
 */
export function jobsChanged(loaded: LoadedJobs, polled: JobsPoll): boolean {
  const ids = (jobs: readonly Job[]) =>
    jobs
      .map((j) => j.id)
      .sort()
      .join();
  return polled.isLocked !== loaded.isLocked || ids(loaded.jobs.filter(isRunning)) !== ids(polled.jobs);
}
