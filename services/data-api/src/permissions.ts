import { permissionsResponseSchema, type PermissionEntry } from "../../../contracts/client-portal.ts";
import type { Caller } from "../../shared/bearer.ts";
import { createClientPortalApi, type Fetch } from "./client-portal-api.ts";

/** Where a non-admin caller's per-company product roles come from (spec §6, §7: Base A). */
export type PermissionsSource = {
  forCaller(caller: Caller): Promise<PermissionEntry[]>;
};

/** The permissions could not be loaded; callers must refuse the request rather than guess. */
export class PermissionsUnavailableError extends Error {
  override name = "PermissionsUnavailableError";
}

export type { Fetch };

export type HttpPermissionsSourceOptions = {
  /** The client portal API's base URL, without a trailing slash. */
  baseUrl: string;
  fetch?: Fetch;
  /** How long one caller's answer is reused. Short, so a revoked permission stops working soon. */
  cacheTtlMs?: number;
  timeoutMs?: number;
  /** Bounds the cache's memory; the oldest entries go first. */
  maxCachedCallers?: number;
  now?: () => number;
};

/**
 * Reads `GET {baseUrl}/api/v1/permissions/{userId}` with the caller's own bearer token, so the client
 * portal applies its own rule (users read their own). Answers are cached per token: a new token
 * (another user, or a refreshed one) asks again. Concurrent requests of one caller share one call.
 */
export function createHttpPermissionsSource(options: HttpPermissionsSourceOptions): PermissionsSource {
  const ttl = options.cacheTtlMs ?? 30_000;
  const maxEntries = options.maxCachedCallers ?? 1_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { expiresAt: number; entries: Promise<PermissionEntry[]> }>();

  const get = createClientPortalApi(options);
  async function load(caller: Caller): Promise<PermissionEntry[]> {
    try {
      return await get(caller, `/api/v1/permissions/${encodeURIComponent(caller.userId)}`, permissionsResponseSchema, "permissions");
    } catch (err) {
      throw new PermissionsUnavailableError(err instanceof Error ? err.message : String(err), { cause: err });
    }
  }

  return {
    forCaller(caller) {
      const t = now();
      const hit = cache.get(caller.token);
      if (hit && hit.expiresAt > t) return hit.entries;

      const entries = load(caller);
      cache.delete(caller.token);
      cache.set(caller.token, { expiresAt: t + ttl, entries });
      // A failure is never cached: the next request tries again.
      entries.catch(() => {
        if (cache.get(caller.token)?.entries === entries) cache.delete(caller.token);
      });
      evict(t);
      return entries;
    },
  };

  function evict(t: number) {
    // Oldest first (insertion order, and every entry lives equally long): stop at the first one
    // that is both fresh and within the bound.
    for (const [token, entry] of cache) {
      const stale = entry.expiresAt <= t;
      if (!stale && cache.size <= maxEntries) break;
      cache.delete(token);
    }
  }
}

