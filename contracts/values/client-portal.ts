/*
 * Zod-free: the browser imports these (labels, options, limits) without pulling in Zod. The schemas in
 * contracts/client-portal.ts build on them and re-export them, so the services import from there as before.
 */

/** The generic name shown when a tenant has not set one (spec §1). */
export const DEFAULT_BRAND_NAME = "Data Hub";
