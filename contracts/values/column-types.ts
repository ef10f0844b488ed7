/*
 * Zod-free, as values/dictionary.ts (which re-exports them for the schemas and the services): the table
 * editor imports them from here, so that the pages with it do not load that module's tables and limits.
 */

/** Spec §3: the column types a dictionary offers. */
export const COLUMN_TYPES = ["int", "decimal", "float", "bigint", "date", "time", "datetime", "nvarchar", "uniqueidentifier"] as const;

/**
 * The one place that says which column types take a length (nvarchar) and a precision and scale
 * (decimal): the column's schema, the table editor (which hides the others' fields with JavaScript)
 * and the portal's actions (which drop what a form without JavaScript still posts for them) read it.
 */
export const isColumnType = (type: string): type is (typeof COLUMN_TYPES)[number] => (COLUMN_TYPES as readonly string[]).includes(type);
export const takesLength = (type: string): boolean => type === "nvarchar";
export const takesPrecision = (type: string): boolean => type === "decimal";
