/*
 * Zod-free: the browser imports these (labels, options, limits) without pulling in Zod. The schemas in
 * contracts/projects.ts build on them and re-export them, so the services import from there as before.
 */

/** Spec §4. */
export const PROJECT_STATUSES = [
  "None",
  "Active",
  "Inactive",
  "Completed",
  "DatabaseCreation",
  "SetupUploadTypeIncomplete",
  "SetupRestoreDatabaseIncomplete",
  "SetupAssignTemplatesIncomplete",
  "SetupAddColumnsIncomplete",
  "SetupDataDictionaryIncomplete",
  "DatabaseCreationFailed",
] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** The readable words for each status (the project list shows these, never the enum names). */
export const PROJECT_STATUS_LABELS: Record<ProjectStatus, string> = {
  None: "None",
  Active: "Active",
  Inactive: "Inactive",
  Completed: "Completed",
  DatabaseCreation: "Creating databases",
  SetupUploadTypeIncomplete: "Setup: choose upload type",
  SetupRestoreDatabaseIncomplete: "Setup: load source data",
  SetupAssignTemplatesIncomplete: "Setup: assign templates",
  SetupAddColumnsIncomplete: "Setup: add columns",
  SetupDataDictionaryIncomplete: "Setup: data dictionary",
  DatabaseCreationFailed: "Database creation failed",
};

/** DOMAIN.md: after setup, Active ⇄ Inactive and Active → Completed, by a user with write access. */
export const STATUS_CHANGES: Partial<Record<ProjectStatus, ProjectStatus[]>> = {
  Active: ["Inactive", "Completed"],
  Inactive: ["Active"],
};

export const LOCK_REASONS = ["Restore", "Backup", "DataComparison", "ProjectRun", "FlatFileCreation", "DatabaseCreation"] as const;
export const LOCK_STATES = ["Unlocked", "ForceUnlocked", "Locked"] as const;

export const SOURCE_TYPES = ["BackUp", "FlatFile"] as const;
export const SOURCE_TYPE_LABELS: Record<(typeof SOURCE_TYPES)[number], string> = { BackUp: "Backup", FlatFile: "Flat file" };

export const UPLOAD_TYPES = ["SingleFile", "MultipleFiles"] as const;
export const UPLOAD_TYPE_LABELS: Record<(typeof UPLOAD_TYPES)[number], string> = { SingleFile: "Single file", MultipleFiles: "Multiple files" };

/** Spec §5. */
export const FLAT_FILE_EXTENSIONS = [".csv", ".txt", ".dta", ".xlsx"] as const;
export const DELIMITERS = ["AutoDetect", "FixedLength", "Excel", "Tab", "Comma", "Pipe", "Semicolon", "Tilde", "Apostrophe", "Caret"] as const;
export const DELIMITER_LABELS: Record<(typeof DELIMITERS)[number], string> = {
  AutoDetect: "Auto detect",
  FixedLength: "Fixed Length",
  Excel: "Excel",
  Tab: "Tab",
  Comma: "comma",
  Pipe: "pipe",
  Semicolon: "semicolon",
  Tilde: "tilde",
  Apostrophe: "apostrophe",
  Caret: "caret",
};
export const TEXT_QUALIFIERS = ["DoubleQuote", "SingleQuote", "None"] as const;
export const TEXT_QUALIFIER_LABELS: Record<(typeof TEXT_QUALIFIERS)[number], string> = {
  DoubleQuote: 'Double quote (")',
  SingleQuote: "Single quote (')",
  None: "None",
};
export const ENCODINGS = ["UTF-8", "UTF-16LE", "Windows-1252", "ISO-8859-1"] as const;

/** What a workspace without saved flat-file parameters loads with: CSV with a header row, delimiter detected, UTF-8. */
export const DEFAULT_FLAT_FILE_PARAMETERS = {
  extension: ".csv",
  delimiter: "AutoDetect",
  hasHeaderRow: true,
  textQualifier: "DoubleQuote",
  encoding: "UTF-8",
} as const satisfies {
  extension: (typeof FLAT_FILE_EXTENSIONS)[number];
  delimiter: (typeof DELIMITERS)[number];
  hasHeaderRow: boolean;
  textQualifier: (typeof TEXT_QUALIFIERS)[number];
  encoding: (typeof ENCODINGS)[number];
};

export const PROJECT_SORTS = ["name", "-name", "status", "-status", "application", "-application", "updatedAt", "-updatedAt"] as const;
