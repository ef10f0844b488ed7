/** Spec §9: how often the browser checks that the session still exists. */
export const SESSION_CHECK_INTERVAL_MS = 5000;

/**
 * Asks the portal every 5 s whether the session still exists (logged out in another tab, expired,
 * ended at the provider). When it is gone, a full page load of /login replaces the page, so nothing
 * of the old session stays in memory. Answers the function that stops asking.
 */
export function watchSession(): () => void {
  let stopped = false;
  const timer = window.setInterval(async () => {
    try {
      const res = await fetch("/auth/session", { cache: "no-store", headers: { accept: "application/json" } });
      if (stopped || res.ok) return;
      if (res.status === 401) {
        stopped = true;
        window.clearInterval(timer);
        const here = window.location.pathname + window.location.search;
        window.location.replace(`/login?${new URLSearchParams({ redirectTo: here })}`);
      }
    } catch {
      // The portal is unreachable for a moment (restart, network): try again on the next tick.
    }
  }, SESSION_CHECK_INTERVAL_MS);
  return () => {
    stopped = true;
    window.clearInterval(timer);
  };
}
