/*
 * Zod-free: the browser imports these (labels, options, limits) without pulling in Zod. The schemas in
 * contracts/configurations.ts build on them and re-export them, so the services import from there as before.
 */

/** Spec §4: the statuses a configuration shows (its wizard passes through the database-creation ones too). */
export const CONFIGURATION_STATUSES = ["Active", "SetupAddColumnsIncomplete", "SetupAssignTemplatesIncomplete"] as const;
