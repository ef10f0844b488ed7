/**
 * Flat-file loads into a workspace's source database (issue 9; ARCHITECTURE.md §3a): the upload's
 * form, a load as the history shows it, and its rejected rows.
 */
import { z } from "zod";
import { choiceOf, pageOf, pageQuerySchema, repeatedQuery, timestampSchema } from "./common";
import { columnSchema } from "./dictionary";
import { flatFileParametersSchema, jobSchema } from "./projects";
import { DEFAULT_HISTORY_SORT, HISTORY_SORTS, HISTORY_TYPES, LOAD_MODES, LOAD_STATUSES, ON_REJECTED } from "./values/loads";
import { ROWS_COLUMN_MAX, ROWS_CONTAINS_MAX, ROWS_SORT_MAX } from "./values/table-rows";

const LOAD_MODE_ERROR = "Choose how to load";
const ON_REJECTED_ERROR = "Choose what happens to rejected rows";
export const loadModeSchema = z.enum(LOAD_MODES, { error: LOAD_MODE_ERROR });
export const onRejectedSchema = z.enum(ON_REJECTED, { error: ON_REJECTED_ERROR });

/** The form fields beside the file (POST …/flat-file/loads, multipart). */
export const loadFormSchema = z.object({
  table: z.string({ error: "Choose a table" }).trim().min(1, "Choose a table"),
  mode: choiceOf(LOAD_MODES, LOAD_MODE_ERROR, "replace"),
  onRejected: choiceOf(ON_REJECTED, ON_REJECTED_ERROR, "loadNothing"),
});
export type LoadForm = z.infer<typeof loadFormSchema>;

/** POST …/flat-file/loads as JSON: loads a file already uploaded and previewed (POST …/flat-file/uploads). */
export const stagedLoadSchema = loadFormSchema.extend({
  /** By default, the table the preview matched. */
  table: z.string().trim().default(""),
  uploadId: z.string({ error: "Upload the file again" }).trim().min(1, "Upload the file again"),
});
export type StagedLoad = z.infer<typeof stagedLoadSchema>;

/** The first rows a preview shows: enough to see the columns line up, small enough for any page. */
export const PREVIEW_ROWS = 20;

/**
 * A file as the preview shows it (POST …/flat-file/uploads): read with the workspace's parameters,
 * its first rows, and its columns matched to the table's, by header name (any case) or by position
 * without a header row.
 */
export const previewFileSchema = z.object({
  name: z.string(),
  bytes: z.number().int(),
  /** The table it loads into; null when none matches its name. */
  table: z.string().nullable(),
  /** What was read: the encoding and delimiter (by its parameter's name: Comma, Tab…) found or chosen; null when the file cannot be read. */
  encoding: z.string().nullable(),
  delimiter: z.string().nullable(),
  header: z.array(z.string()).nullable(),
  /**
   * The first rows, each with why the load would reject it (its first cell that does not fit its column,
   * as the load checks it: a bad date, a text too long), absent when it fits. A row left out of the table
   * for a column the table lacks is not judged here: the file's problem says so.
   */
  rows: z.array(
    z.object({
      line: z.number().int(),
      cells: z.array(z.string()),
      rejected: z.object({ column: z.string().nullable(), value: z.string().nullable(), reason: z.string() }).optional(),
    }),
  ),
  /** Each file column, in order, and the table column it fills (null: the table has none of that name). */
  columns: z.array(z.object({ file: z.string(), table: z.string().nullable() })),
  /** Table columns the file lacks: they stay empty (a required one makes every row rejected). */
  missingColumns: z.array(z.string()),
  /** File columns the table lacks: the load is refused until they are added to the dictionary or left out. */
  extraColumns: z.array(z.string()),
  /** Why the file cannot be loaded as it is, in a sentence; null when it can. */
  problem: z.string().nullable(),
});
export type PreviewFile = z.infer<typeof previewFileSchema>;

export const stagedUploadSchema = z.object({
  uploadId: z.string(),
  /** The choices sent with the files: the form under the preview starts from them, so a user's Append stays Append. */
  mode: loadModeSchema,
  onRejected: onRejectedSchema,
  files: z.array(previewFileSchema),
  /** Tables no file of the upload matches (several files matched by name): they are left as they are. */
  unmatchedTables: z.array(z.string()),
  createdAt: timestampSchema,
});
export type StagedUpload = z.infer<typeof stagedUploadSchema>;

export const loadSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  /** The history entry's type: FlatFile for every load today. */
  type: z.enum(HISTORY_TYPES),
  jobId: z.string().nullable(),
  fileName: z.string(),
  fileBytes: z.number().int(),
  tableName: z.string(),
  mode: loadModeSchema,
  onRejected: onRejectedSchema,
  status: z.enum(LOAD_STATUSES),
  /** Data rows read from the file (the header not counted). */
  rowsRead: z.number().int(),
  rowsLoaded: z.number().int(),
  rowsRejected: z.number().int(),
  /** Why it failed or was refused, in a sentence; and the files of its upload it skipped (named after no table). */
  message: z.string().nullable(),
  createdBy: z.string(),
  createdAt: timestampSchema,
  finishedAt: timestampSchema.nullable(),
});
export type Load = z.infer<typeof loadSchema>;

/**
 * One table a load filled, from one file (a load of several files has one per file): its counts.
 * `table` is the table's name as the dictionary spells it, and names it in the history's URLs.
 */
export const loadTableSchema = z.object({
  table: z.string(),
  fileName: z.string(),
  rowsRead: z.number().int(),
  rowsLoaded: z.number().int(),
  rowsRejected: z.number().int(),
});
export type LoadTable = z.infer<typeof loadTableSchema>;

/** An entry of the history (…/history): the load and its tables, in the order they were loaded. */
export const historyEntrySchema = loadSchema.extend({ tables: z.array(loadTableSchema) });
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/**
 * The entry of the history whose result a backup holds (the last load or restore before it was taken):
 * "the data as it was after" that entry. Null when nothing had been loaded yet.
 */
export const backupAfterSchema = z
  .object({ id: z.string(), type: z.enum(HISTORY_TYPES), fileName: z.string(), finishedAt: timestampSchema.nullable() })
  .nullable();

/**
 * An entry as the history's list shows it: a comparison also says what the backup it compared holds
 * (`compared.after`), so the list names the data compared as the entry's page does; null for other
 * entries, and for a comparison whose backup is no longer kept.
 */
export const historyListEntrySchema = historyEntrySchema.extend({ compared: z.object({ after: backupAfterSchema }).nullable() });
export type HistoryListEntry = z.infer<typeof historyListEntrySchema>;
export const historyPageSchema = pageOf(historyListEntrySchema);

/** GET …/history: filters repeat their key (`type=FlatFile&status=Failed`); none means all. */
export const historyQuerySchema = pageQuerySchema.extend({
  type: repeatedQuery(z.enum(HISTORY_TYPES)),
  status: repeatedQuery(z.enum(LOAD_STATUSES)),
  sort: z.enum(HISTORY_SORTS).default(DEFAULT_HISTORY_SORT),
});
export type HistoryQuery = z.output<typeof historyQuerySchema>;

/**
 * GET …/history/{historyId}: the entry, the parameters it read its files with (a copy taken when it
 * started; null for a load older than that copy), and its job with the steps.
 */
export const historyDetailsSchema = z.object({
  entry: historyEntrySchema,
  parameters: flatFileParametersSchema.nullable(),
  job: jobSchema.nullable(),
});
export type HistoryDetails = z.infer<typeof historyDetailsSchema>;

export const rejectedRowSchema = z.object({
  /** The row in the file, counting the header: the row a spreadsheet shows. */
  line: z.number().int(),
  /** The column (or columns, for a key) the reason is about; null when it is about the whole row. */
  column: z.string().nullable(),
  value: z.string().nullable(),
  reason: z.string(),
});
export type RejectedRow = z.infer<typeof rejectedRowSchema>;
export const rejectedRowsPageSchema = pageOf(rejectedRowSchema);
export const rejectedRowsQuerySchema = pageQuerySchema;

/**
 * GET …/databases/{kind}/tables/{table}/rows: a page of a table's rows as PostgreSQL writes their
 * values (text exactly as stored: leading zeros kept), sorted and filtered in SQL.
 */
export const tableRowsQuerySchema = pageQuerySchema.extend({
  /** A column's name, "-" first for descending; the table's first column by default. */
  sort: z.string().trim().max(ROWS_SORT_MAX).optional(),
  /** Rows whose `column` contains `contains` (any case), as text. */
  column: z.string().trim().max(ROWS_COLUMN_MAX).optional(),
  contains: z.string().trim().max(ROWS_CONTAINS_MAX).optional(),
});
export const tableRowsSchema = z.object({
  table: z.string(),
  columns: z.array(
    z.object({
      name: z.string(),
      /** PostgreSQL's name of the stored type (character varying(50), numeric(10,2)). */
      type: z.string(),
      /** The column as the workspace's dictionary defines it (decision 017: the tables follow it); null for one it does not (a table a script made). */
      defined: columnSchema.pick({ type: true, length: true, precision: true, scale: true }).nullable(),
    }),
  ),
  /** Each row's values in column order, as text; null for NULL. */
  items: z.array(z.array(z.string().nullable())),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** The sort applied: a column's name, "-" first when descending. */
  sort: z.string(),
  /** The column `contains` was searched in: null for every column (none asked, or one the table does not have). */
  column: z.string().nullable(),
});
export type TableRows = z.infer<typeof tableRowsSchema>;
