import type { Context, ErrorHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { apiError } from "../../shared/http.ts";

/**
 * A refusal the client can act on: a status, one readable line and, when it concerns fields of the
 * request, `fieldErrors` keyed by the field's dotted path (as the 400 validation hook does).
 *
 * It is an HTTPException, so thrown anywhere it still answers its status and message through the
 * app's error handler; routers that install `answerApiProblems` also answer its `fieldErrors`.
 * Repositories throw it too: the rules it reports (stale version, duplicate name) live in SQL.
 */
export class ApiProblem extends HTTPException {
  override name = "ApiProblem";
  constructor(
    readonly statusCode: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly fieldErrors?: Record<string, string[]>,
  ) {
    super(statusCode, { message });
  }
}

export const STALE_MESSAGE = "This dictionary was changed by someone else. Reload and try again.";

/** The object changed since the client read it (its version moved on): nothing was written. */
export class ConflictError extends ApiProblem {
  constructor(message = STALE_MESSAGE) {
    super(409, "conflict", message);
  }
}

/** A name that must be unique is taken; `field` is the request field that holds it. */
export class DuplicateNameError extends ApiProblem {
  constructor(field: string, message: string) {
    super(409, "duplicate_name", message, { [field]: [message] });
  }
}

export class NotFoundError extends ApiProblem {
  constructor(message: string) {
    super(404, "not_found", message);
  }
}

/**
 * A router's `onError`: answers an ApiProblem with its field errors and passes everything else on
 * to the app's handler (a sub-app's handler runs first; rethrowing reaches the parent's).
 *
 *   createRouter().onError(answerApiProblems)
 */
export const answerApiProblems: ErrorHandler = (err, c: Context) => {
  if (err instanceof ApiProblem) return apiError(c, err.statusCode, err.code, [err.message], err.fieldErrors);
  throw err;
};
