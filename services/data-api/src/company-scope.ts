import type { PermissionEntry } from "../../../contracts/client-portal.ts";
import { isAdmin } from "../../../contracts/roles.ts";

/**
 * Which companies a caller may see. Plain data, so repositories can filter in SQL with it and every
 * resource applies the same rule: SuperAdmin and Support see every company; everybody else sees the
 * companies their client-portal permission entries name, whatever the product role.
 */
export type CompanyScope = { all: true } | { all: false; companyIds: readonly string[] };

export const ALL_COMPANIES: CompanyScope = { all: true };

export function scopeFromPermissions(entries: readonly PermissionEntry[]): CompanyScope {
  return { all: false, companyIds: [...new Set(entries.map((e) => e.companyId))] };
}

/** Admins never need the permissions call; the caller's identity roles decide that alone. */
export function callerSeesEveryCompany(roles: readonly string[]): boolean {
  return isAdmin(roles);
}

export function scopeIncludes(scope: CompanyScope, companyId: string): boolean {
  return scope.all || scope.companyIds.includes(companyId);
}

/** True when no row can match: lets a repository skip the query (SQL `IN ()` is not valid). */
export function scopeIsEmpty(scope: CompanyScope): boolean {
  return !scope.all && scope.companyIds.length === 0;
}
