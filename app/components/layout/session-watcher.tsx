import { useEffect } from "react";

/**
 * With JavaScript on, the session check of every signed-in page (session-check.ts: every 5 s, and
 * /login once the session is gone). Its code is loaded once the page is interactive, not with the
 * page, as a workspace's lock follower is: the first check is 5 s later either way.
 */
export function SessionWatcher() {
  useEffect(() => {
    let stop: (() => void) | undefined;
    let gone = false;
    void import("./session-check").then(({ watchSession }) => {
      if (!gone) stop = watchSession();
    });
    return () => {
      gone = true;
      stop?.();
    };
  }, []);
  return null;
}
