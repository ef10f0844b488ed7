import { randomUUID } from "node:crypto";
import type { Context, Hono, MiddlewareHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ApiError } from "../../contracts/errors.ts";
import type { Logger } from "./logger.ts";

export type RequestIdVariables = { requestId: string };

/** Gives every request an id (kept from `x-request-id` when a caller sends one) and echoes it back. */
export function requestId(): MiddlewareHandler<{ Variables: RequestIdVariables }> {
  return async (c, next) => {
    const id = c.req.header("x-request-id") ?? randomUUID();
    c.set("requestId", id);
    c.header("x-request-id", id);
    await next();
  };
}

/** The one JSON error body of both services (contracts/errors.ts). */
export function apiError(
  c: Context,
  status: ContentfulStatusCode,
  code: string,
  errors: string[],
  fieldErrors?: Record<string, string[]>,
  values?: Record<string, string>,
) {
  const body: ApiError = { status, code, errors, ...(fieldErrors ? { fieldErrors } : {}), ...(values ? { values } : {}) };
  const rid = c.get("requestId" as never) as string | undefined;
  if (rid) body.requestId = rid;
  return c.json(body, status);
}

/**
 * A refusal the client can act on: a status, a `code`, one readable line and, when it concerns fields
 * of the request, `fieldErrors` keyed by the field's dotted path (as a 400 validation failure has).
 * Thrown anywhere (a route, a guard, a repository), the app's one error handler answers it with the
 * JSON error body: no router has to remember to.
 */
export class ApiProblem extends HTTPException {
  override name = "ApiProblem";
  constructor(
    readonly statusCode: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly fieldErrors?: Record<string, string[]>,
    /** Further lines after the message, each a line of the body's `errors` (a list the client shows). */
    readonly details: readonly string[] = [],
  ) {
    super(statusCode, { message });
  }
  /** An upload's refusal: the choices it was sent with (contracts/errors.ts `values`). */
  values?: Record<string, string>;
}

/** 404 and onError for a Hono app: JSON bodies, never a stack trace; 5xx logged with the request id. */
export function installErrorHandlers(
  app: Hono<any>,
  logger: Logger,
  /** A failure that is a server the service needs not answering (its message), said as a 503 to try again, not a 500. */
  unavailable?: (err: unknown) => string | null,
) {
  app.notFound((c) => apiError(c, 404, "not_found", ["Not found."]));
  app.onError((err, c) => {
    if (err instanceof ApiProblem) return apiError(c, err.statusCode, err.code, [err.message, ...err.details], err.fieldErrors, err.values);
    if (err instanceof HTTPException) {
      const status = err.status as ContentfulStatusCode;
      return apiError(c, status, httpCode(status), [err.message || defaultMessage(status)]);
    }
    const gone = unavailable?.(err);
    if (gone) {
      logger.warn("a server the request needs is not answering", { err, requestId: c.get("requestId" as never), path: c.req.path });
      return apiError(c, 503, "service_unavailable", [gone]);
    }
    logger.error("unhandled error", { err, requestId: c.get("requestId" as never), path: c.req.path });
    return apiError(c, 500, "internal_error", ["Something went wrong. Quote the request id when you report it."]);
  });
}

function httpCode(status: number) {
  return ({ 400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found", 409: "conflict", 413: "payload_too_large", 429: "too_many_requests", 503: "service_unavailable" } as Record<number, string>)[status] ?? "error";
}

function defaultMessage(status: number) {
  return ({ 400: "Bad request.", 401: "Authentication required.", 403: "You don't have permission to access.", 404: "Not found.", 409: "Conflict.", 503: "The service is unavailable. Try again in a moment." } as Record<number, string>)[status] ?? "Request failed.";
}
