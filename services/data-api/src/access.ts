import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { PermissionEntry } from "../../../contracts/client-portal.ts";
import type { Company } from "../../../contracts/data-api.ts";
import { areaAvailable, areaRoles, type AccessSettings, type Area } from "../../../contracts/areas.ts";
import { DEFAULT_TRANSLATION_ANALYST_ROLE, hasRole, isAdmin } from "../../../contracts/roles.ts";
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
  if (callerSeesEveryCompany(c.var.caller.roles)) return ALL_COMPANIES;
  return scopeFromPermissions(await callerPermissions(c));
}

/** The caller's client-portal permission entries (cached per token); 503 when they cannot be loaded. */
async function callerPermissions(c: AnyContext): Promise<PermissionEntry[]> {
  const caller = c.var.caller;
  try {
    return await c.var.deps.permissions.forCaller(caller);
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

export const FORBIDDEN_MESSAGE = "You don't have permission to access.";

/** The access settings of an app built without its own: AWS, with the default translation analyst role. */
export const DEFAULT_ACCESS_SETTINGS: AccessSettings = { cloudTarget: "AWS", translationAnalystRole: DEFAULT_TRANSLATION_ANALYST_ROLE };

export function accessSettings(c: AnyContext): AccessSettings {
  return c.var.deps.accessSettings ?? DEFAULT_ACCESS_SETTINGS;
}

/** Whether `area` exists on this cloud target (spec §2: Translations and Onboarding not on Azure). */
export function areaIsAvailable(c: AnyContext, area: Area): boolean {
  return areaAvailable(area, accessSettings(c));
}

export type AreaAccess = {
  /** Not used yet: reads and writes need the same roles today; the flag keeps call sites ready. */
  write: boolean;
  /**
   * The 404 message when the company is not visible. An object of another company must answer
   * exactly like an unknown id of its kind ("Data dictionary not found."), not "Company not found.".
   */
  notFoundMessage?: string;
};

/**
 * An area's rule (spec §6, contracts/areas.ts areaRoles): the area must exist on this cloud target
 * and the company must be visible (else 404, as requireCompany), and the caller must be SuperAdmin or
 * Support, or hold one of the area's product roles *for that company* in their client-portal
 * permissions (else 403). A Viewer or Manager sees the company in the list but gets 403 here; so
 * does a ClientAdmin in Onboarding.
 */
export async function requireAreaRole(c: AnyContext, area: Area, companyId: string, options: AreaAccess): Promise<Company> {
  const notFound = () => new HTTPException(404, { message: options.notFoundMessage ?? COMPANY_NOT_FOUND_MESSAGE });
  if (!areaIsAvailable(c, area)) throw notFound();
  let company: Company;
  try {
    company = await requireCompany(c, companyId);
  } catch (err) {
    if (err instanceof HTTPException && err.status === 404) throw notFound();
    throw err;
  }
  if (isAdmin(c.var.caller.roles)) return company;
  // SuperAdmin and Support are identity roles (every company); a permission entry naming one grants nothing.
  const productRoles = areaRoles(area, accessSettings(c)).filter((role) => !isAdmin([role]));
  const entries = await callerPermissions(c);
  const allowed = entries.some((e) => e.companyId === company.id && productRoles.some((role) => hasRole([e.productRoleName], role)));
  if (!allowed) throw new HTTPException(403, { message: FORBIDDEN_MESSAGE });
  return company;
}

/**
 * The Migration area's rule (requireAreaRole): applications and master dictionaries use it. Reading
 * them is also open to the Translations area's roles (the translation module's analyst holds no other):
 * a mapping project names the application its files come from, and may copy a master dictionary.
 */
export async function requireMigrationRole(c: AnyContext, companyId: string, options: AreaAccess): Promise<Company> {
  try {
    return await requireAreaRole(c, "migration", companyId, options);
  } catch (err) {
    if (options.write || !(err instanceof HTTPException) || err.status !== 403 || !areaIsAvailable(c, "translations")) throw err;
    return requireAreaRole(c, "translations", companyId, options);
  }
}

/**
 * SuperAdmin or Support, or `role` in the caller's client-portal permissions for the company (which
 * must be visible: else 404 as requireCompany). Else 403. Webhooks use it: admins and the company's
 * ClientAdmin manage them (issue 13).
 */
export async function requireCompanyRole(c: AnyContext, companyId: string, role: string, notFoundMessage?: string): Promise<Company> {
  let company: Company;
  try {
    company = await requireCompany(c, companyId);
  } catch (err) {
    if (notFoundMessage && err instanceof HTTPException && err.status === 404) throw new HTTPException(404, { message: notFoundMessage });
    throw err;
  }
  if (isAdmin(c.var.caller.roles)) return company;
  const entries = await callerPermissions(c);
  if (!entries.some((e) => e.companyId === company.id && hasRole([e.productRoleName], role))) throw new HTTPException(403, { message: FORBIDDEN_MESSAGE });
  return company;
}

/** SuperAdmin or Support (Additional Options' data: the audit log, product details), else 403. */
export function requireAdmin(c: AnyContext): void {
  if (!isAdmin(c.var.caller.roles)) throw new HTTPException(403, { message: FORBIDDEN_MESSAGE });
}
