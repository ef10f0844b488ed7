import { useEffect } from "react";
import { useCompanyHref } from "~/lib/company-href";
import { useLivePoll } from "~/lib/live-poll";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import type { JobsPoll } from "./live-jobs";
import { LOCK_REASON_LABELS } from "../../../contracts/values/projects";
import type { ReadLock, ShownLock } from "./live-lock";

/** How often the header asks about the lock: often while one is held (to say soon that it ended), seldom otherwise. */
export const LOCK_POLL_MS = { locked: 1000, unlocked: 5000 } as const;

/** Whether the page's loaders are read again: a lock it was read under has ended; never because one was taken. */
export const lockEnded = (loaded: ShownLock, polled: JobsPoll): boolean => loaded.isLocked && !polled.isLocked;

/** A poll's lock as the header shows it (its reason in words). */
export const lockOf = (polled: JobsPoll): ReadLock => ({
  isLocked: polled.isLocked,
  reason: polled.lockReason ? LOCK_REASON_LABELS[polled.lockReason] : null,
  readAt: polled.readAt,
});

export type LockFollowerProps = {
  projectId: string;
  /** The lock the page's loaders read, and when (the server's clock, as a poll's readAt). */
  loaded: ReadLock;
  /** The lock the header shows now. */
  shown: ShownLock;
  /** Told each newer poll's answer. */
  onPoll: (polled: ReadLock) => void;
};

/**
 * Follows a workspace's lock for its pages' header (useLiveLock loads it once the page is interactive):
 * polls the running jobs (background-process-progress.ts) and tells each answer. When a lock the page
 * was read under ends, the page's loaders are read again (its forms come back); a lock taken meanwhile
 * is only shown: reading an edit page's loaders again would send it to the background-process page and
 * lose what was typed. Renders nothing.
 */
export function LockFollower({ projectId, loaded, shown, onPoll }: LockFollowerProps) {
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const { polled, poll } = useLivePoll<JobsPoll>(href(paths.page(projectId, "background-process/progress")), loaded.readAt, (p) => lockEnded(loaded, p));
  useEffect(() => {
    if (polled) onPoll(lockOf(polled));
  }, [polled, onPoll]);
  const intervalMs = shown.isLocked ? LOCK_POLL_MS.locked : LOCK_POLL_MS.unlocked;
  useEffect(() => {
    const timer = setInterval(() => void poll(), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, poll]);
  return null;
}
