/**
 * Remembers a value for `ttlMs` in this process: for answers every request would otherwise fetch
 * again though they change only with a deploy or an admin's edit (branding, product version).
 * A failure is not remembered, so the next request tries again. The arguments only serve the load
 * (e.g. whose token to ask with); the value is the same for every caller.
 */
export function memoize<T, A extends unknown[]>(ttlMs: number, load: (...args: A) => Promise<T>): (...args: A) => Promise<T> {
  let value: { at: number; promise: Promise<T> } | undefined;
  return (...args: A) => {
    if (value && Date.now() - value.at < ttlMs) return value.promise;
    const promise = load(...args);
    const entry = { at: Date.now(), promise };
    value = entry;
    promise.catch(() => {
      if (value === entry) value = undefined;
    });
    return promise;
  };
}
