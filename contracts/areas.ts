import { hasRole, ROLES } from "./roles";

/**
 * Spec §6, once for both processes: the portal's guards and menu, and the data API's workspace rule
 * (requireWorkspace) read the same table, so a role can never open a page whose calls the API refuses.
 */

/** The product areas of spec §2 that the guards protect. */
export type Area = "additionalOptions" | "migration" | "translations" | "onboarding";

export type CloudTarget = "AWS" | "AZURE";
export const CLOUD_TARGETS = ["AWS", "AZURE"] as const satisfies readonly CloudTarget[];

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
