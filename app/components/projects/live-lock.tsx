import { useState } from "react";
import { useLoadedAfterHydration } from "~/lib/lazy-widget";

/**
 * A workspace's lock as its pages' header shows it: whether it is held, and by what in words (the
 * layout's loader's, or the follower's: the header's code carries no table of lock reasons).
 */
export type ShownLock = { isLocked: boolean; reason: string | null };

/** A lock as read at `readAt` (the server's clock): by the page's loaders, or by a poll. */
export type ReadLock = ShownLock & { readAt: number };

/** The lock a page's header shows: the latest poll's when it is newer than the page's read, else the page's. */
export const shownLock = (loaded: ReadLock, polled: ReadLock | undefined): ShownLock => {
  const { isLocked, reason } = polled && polled.readAt > loaded.readAt ? polled : loaded;
  return { isLocked, reason };
};

const loadFollower = () => import("./lock-follower").then((module) => module.LockFollower);

/**
 * The lock of a workspace as its pages' header shows it. The server renders it as loaded, and so does
 * the page without JavaScript. With JavaScript it is followed (LockFollower, the running jobs' poll, as
 * a job's page's) so that a colleague's load, restore or run shows on the page the user is on when it
 * begins, and its end too, without a reload. The follower's code is loaded once the page is
 * interactive, not with the page: every page of a workspace has this header, and its poll's code would
 * weigh on each one's first load (issue 8's initial JS bar). `follower` is rendered by the header (it
 * shows nothing); `follow` false (a workspace without jobs): the lock as loaded.
 */
export function useLiveLock(projectId: string, loaded: ReadLock, follow: boolean) {
  const Follower = useLoadedAfterHydration(follow ? loadFollower : null);
  const [polled, setPolled] = useState<ReadLock>();
  const lock = shownLock(loaded, polled);
  const follower = follow && Follower ? <Follower projectId={projectId} loaded={loaded} shown={lock} onPoll={setPolled} /> : null;
  return { lock, follower };
}
