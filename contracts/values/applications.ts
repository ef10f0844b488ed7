/*
 * Zod-free: the browser imports these (labels, options, limits) without pulling in Zod. The schemas in
 * contracts/applications.ts build on them and re-export them, so the services import from there as before.
 */

export const APPLICATION_SORTS = ["name", "-name", "createdAt", "-createdAt"] as const;
export type ApplicationSort = (typeof APPLICATION_SORTS)[number];
