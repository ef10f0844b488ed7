import type { z } from "zod";
import type { Caller } from "../../shared/bearer.ts";

export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** The client portal did not give a usable answer: callers refuse the request rather than guess. */
export class ClientPortalUnavailableError extends Error {
  override name = "ClientPortalUnavailableError";
}

export type ClientPortalApiOptions = {
  /** The client portal API's base URL. */
  baseUrl: string;
  fetch?: Fetch;
  timeoutMs?: number;
};

/**
 * The data API's one client of the client portal API: a GET with the caller's own bearer token (so
 * the client portal applies its own rules), a time limit, and the answer parsed with its contract.
 * Any failure (unreachable, a non-2xx, not JSON, another shape) is a ClientPortalUnavailableError.
 */
export function createClientPortalApi(options: ClientPortalApiOptions) {
  const fetchFn: Fetch = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  const timeoutMs = options.timeoutMs ?? 5_000;
  const base = options.baseUrl.replace(/\/+$/, "");

  return async function get<S extends z.ZodType>(caller: Caller, path: string, schema: S, what: string): Promise<z.output<S>> {
    let response: Response;
    try {
      response = await fetchFn(`${base}${path}`, {
        headers: { authorization: `Bearer ${caller.token}`, accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      throw new ClientPortalUnavailableError(`${what} request failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    }
    if (!response.ok) throw new ClientPortalUnavailableError(`${what} request answered ${response.status}`);
    let body: unknown;
    try {
      body = await response.json();
    } catch (cause) {
      throw new ClientPortalUnavailableError(`${what} response is not JSON`, { cause });
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new ClientPortalUnavailableError(`${what} response has an unexpected shape`);
    return parsed.data;
  };
}
