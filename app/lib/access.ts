import type { PermissionEntry } from "../../contracts/client-portal";
import { isAdmin } from "../../contracts/roles";

export { areaAvailable, areaRoles, mayEnterArea, type AccessSettings, type Area, type CloudTarget } from "../../contracts/areas";

/**
 * The roles that count in the selected company. SuperAdmin and Support keep their identity roles
 * everywhere. Other users get the product roles their permissions give for this company; when the
 * permissions could not be loaded (`null`), the identity attribute alone (spec §8: fewer roles, never more).
 * SuperAdmin and Support are identity roles, never product roles: a permission entry naming one grants
 * nothing, as the data API reads it (requireAreaRole), or the menu would open areas whose every call it refuses.
 */
export function rolesInCompany(
  identityRoles: readonly string[],
  permissions: readonly PermissionEntry[] | null,
  companyId: string | null,
): string[] {
  if (isAdmin(identityRoles)) return [...identityRoles];
  if (permissions === null) return [...identityRoles];
  if (!companyId) return [];
  return permissions.filter((p) => p.companyId === companyId && !isAdmin([p.productRoleName])).map((p) => p.productRoleName);
}
