import { useCallback, useEffect } from "react";
import type { Job, ProjectJobs } from "../../../contracts/projects";
import { useCompanyHref } from "~/lib/company-href";
import { useLivePoll } from "~/lib/live-poll";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { isRunning } from "./job-progress";

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

/** A workspace's lock as its pages' header shows it. */
type ShownLock = { isLocked: boolean; lockReason: ProjectJobs["lockReason"] };

/** How often the header asks about the lock: often while one is held (to say soon that it ended), seldom otherwise. */
export const LOCK_POLL_MS = { locked: 1000, unlocked: 5000 } as const;

/**
 * The lock of a workspace as its pages' header shows it, with JavaScript: followed (the running jobs'
 * poll, as a job's page's) so that a colleague's load, restore or run shows on the page the user is on
 * when it begins, and its end too, without a reload. When a lock the page was read under ends, the
 * page's loaders are read again (its forms come back); a lock taken meanwhile is only shown: reading an
 * edit page's loaders again would send it to the background-process page and lose what was typed.
 * `follow` false (a workspace without jobs): the lock as loaded.
 */
export function useLiveLock(projectId: string, loaded: ShownLock & { readAt: number }, follow: boolean): ShownLock {
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const { polled, poll } = useLivePoll<JobsPoll>(href(paths.page(projectId, "background-process/progress")), loaded.readAt, (p) => lockEnded(loaded, p));
  const shown = shownLock(loaded, polled);
  const intervalMs = shown.isLocked ? LOCK_POLL_MS.locked : LOCK_POLL_MS.unlocked;
  useEffect(() => {
    if (!follow) return;
    const timer = setInterval(() => void poll(), intervalMs);
    return () => clearInterval(timer);
  }, [follow, intervalMs, poll]);
  return shown;
}

/** The lock a page's header shows: the latest poll's when it is newer than the page's read (useLivePoll's `polled`), else the page's. */
export const shownLock = (loaded: ShownLock, polled: JobsPoll | undefined): ShownLock =>
  polled ? { isLocked: polled.isLocked, lockReason: polled.lockReason } : { isLocked: loaded.isLocked, lockReason: loaded.lockReason };

/** Whether the page's loaders are read again (useLiveLock): a lock it was read under has ended; never because one was taken. */
export const lockEnded = (loaded: ShownLock, polled: JobsPoll): boolean => loaded.isLocked && !polled.isLocked;
