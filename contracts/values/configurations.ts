/*
 * Zod-free: the browser imports these (labels, options, limits) without pulling in Zod. The schemas in
 * contracts/configurations.ts build on them and re-export them, so the services import from there as before.
 */

/** Spec §4: the statuses a configuration shows (its wizard passes through the database-creation ones too). */
export const CONFIGURATION_STATUSES = ["Active", "SetupAddColumnsIncomplete", "SetupAssignTemplatesIncomplete"] as const;

/** A workspace's two project databases (schemas): what is loaded, and what its runs make. */
export const PROJECT_DATABASE_KINDS = ["source", "destination"] as const;
export type ProjectDatabaseKind = (typeof PROJECT_DATABASE_KINDS)[number];

/** How a database's tables may be listed (databases/tables): by name, or by size on disk, largest first with `-`. */
export const DATABASE_TABLE_SORTS = ["name", "-name", "-size", "size"] as const;
export type DatabaseTableSort = (typeof DATABASE_TABLE_SORTS)[number];
