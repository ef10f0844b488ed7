/** Flat-file loads (issue 9): the choices a load offers, Zod-free for the browser. */

/** "Replace the table's rows" (default) or "Append". */
export const LOAD_MODES = ["replace", "append"] as const;
export const LOAD_MODE_LABELS: Record<(typeof LOAD_MODES)[number], string> = { replace: "Replace the table's rows", append: "Append" };

/** "When rows are rejected": refuse the whole load (default), or load the rows that fit. */
export const ON_REJECTED = ["loadNothing", "loadOthers"] as const;
export const ON_REJECTED_LABELS: Record<(typeof ON_REJECTED)[number], string> = { loadNothing: "Load nothing", loadOthers: "Load the other rows" };

/**
 * A load's outcome: Loading while its job runs; Loaded (every row, or with "Load the other rows"
 * those that fit); Refused (rows were rejected and "Load nothing" kept the table as it was); Failed
 * (the file could not be read, or the job failed or was stopped: nothing changed).
 */
export const LOAD_STATUSES = ["Loading", "Loaded", "Refused", "Failed"] as const;

/** The largest file a load takes by default (MAX_UPLOAD_BYTES overrides it): 5 GB. */
export const MAX_UPLOAD_BYTES_DEFAULT = 5 * 1024 ** 3;
