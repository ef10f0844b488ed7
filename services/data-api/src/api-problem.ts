import { staleSaveMessage } from "../../../contracts/values/common.ts";
import { ApiProblem } from "../../shared/http.ts";

/**
 * ApiProblem (services/shared/http.ts) is the refusal every route, guard and repository throws; the
 * app's error handler (installErrorHandlers) answers it with its status, code, message and field
 * errors. Repositories throw it too: the rules it reports (stale version, duplicate name) live in SQL.
 */
export { ApiProblem };

export const STALE_MESSAGE = staleSaveMessage("this dictionary", null);

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

/** A 400 naming each refused field (`fieldErrors`), its first message as the problem's own. */
export function validationProblem(fieldErrors: Record<string, string[]>): ApiProblem {
  const [first] = Object.values(fieldErrors).flat();
  return new ApiProblem(400, "validation_failed", first ?? "Invalid", fieldErrors);
}
