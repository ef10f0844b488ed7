import { data } from "react-router";
import type { z } from "zod";
import { apiErrorSchema } from "../../contracts/errors";
import { createLogger } from "../../services/shared/logger";
import { endSessionAndSignIn, type Authenticated } from "./auth.server";
import { env } from "./env.server";
import { traceServiceCall } from "./service-trace.server";
import { dropSessionCache } from "./session-cache.server";

const log = createLogger("portal.api");

/** Spec §8: the message for a 403 that comes without a body. */
export const FORBIDDEN_MESSAGE = "You don't have permission to access.";

/**
 * What a failed call throws for the error boundary: the server's lines, shown joined in an alert;
 * `code` says which refusal it is where a page offers a way on (data_loss: confirm it).
 */
export type ServiceFailure = { errors: string[]; fieldErrors?: Record<string, string[]>; code?: string; values?: Record<string, string> };

/** Whose call it is: the signed-in user's request and tokens (the browser never sees a token). */
export type Caller = { request: Request; authenticated: Authenticated };

type Query = Record<string, string | number | boolean | null | undefined | (string | number)[]>;

type CallOptions<S extends z.ZodType> = {
  schema: S;
  method?: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** Arrays repeat the key (spec §7): `status=A&status=B`. */
  query?: Query;
  /** A JSON body. */
  body?: unknown;
  /** A multipart body built here. */
  formData?: FormData;
  /** A body passed on as it streams in (an upload, never held whole). */
  stream?: StreamedUpload;
};

/**
 * An upload passed on as it streams in: its body, content type and, when the browser declared it,
 * length (a service may start on a file as it arrives once it knows the whole fits: flat-file loads).
 */
export type StreamedUpload = { body: ReadableStream<Uint8Array>; contentType: string; length?: number };

const SERVICES = {
  "data-api": { label: "data service", baseUrl: () => env.DATA_API_URL },
  "client-portal": { label: "client portal", baseUrl: () => env.CLIENT_PORTAL_API_URL },
} as const;

export type ServiceName = keyof typeof SERVICES;

/**
 * A kept-alive connection the service closed as a call went out fails before any answer ("other
 * side closed"), most often on a busy machine: a read is sent once more, on a new connection, rather
 * than shown as "not reachable". A write is not, lest it be made twice.
 */
function sendReadTwice(method: string, send: () => Promise<Response>, about: { service: ServiceName; path: string }): Promise<Response> {
  return send().catch((err: unknown) => {
    // A read that ran out of time is not sent again: the page has waited long enough.
    if (method !== "GET" || timedOut(err)) throw err;
    log.warn("service call failed before an answer; sent again", { ...about, err });
    return send();
  });
}

/** AbortSignal.timeout's reason, as fetch rejects with it. */
function timedOut(err: unknown): boolean {
  return err instanceof DOMException && err.name === "TimeoutError";
}

/**
 * The one way the portal calls a service. With `as`, the call carries the user's access token; a 401
 * ends the session and redirects to /login, other failures throw `data(ServiceFailure, status)`.
 */
export async function callService<S extends z.ZodType>(service: ServiceName, path: string, as: Caller | null, options: CallOptions<S>): Promise<z.output<S>> {
  const { label, baseUrl } = SERVICES[service];
  const url = new URL(`${baseUrl()}${path}`);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v !== undefined && v !== null && v !== "") url.searchParams.append(key, String(v));
    }
  }
  const headers: Record<string, string> = { accept: "application/json" };
  if (as) headers.authorization = `Bearer ${as.authenticated.auth.accessToken}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.stream) headers["content-type"] = options.stream.contentType;
  if (options.stream?.length !== undefined) headers["content-length"] = String(options.stream.length);
  const body = options.stream?.body ?? options.formData ?? (options.body === undefined ? undefined : JSON.stringify(options.body));

  const ended = as ? traceServiceCall(as.request) : undefined;
  const method = options.method ?? "GET";
  // A read (both its tries, and its body) has SERVICE_READ_TIMEOUT_MS; a write is never cut short, as it may have been made.
  const signal = method === "GET" ? AbortSignal.timeout(env.SERVICE_READ_TIMEOUT_MS) : undefined;
  const send = () =>
    fetch(url, {
      method,
      headers,
      body,
      signal,
      // A stream goes out as it comes in (undici requires saying so). Without `redirect: "error"` and
      // `window: null`, fetch clones the request to be able to follow a redirect, and the clone tees the
      // body: the branch never read keeps every chunk, the whole upload in the portal's memory (nodejs/undici#4058;
      // 600 MiB for a 477 MB load). The services never redirect a post.
      ...(options.stream ? { duplex: "half", redirect: "error", window: null } : {}),
    } as RequestInit);
  let res: Response;
  let json: unknown;
  try {
    res = await sendReadTwice(method, send, { service, path });
    // The wait ends with the body read: that is the round trip a page waits for.
    json = res.ok ? (res.status === 204 ? null : await res.json().catch(() => undefined)) : undefined;
    if (signal?.aborted) throw signal.reason;
  } catch (err) {
    if (timedOut(err)) {
      log.error("service did not answer in time", { service, path, ms: env.SERVICE_READ_TIMEOUT_MS });
      throw data<ServiceFailure>({ errors: [`The ${label} did not answer in time. Try again in a moment.`] }, { status: 504 });
    }
    log.error("service unreachable", { service, path, err });
    throw data<ServiceFailure>({ errors: [`The ${label} is not reachable. Try again in a moment.`] }, { status: 503 });
  } finally {
    ended?.();
  }

  // A refusal may mean a revoked role: the session's cached companies and permissions are asked again.
  if ((res.status === 401 || res.status === 403) && as) dropSessionCache(as.authenticated.session.id);
  if (res.status === 401 && as) return endSessionAndSignIn(as.request, as.authenticated.session);
  if (!res.ok) throw data<ServiceFailure>(await failureBody(res, label), { status: res.status });

  const parsed = options.schema.safeParse(json);
  if (!parsed.success) {
    log.error("service answered an unexpected shape", { service, path, issues: parsed.error.issues.slice(0, 5) });
    throw data<ServiceFailure>({ errors: [`The ${label} gave an answer the portal does not understand.`] }, { status: 502 });
  }
  return parsed.data;
}

/**
 * A download through the portal (a CSV of rejected rows): the service's answer as a stream, passed on
 * as it comes, never held. Refusals are thrown as callService throws them.
 */
export async function callServiceStream(service: ServiceName, path: string, as: Caller): Promise<Response> {
  const { label, baseUrl } = SERVICES[service];
  let res: Response;
  try {
    res = await sendReadTwice("GET", () => fetch(`${baseUrl()}${path}`, { headers: { authorization: `Bearer ${as.authenticated.auth.accessToken}` } }), {
      service,
      path,
    });
  } catch (err) {
    log.error("service unreachable", { service, path, err });
    throw data<ServiceFailure>({ errors: [`The ${label} is not reachable. Try again in a moment.`] }, { status: 503 });
  }
  if (res.status === 401 || res.status === 403) dropSessionCache(as.authenticated.session.id);
  if (res.status === 401) return endSessionAndSignIn(as.request, as.authenticated.session);
  if (!res.ok) throw data<ServiceFailure>(await failureBody(res, label), { status: res.status });
  return res;
}

async function failureBody(res: Response, label: string): Promise<ServiceFailure> {
  const text = await res.text().catch(() => "");
  if (!text.trim()) {
    if (res.status === 403) return { errors: [FORBIDDEN_MESSAGE] };
    return { errors: [`The ${label} answered ${res.status} ${res.statusText}`.trim()] };
  }
  try {
    const body = apiErrorSchema.parse(JSON.parse(text));
    return { errors: body.errors, fieldErrors: body.fieldErrors, code: body.code, values: body.values };
  } catch {
    return { errors: [res.status === 403 ? FORBIDDEN_MESSAGE : `The ${label} answered ${res.status}.`] };
  }
}
