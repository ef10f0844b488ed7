/** Flat-file loads (issue 9): the choices a load offers, Zod-free for the browser. */

/** "Replace the table's rows" (default) or "Append". */
export const LOAD_MODES = ["replace", "append"] as const;
export const LOAD_MODE_LABELS: Record<(typeof LOAD_MODES)[number], string> = { replace: "Replace the table's rows", append: "Append" };

/** "When rows are rejected": refuse the whole load (default), or load the rows that fit. */
export const ON_REJECTED = ["loadNothing", "loadOthers"] as const;
export const ON_REJECTED_LABELS: Record<(typeof ON_REJECTED)[number], string> = { loadNothing: "Load nothing", loadOthers: "Load the other rows" };

/**
 * An entry's outcome: Loading while its job runs; Loaded (a load: every row, or with "Load the other
 * rows" those that fit; a restore or an undo: the data restored); Refused (the file was read, and the load
 * kept every table as it was: rows were rejected with "Load nothing", or a Replace would have emptied a
 * table, its file having no rows or none that fit); Completed (a backup taken, a comparison made); Failed
 * (the input could not be read, or the job failed or was stopped: nothing changed).
 */
export const LOAD_STATUSES = ["Loading", "Loaded", "Refused", "Completed", "Failed"] as const;
export type LoadStatus = (typeof LOAD_STATUSES)[number];

/** How a status reads for an entry of that type: work other than a load is "Running", a restore "Restored". */
export function statusLabel(type: HistoryType, status: LoadStatus): string {
  if (status === "Loading") return type === "FlatFile" ? "Loading" : "Running";
  if (status === "Loaded" && type !== "FlatFile") return "Restored";
  return status;
}

/** A status in the history's Status filter: every way statusLabel says it ("Loaded or restored"), so the rows' words are found there. */
export function statusFilterLabel(status: LoadStatus): string {
  const labels = [...new Set(HISTORY_TYPES.map((type) => statusLabel(type, status)))];
  return labels.map((label, i) => (i === 0 ? label : label.toLowerCase())).join(" or ");
}

/** The largest file a load takes by default (MAX_UPLOAD_BYTES overrides it): 5 GB. */
export const MAX_UPLOAD_BYTES_DEFAULT = 5 * 1024 ** 3;

/**
 * What a history entry records (issue 9 §3: one entry per load, restore, backup, comparison and
 * undo): spec §4's run types, and Undo (a restore of the data as it was before an entry).
 */
export const HISTORY_TYPES = ["FlatFile", "Restore", "Backup", "Comparison", "RestoreAndComparison", "Undo"] as const;
export type HistoryType = (typeof HISTORY_TYPES)[number];
export const HISTORY_TYPE_LABELS: Record<HistoryType, string> = {
  FlatFile: "Flat-file load",
  Restore: "Restore",
  Backup: "Backup",
  Comparison: "Comparison",
  RestoreAndComparison: "Restore and comparison",
  Undo: "Undo",
};

/** The entries whose job changed the source data: each took an automatic backup first, so each can be undone. */
export const CHANGING_TYPES: readonly HistoryType[] = ["FlatFile", "Restore", "RestoreAndComparison", "Undo"];

/** The history's sorts: when (newest first by default), type, status, file, rows loaded; "-" for descending. */
export const HISTORY_SORTS = ["createdAt", "-createdAt", "type", "-type", "status", "-status", "file", "-file", "rowsLoaded", "-rowsLoaded"] as const;
export type HistorySort = (typeof HISTORY_SORTS)[number];
export const DEFAULT_HISTORY_SORT: HistorySort = "-createdAt";
