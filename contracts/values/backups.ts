/** Backups, restores and comparisons (issue 10): constants the browser may import, Zod-free. */

/** "Back up now" makes a Manual backup; every load and restore first takes an Automatic one (for Undo). */
export const BACKUP_KINDS = ["Manual", "Automatic"] as const;
export type BackupKind = (typeof BACKUP_KINDS)[number];

/** Running while its job writes it; Ready to download, restore and compare; Failed (its file is gone). */
export const BACKUP_STATUSES = ["Running", "Ready", "Failed"] as const;

/** Automatic backups kept per workspace by default (AUTO_BACKUPS_KEPT): older ones go as new ones come. */
export const AUTO_BACKUPS_KEPT_DEFAULT = 10;

/** The file a backup is: a tar archive (manifest.json, then one gzipped CSV per table). */
export const BACKUP_FILE_EXTENSION = ".backup.tar";

/** What the restore page takes: a backup archive of this product, or a client's SQLite export. */
export const RESTORE_FILE_EXTENSIONS = [".tar", ".sqlite", ".db", ".sqlite3"] as const;

/** The rows of each kind a comparison keeps per table to show. */
export const COMPARISON_SAMPLE_ROWS = 20;

/**
 * The most characters a value of a comparison's samples keeps: a longer one is cut, "…" where its text
 * goes on (a changed value around where it first differs), so that one cell cannot make a page of megabytes.
 */
export const COMPARISON_VALUE_MAX = 200;
