/**
 * Backups, restores, undo and comparisons of a workspace's data (issue 10; ARCHITECTURE.md §3a): a
 * backup as the lists show it, what a restore or a comparison is started from, and a comparison's
 * result per table.
 */
import { z } from "zod";
import { formBoolean, pageOf, pageQuerySchema, timestampSchema, versionSchema, whenFieldsPass } from "./common";
import { backupAfterSchema, historyDetailsSchema, historyEntrySchema } from "./loads";
import { BACKUP_KINDS, BACKUP_STATUSES } from "./values/backups";

export const backupSchema = z.object({
  id: z.string(),
  /** The file's name: the workspace's name and when it was taken. */
  name: z.string(),
  kind: z.enum(BACKUP_KINDS),
  status: z.enum(BACKUP_STATUSES),
  /** The archive's size. */
  bytes: z.number().int(),
  tableCount: z.number().int(),
  rowCount: z.number().int(),
  /** The entry of the history whose result this backup holds: "the data as it was after" that entry; null when nothing had been loaded yet. */
  after: backupAfterSchema,
  createdBy: z.string(),
  createdAt: timestampSchema,
});
export type Backup = z.infer<typeof backupSchema>;
export const backupPageSchema = pageOf(backupSchema);
export const backupQuerySchema = pageQuerySchema.extend({
  /** Only backups holding the data after a flat-file load: the deliveries a comparison can start from. */
  deliveries: formBoolean.optional(),
});
export type BackupQuery = z.output<typeof backupQuerySchema>;

/** A job started (202): its history entry and the job. */
export const startedWorkSchema = z.object({ entry: historyEntrySchema, jobId: z.string() });
export type StartedWork = z.infer<typeof startedWorkSchema>;

export const CHOOSE_BACKUP_MESSAGE = "Choose a backup, or a file to restore";

/**
 * POST …/restores as JSON: one of the workspace's backups (`backupId`), or the data as it was before
 * an entry of the history (`undo`: that entry's id). Multipart instead sends a file (`file`: a backup
 * archive or a SQLite database) and `compare`.
 */
/** The longest reason a restore or an undo keeps in the audit log. */
export const RESTORE_REASON_MAX = 500;
/** Why a restore or an undo was started, kept in the audit log: a JSON body's `reason` and an uploaded file's form field alike; empty is none. */
export const restoreReasonSchema = z
  .string()
  .trim()
  .max(RESTORE_REASON_MAX, `At most ${RESTORE_REASON_MAX} characters`)
  .nullish()
  .transform((v) => v || null);

export const restoreBodySchema = z
  .object({
    backupId: z.string().trim().optional(),
    undo: z.string().trim().optional(),
    /**
     * With `undo`, and only there required: the workspace's version the undo page showed. A stale one (the
     * undo sent again from Back or another tab, or the data changed since) answers 409, nothing restored.
     */
    version: versionSchema.optional(),
    /** Also compare the restored data with the data it replaces (RestoreAndComparison). */
    compare: formBoolean.optional(),
    /** Why: kept in the audit log. */
    reason: restoreReasonSchema,
  })
  .refine((b) => Boolean(b.backupId) !== Boolean(b.undo), { ...whenFieldsPass("backupId", "undo"), message: CHOOSE_BACKUP_MESSAGE, path: ["backupId"] })
  .refine((b) => !b.undo || b.version !== undefined, { ...whenFieldsPass("undo", "version"), message: "Required with undo", path: ["version"] });
export type RestoreBody = z.infer<typeof restoreBodySchema>;

export const CHOOSE_COMPARISON_MESSAGE = "Choose the earlier data to compare with";

/** POST …/comparisons: the current data compared with a backup, or with the data as it was after an entry of the history. */
export const comparisonBodySchema = z
  .object({ backupId: z.string().trim().optional(), historyId: z.string().trim().optional() })
  .refine((b) => Boolean(b.backupId) !== Boolean(b.historyId), {
    ...whenFieldsPass("backupId", "historyId"),
    message: CHOOSE_COMPARISON_MESSAGE,
    path: ["backupId"],
  });
export type ComparisonBody = z.infer<typeof comparisonBodySchema>;

const valueSchema = z.string().nullable();

/** One table of a comparison: the earlier data (a backup) against the current source. */
export const tableComparisonSchema = z.object({
  table: z.string(),
  /** The key columns rows were matched by; null: by whole row (the table has no key), so no row is "changed". */
  key: z.array(z.string()).nullable(),
  columns: z.array(z.string()),
  earlierRows: z.number().int(),
  currentRows: z.number().int(),
  added: z.number().int(),
  removed: z.number().int(),
  changed: z.number().int(),
  changedColumns: z.array(z.object({ column: z.string(), rows: z.number().int() })),
  /**
   * Columns not the same on both sides (the dictionary changed between them), with their types as the
   * dictionary names them: `current` null, gone since (its values not compared); `earlier` null, new
   * (empty in the earlier data); both, its type changed (values compared as text). Absent from
   * comparisons stored before it was recorded.
   */
  columnChanges: z.array(z.object({ column: z.string(), earlier: z.string().nullable(), current: z.string().nullable() })).default([]),
  samples: z.object({
    added: z.array(z.array(valueSchema)),
    removed: z.array(z.array(valueSchema)),
    changed: z.array(z.object({ key: z.array(valueSchema), changes: z.array(z.object({ column: z.string(), earlier: valueSchema, current: valueSchema })) })),
  }),
});
export type TableComparisonResult = z.infer<typeof tableComparisonSchema>;

/** A comparison's result in all, summed in SQL over its tables: what its page says above a page of them. */
export const comparisonSummarySchema = z.object({
  /** Tables compared. */
  tables: z.number().int(),
  /** Tables with a row added, removed or changed, or a column added, removed or retyped. */
  differing: z.number().int(),
  added: z.number().int(),
  removed: z.number().int(),
  changed: z.number().int(),
});
export type ComparisonSummary = z.infer<typeof comparisonSummarySchema>;

/** GET …/history/{historyId}/comparison: a page of the comparison's tables in their order; `differing`, only those that differ. */
export const comparisonQuerySchema = pageQuerySchema.extend({ differing: formBoolean.default(false) });
export type ComparisonQuery = z.output<typeof comparisonQuerySchema>;
export const comparisonPageSchema = pageOf(tableComparisonSchema);
export type ComparisonPage = z.infer<typeof comparisonPageSchema>;

/**
 * GET …/history/{historyId}: beside the entry, what issue 10 adds: the backup it made or compared,
 * the backup Undo restores (taken before the entry changed the data), the data as it was after it
 * (what "Compare with current" compares), and a comparison's summary (its tables come a page at a
 * time from GET …/history/{historyId}/comparison).
 */
export const historyExtrasSchema = z.object({
  backup: backupSchema.nullable(),
  undoBackup: backupSchema.nullable(),
  afterBackup: backupSchema.nullable(),
  /** Null for an entry that compared nothing, and for a comparison that has no result (yet). */
  comparison: comparisonSummarySchema.nullable(),
  /** The entry an undo undid, or a comparison compared. */
  about: historyEntrySchema.nullable(),
});
export type HistoryExtras = z.infer<typeof historyExtrasSchema>;

/** GET …/history/{historyId} as issue 10 answers it: the entry's details and its backups and comparison. */
export const historyEntryDetailsSchema = historyDetailsSchema.extend(historyExtrasSchema.shape);
export type HistoryEntryDetails = z.infer<typeof historyEntryDetailsSchema>;
