import { useEffect } from "react";
import { useLoadedAfterHydration } from "~/lib/lazy-widget";

const loadSessionCheck = () => import("./session-check").then((module) => module.watchSession);

/**
 * With JavaScript on, the session check of every signed-in page (session-check.ts: every 5 s, and
 * /login once the session is gone). Its code is loaded once the page is interactive, not with the
 * page, as a workspace's lock follower is: the first check is 5 s later either way.
 */
export function SessionWatcher() {
  const watchSession = useLoadedAfterHydration(loadSessionCheck);
  // watchSession answers the function that stops it: the effect's cleanup.
  useEffect(() => watchSession?.(), [watchSession]);
  return null;
}
