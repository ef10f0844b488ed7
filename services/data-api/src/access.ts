import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { Company } from "../../../contracts/data-api.ts";
import { ALL_COMPANIES, callerSeesEveryCompany, scopeFromPermissions, scopeIncludes, type CompanyScope } from "./company-scope.ts";
import type { AppEnv } from "./context.ts";
import { PermissionsUnavailableError } from "./permissions.ts";
import { findCompany } from "./repositories/companies.ts";

/**
 * The one company rule of the data API; every resource goes through it.
 *
 *   const scope = await companyScope(c);      // filter lists in SQL with it
 *   const company = await requireCompany(c, companyIdOfTheObject); // 404 unless visible
 *
 * An object of a company the caller may not see answers exactly like one that does not exist,
 * so ids of other tenants cannot be probed. Objects that belong to a company (projects,
 * dictionaries, applications, …) look up their row, then call requireCompany with its company id;
 * project-level access (canRead/canWrite) is a further check on top of this one, never instead.
 */

type AnyContext = Context<AppEnv, any, any>;

export const PERMISSIONS_UNAVAILABLE_MESSAGE =
  "Permissions could not be loaded from the client portal. Try again in a moment.";

export const COMPANY_NOT_FOUND_MESSAGE = "Company not found.";

/** The companies the caller may see. Fails with 503 when the permissions cannot be loaded: never grants more. */
export async function companyScope(c: AnyContext): Promise<CompanyScope> {
  const caller = c.var.caller;
  if (callerSeesEveryCompany(caller.roles)) return ALL_COMPANIES;
  try {
    return scopeFromPermissions(await c.var.deps.permissions.forCaller(caller));
  } catch (err) {
    if (!(err instanceof PermissionsUnavailableError)) throw err;
    c.var.deps.logger.warn("permissions unavailable", { err, userId: caller.userId, requestId: c.var.requestId });
    throw new HTTPException(503, { message: PERMISSIONS_UNAVAILABLE_MESSAGE, cause: err });
  }
}

/** The company `companyId` if the caller may see it and it exists; otherwise a 404, the same in both cases. */
export async function requireCompany(c: AnyContext, companyId: string): Promise<Company> {
  const scope = await companyScope(c);
  const company = scopeIncludes(scope, companyId) ? await findCompany(c.var.deps.db, companyId) : undefined;
  if (!company) throw new HTTPException(404, { message: COMPANY_NOT_FOUND_MESSAGE });
  return company;
}
