/**
 * What the shell loads on every page for one signed-in session (the companies the user may see and
 * the per-company roles), kept for SESSION_CACHE_TTL_MS so that a page costs the services only its own
 * calls (docs/decisions/012-session-cache-and-one-round-trip.md).
 *
 * - Keyed by the session id (32 random bytes, a new one at every sign-in) AND checked against the
 *   user id: one user's entry can never answer for another.
 * - Dropped when the session ends (sessionStorage.deleteData: logout, a 401, a refused refresh) and
 *   whenever a service answers 401 or 403 for the session (callService): a revoked permission is
 *   seen on the next page after the first refusal, and at the latest after the TTL.
 * - At most SESSION_CACHE_MAX_ENTRIES sessions per portal process; the oldest entry goes first.
 * - A failure is never kept: the next request asks again.
 */

/** 30 s: a role granted or revoked at the client portal shows within half a minute even without a refusal. */
export const SESSION_CACHE_TTL_MS = 30_000;
export const SESSION_CACHE_MAX_ENTRIES = 5_000;

type Entry = { userId: string; at: number; value: Promise<unknown> };

const entries = new Map<string, Entry>();

/**
 * The session's cached value, or `load()`'s (kept when it resolves and `keep` accepts it: a
 * degraded answer, such as roles that fell back to the identity's, is not kept).
 */
export function sessionCached<T>(
  key: { sessionId: string; userId: string },
  load: () => Promise<T>,
  keep: (value: T) => boolean = () => true,
): Promise<T> {
  const found = entries.get(key.sessionId);
  if (found && found.userId === key.userId && Date.now() - found.at < SESSION_CACHE_TTL_MS) return found.value as Promise<T>;
  const value = load();
  const entry: Entry = { userId: key.userId, at: Date.now(), value };
  entries.delete(key.sessionId);
  entries.set(key.sessionId, entry);
  if (entries.size > SESSION_CACHE_MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  const forget = () => {
    if (entries.get(key.sessionId) === entry) entries.delete(key.sessionId);
  };
  value.then((v) => (keep(v) ? undefined : forget()), forget);
  return value;
}

/** Forgets what the session's pages loaded (the session ended, or a service refused it). */
export function dropSessionCache(sessionId: string | undefined): void {
  if (sessionId) entries.delete(sessionId);
}
