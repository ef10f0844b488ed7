import type { ProjectStatus } from "./projects";

/** The statuses a translation mapping project goes through (its wizard, then as a project's). */
export const MAPPING_PROJECT_STATUSES = [
  "SetupAddColumnsIncomplete",
  "SetupAssignTemplatesIncomplete",
  "Active",
  "Inactive",
  "Completed",
] as const satisfies readonly ProjectStatus[];

/** What a translation does with a source value its map does not know (the mappingTable page). */
export const UNMAPPED_RULES = ["Keep", "Default", "Reject"] as const;
export type UnmappedRule = (typeof UNMAPPED_RULES)[number];
export const UNMAPPED_RULE_LABELS: Record<UnmappedRule, string> = {
  Keep: "Keep the source value",
  Default: "Use a default value",
  Reject: "Reject the row",
};

/** A value map's CSV: its header, exactly (export writes it, import requires it). */
export const VALUE_MAP_CSV_HEADER = ["source_value", "target_value"] as const;
/** The most values one import may hold; a bigger map is imported in parts. */
export const VALUE_MAP_IMPORT_MAX_ROWS = 100_000;
/** The most values one bulk edit (one form post) may change. */
export const VALUE_MAP_EDIT_MAX = 1_000;
/** The longest source or target value a map keeps (a value longer than its column's length is refused anyway). */
export const VALUE_MAX_LENGTH = 4_000;
/** The longest search of a value map ("Search values": part of a source or target value). */
export const VALUE_SEARCH_MAX_LENGTH = 200;

/** A source or target value as a message names it: quoted, no longer than its first 60 characters. */
export const quotedValue = (value: string) => `"${value.length > 60 ? `${value.slice(0, 60)}…` : value}"`;

/** "Translate a file": running, then done or failed. */
export const TRANSLATION_STATUSES = ["Running", "Completed", "Failed"] as const;
export type TranslationStatus = (typeof TRANSLATION_STATUSES)[number];
/** The report lists at most this many unmapped values per column (with the total) and rejected rows. */
export const TRANSLATION_REPORT_SAMPLE = 20;
