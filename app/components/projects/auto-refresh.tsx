import { useEffect } from "react";
import type { Job } from "../../../contracts/projects";

/** Whether a job is still to end: the pages that follow it poll until it has (its progress is job-progress.tsx's). */
export function isRunning(job: Pick<Job, "status"> | null | undefined): boolean {
  return job?.status === "IN_PROGRESS" || job?.status === "None";
}

/**
 * Keeps a page current while a job runs. With JavaScript `poll` asks what changes about every second
 * (useLivePoll: a resource route answering the job, not the page's loaders, which are read again once
 * the job ends); without it, a refresh every 2 seconds (inside <noscript>, so a browser running
 * JavaScript never schedules the full reload).
 */
export function AutoRefresh({ active, intervalMs = 1000, poll }: { active: boolean; intervalMs?: number; poll: () => void }) {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void poll(), intervalMs);
    return () => clearInterval(timer);
  }, [active, intervalMs, poll]);
  if (!active) return null;
  return (
    <noscript>
      <meta httpEquiv="refresh" content="2" />
    </noscript>
  );
}
