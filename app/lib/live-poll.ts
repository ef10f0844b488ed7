import { useCallback, useEffect, useRef, useState } from "react";
import { usePageRefresh } from "~/lib/page-refresh";

/** A poll's answers while a service is not reachable (api.server.ts answers 503): asked again, as a network failure is. */
const SERVICE_UNREACHABLE = new Set([502, 503, 504]);

/** What a job's page's poll answers: what changes while the job runs, and when it was read (the server's clock). */
export type Polled = { readAt: number };

/**
 * Follows a running job (with JavaScript) without reading the page's loaders at every tick: `poll`
 * (AutoRefresh calls it every tick) fetches `href`, a resource route beside the page that answers
 * only what changes while the job runs (a run's steps without their SQL, a workspace's running jobs,
 * a translation's counts), guarded as the page is. `polled` is its latest answer when it is newer
 * than what the page's loaders read (`loadedAt`, the same clock), for the page to show over them.
 * The page's loaders are read again, once, when `ended` says the page's own read is out of date (the
 * job ended, another began: the page then shows its outcome and offers what comes next), and when a
 * poll is refused (the session ended, the job is gone): the loaders answer that as they always do.
 * Either goes through usePageRefresh, so a navigation under way is never restarted. A poll that finds
 * a service unreachable (503: the data API restarting) is asked again at the next tick instead, so
 * the page follows the job again, or shows how it ended, once the service is back.
 */
export function useLivePoll<T extends Polled>(href: string, loadedAt: number, ended: (polled: T) => boolean) {
  const [latest, setLatest] = useState<T>();
  const asking = useRef(false);
  const refresh = usePageRefresh();
  const polled = latest && latest.readAt > loadedAt ? latest : undefined;
  const reload = polled ? ended(polled) : false;
  useEffect(() => {
    if (reload) refresh();
  }, [reload, polled, refresh]);
  const poll = useCallback(async () => {
    if (asking.current) return;
    asking.current = true;
    try {
      const res = await fetch(href, { cache: "no-store", redirect: "manual", headers: { accept: "application/json" } });
      if (res.ok) setLatest((await res.json()) as T);
      // A service not reachable for a moment (the data API restarting): the page keeps what it shows
      // and asks again on the next tick, rather than give way to an error page that asks no more.
      else if (!SERVICE_UNREACHABLE.has(res.status)) refresh();
    } catch {
      // The portal is unreachable for a moment (restart, network): try again on the next tick.
    } finally {
      asking.current = false;
    }
  }, [href, refresh]);
  return { polled, poll };
}
