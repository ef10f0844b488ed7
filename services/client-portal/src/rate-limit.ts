/**
 * Sign-in throttling: failed attempts are counted per account (the email typed) and per client
 * address inside a sliding window. Past the limit, further attempts are refused until the oldest
 * failure leaves the window; before that, every failure is answered a little later than the last.
 */
export type AttemptKey = { account: string; address: string };

export type AttemptDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface SignInLimiter {
  /** May this attempt go ahead? Asked before the password is checked. */
  check(key: AttemptKey): Promise<AttemptDecision>;
  /** Counts a failure; answers how long to hold the response back. */
  recordFailure(key: AttemptKey): Promise<{ delayMs: number }>;
  /** A successful sign-in clears the account's failures (the address keeps its count). */
  recordSuccess(key: AttemptKey): Promise<void>;
}

export type MemoryLimiterOptions = {
  maxFailuresPerAccount?: number;
  maxFailuresPerAddress?: number;
  windowMs?: number;
  /** Delay after the n-th recent failure; doubles from `baseDelayMs`, capped at `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  now?: () => number;
};

/**
 * Keeps the counts in this process's memory. That is right for one process; once the service runs
 * as several processes behind a load balancer, each would count separately (an attacker gets N times
 * the attempts), so implement SignInLimiter on the shared database or a shared cache then.
 */
export function createMemorySignInLimiter(options: MemoryLimiterOptions = {}): SignInLimiter {
  const {
    maxFailuresPerAccount = 5,
    maxFailuresPerAddress = 20,
    windowMs = 15 * 60_000,
    baseDelayMs = 250,
    maxDelayMs = 4_000,
    now = Date.now,
  } = options;
  const failures = new Map<string, number[]>();

  const accountKey = (key: AttemptKey) => `account:${key.account.trim().toLowerCase()}`;
  const addressKey = (key: AttemptKey) => `address:${key.address}`;

  function recent(key: string): number[] {
    const cutoff = now() - windowMs;
    const kept = (failures.get(key) ?? []).filter((t) => t > cutoff);
    if (kept.length) failures.set(key, kept);
    else failures.delete(key);
    return kept;
  }

  function retryAfter(times: number[], max: number): number {
    // Attempts open up again when enough failures have aged out of the window.
    const freeingFailure = times[times.length - max]!;
    return Math.max(1, Math.ceil((freeingFailure + windowMs - now()) / 1000));
  }

  function sweep() {
    // Bounds memory under a spray of distinct emails: drop keys with nothing recent.
    if (failures.size < 10_000) return;
    for (const key of [...failures.keys()]) recent(key);
  }

  return {
    async check(key) {
      const account = recent(accountKey(key));
      const address = recent(addressKey(key));
      const waits: number[] = [];
      if (account.length >= maxFailuresPerAccount) waits.push(retryAfter(account, maxFailuresPerAccount));
      if (address.length >= maxFailuresPerAddress) waits.push(retryAfter(address, maxFailuresPerAddress));
      return waits.length ? { allowed: false, retryAfterSeconds: Math.max(...waits) } : { allowed: true };
    },
    async recordFailure(key) {
      sweep();
      const t = now();
      const counts = [accountKey(key), addressKey(key)].map((k) => {
        const list = recent(k);
        list.push(t);
        failures.set(k, list);
        return list.length;
      });
      const n = Math.max(...counts);
      return { delayMs: Math.min(baseDelayMs * 2 ** (n - 1), maxDelayMs) };
    },
    async recordSuccess(key) {
      failures.delete(accountKey(key));
    },
  };
}
