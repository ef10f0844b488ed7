import type { PermissionEntry } from "../../contracts/client-portal";
import { hasRole, isAdmin, ROLES } from "../../contracts/roles";

/** The product areas of spec §2 that the guards protect. */
export type Area = "additionalOptions" | "migration" | "translations" | "onboarding";

export type CloudTarget = "AWS" | "AZURE";

export type AccessSettings = { cloudTarget: CloudTarget; translationAnalystRole: string };

/** Spec §6 and DOMAIN.md "Who sees what": the roles allowed into each area. */
export function areaRoles(area: Area, settings: AccessSettings): string[] {
  switch (area) {
    case "additionalOptions":
      return [ROLES.SuperAdmin, ROLES.Support];
    case "migration":
      return [ROLES.SuperAdmin, ROLES.Support, ROLES.Analyst, ROLES.ClientAdmin];
    case "translations":
      return [ROLES.SuperAdmin, ROLES.Support, ROLES.Analyst, settings.translationAnalystRole];
    case "onboarding":
      return [ROLES.SuperAdmin, ROLES.Support, ROLES.Analyst];
  }
}

/** Translations and Onboarding do not exist on the Azure cloud target. */
export function areaAvailable(area: Area, settings: AccessSettings): boolean {
  return settings.cloudTarget !== "AZURE" || (area !== "translations" && area !== "onboarding");
}

export function mayEnterArea(area: Area, roles: readonly string[], settings: AccessSettings): boolean {
  return areaAvailable(area, settings) && areaRoles(area, settings).some((r) => hasRole(roles, r));
}

/**
 * The roles that count in the selected company. SuperAdmin and Support keep their identity roles
 * everywhere. Other users get the product roles their permissions give for this company; when the
 * permissions could not be loaded (`null`), the identity attribute alone (spec §8: fewer roles, never more).
 */
export function rolesInCompany(
  identityRoles: readonly string[],
  permissions: readonly PermissionEntry[] | null,
  companyId: string | null,
): string[] {
  if (isAdmin(identityRoles)) return [...identityRoles];
  if (permissions === null) return [...identityRoles];
  if (!companyId) return [];
  return permissions.filter((p) => p.companyId === companyId).map((p) => p.productRoleName);
}
