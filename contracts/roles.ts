/** Spec §6: the product's roles, as they appear in the identity's role attribute. */
export const ROLES = {
  SuperAdmin: "SuperAdmin",
  Support: "Support",
  Analyst: "DataTransformation_Analyst",
  Viewer: "DataTransformation_Viewer",
  ClientAdmin: "DataTransformation_ClientAdmin",
  Manager: "DataTransformation_Manager",
} as const;

/** The default name of the translation module's combined analyst role (configurable per deployment). */
export const DEFAULT_TRANSLATION_ANALYST_ROLE = "FusionPSI_TranslationAnalyst";

/** The default claim that carries the semicolon-separated role list. */
export const DEFAULT_ROLES_CLAIM = "custom:roles";

/** Splits a role attribute on `;`, trims, and drops empties. Matching is case-insensitive elsewhere. */
export function parseRoleAttribute(value: unknown): string[] {
  if (typeof value !== "string") return [];
  return value
    .split(";")
    .map((r) => r.trim())
    .filter(Boolean);
}

export function hasRole(roles: readonly string[], role: string): boolean {
  const wanted = role.toLowerCase();
  return roles.some((r) => r.toLowerCase() === wanted);
}

/** SuperAdmin and Support work in every company. */
export function isAdmin(roles: readonly string[]): boolean {
  return hasRole(roles, ROLES.SuperAdmin) || hasRole(roles, ROLES.Support);
}

/**
 * The readable name drops the product prefix (spec §6): "DataTransformation_Analyst" → "Analyst".
 * Other modules' roles drop theirs the same way ("FusionPSI_TranslationAnalyst" → "TranslationAnalyst",
 * DOMAIN.md); roles without a prefix ("SuperAdmin") stay as they are.
 */
export function readableRole(role: string): string {
  const underscore = role.indexOf("_");
  return underscore > 0 && underscore < role.length - 1 ? role.slice(underscore + 1) : role;
}
