import { z } from "zod";
import { descriptionSchema, requiredString, wholeNumberSchema, formBoolean, identifierSchema, madeIdSchema, nameSchema, pageOf, pageQuerySchema, timestampSchema, versionSchema, whenFieldsPass } from "./common";
import { BULK_UPLOAD_MODES, COLUMN_TYPES, DECIMAL_MAX_PRECISION, DICTIONARY_SORTS, NVARCHAR_MAX_LENGTH, isSystemColumnName, takesLength, takesPrecision } from "./values/dictionary";

export * from "./values/dictionary";

// None chosen (a form's empty select sends nothing) asks for one; anything else names the ones there are.
export const columnTypeSchema = z.enum(COLUMN_TYPES, {
  error: (issue) => (issue.input === undefined || issue.input === "" ? "Choose a type" : `Unknown type: use one of ${COLUMN_TYPES.join(", ")}`),
});
export type ColumnType = z.infer<typeof columnTypeSchema>;

const optionalInt = (min: number, max: number, label: string) =>
  z.preprocess(
    (v) => (v === "" || v === undefined ? null : v),
    z.coerce.number({ error: `${label} must be a whole number` }).int(`${label} must be a whole number`).min(min, `${label} must be at least ${min}`).max(max, `${label} must be at most ${max}`).nullable(),
  );

/** A column's name: an identifier that is not one of PostgreSQL's system columns. */
export const columnNameSchema = identifierSchema.refine((name) => !isSystemColumnName(name), {
  error: (issue) => `${String(issue.input)} is a name PostgreSQL keeps for its own columns: choose another`,
});

/**
 * One column as a user defines it. Rules: nvarchar needs a length (1–4000); decimal needs a precision
 * (1–38) and a scale from 0 to the precision; other types take neither. A key column is never nullable.
 */
export const columnInputSchema = z
  .object({
    /**
     * The column's id when it is one the table has (the table's form sends it): a column renamed keeps its
     * id, and the workspace's databases keep its values under the new name. Without it, columns are
     * matched by name, and a new name is a new column.
     */
    id: z.string().max(100).optional(),
    name: columnNameSchema,
    type: columnTypeSchema,
    length: optionalInt(1, NVARCHAR_MAX_LENGTH, "Length"),
    precision: optionalInt(1, DECIMAL_MAX_PRECISION, "Precision"),
    scale: optionalInt(0, DECIMAL_MAX_PRECISION, "Scale"),
    nullable: formBoolean.default(true),
    isKey: formBoolean.default(false),
    description: descriptionSchema,
  })
  .superRefine((c, ctx) => {
    // Strict for the API's callers; the portal's forms drop what no longer applies first (withoutUnusedSizes).
    if (takesLength(c.type) && c.length == null) ctx.addIssue({ code: "custom", path: ["length"], message: "nvarchar needs a length" });
    if (!takesLength(c.type) && c.length != null) ctx.addIssue({ code: "custom", path: ["length"], message: "Only nvarchar takes a length" });
    if (takesPrecision(c.type) && c.precision == null) ctx.addIssue({ code: "custom", path: ["precision"], message: "decimal needs a precision" });
    if (!takesPrecision(c.type) && (c.precision != null || c.scale != null)) {
      ctx.addIssue({ code: "custom", path: [c.precision != null ? "precision" : "scale"], message: "Only decimal takes a precision and scale" });
    }
    if (c.type === "decimal" && c.precision != null && c.scale != null && c.scale > c.precision) {
      ctx.addIssue({ code: "custom", path: ["scale"], message: "Scale cannot be greater than precision" });
    }
    if (c.isKey && c.nullable) ctx.addIssue({ code: "custom", path: ["nullable"], message: "A key column cannot be nullable" });
  }, whenFieldsPass("type", "length", "precision", "scale", "nullable", "isKey"));
export type ColumnInput = z.infer<typeof columnInputSchema>;

export const columnSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: columnTypeSchema,
  length: z.number().int().nullable(),
  precision: z.number().int().nullable(),
  scale: z.number().int().nullable(),
  nullable: z.boolean(),
  isKey: z.boolean(),
  description: z.string().nullable(),
  order: z.number().int(),
});
export type Column = z.infer<typeof columnSchema>;

export const MAX_COLUMNS_PER_TABLE = 1024;

/** A table as a user defines it: column names unique (case-insensitive); order is the array's. */
export const tableInputSchema = z
  .object({
    name: identifierSchema,
    description: descriptionSchema,
    columns: z.array(columnInputSchema).max(MAX_COLUMNS_PER_TABLE, `At most ${MAX_COLUMNS_PER_TABLE} columns`),
  })
  .superRefine((t, ctx) => {
    const seen = new Map<string, number>();
    t.columns.forEach((c, i) => {
      const key = c.name.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: ["columns", i, "name"], message: `Duplicate column ${c.name}` });
      seen.set(key, i);
    });
  });
export type TableInput = z.infer<typeof tableInputSchema>;

export const tableSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  order: z.number().int(),
  columns: z.array(columnSchema),
});
export type Table = z.infer<typeof tableSchema>;

/** A table in a list: without its columns. */
export const tableSummarySchema = tableSchema.omit({ columns: true }).extend({ columnCount: z.number().int() });
export type TableSummary = z.infer<typeof tableSummarySchema>;

/** A master data dictionary, of one application (DOMAIN.md "Data dictionary"). */
export const dictionarySummarySchema = z.object({
  id: z.string(),
  companyId: z.string(),
  applicationId: z.string(),
  applicationName: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  tableCount: z.number().int(),
  columnCount: z.number().int(),
  updatedAt: timestampSchema,
  version: z.number().int(),
});
export type DictionarySummary = z.infer<typeof dictionarySummarySchema>;

/** GET /api/v1/data-dictionaries: a page of the company's master dictionaries, filtered, sorted and counted in SQL. */
export const dictionarySearchQuerySchema = pageQuerySchema.extend({
  companyId: z.string().min(1),
  applicationId: z.string().min(1).optional(),
  /** Name contains, any case; `%` and `_` match themselves. */
  name: z.string().trim().max(100).optional(),
  sort: z.enum(DICTIONARY_SORTS).default("name"),
});
export const dictionarySearchResponseSchema = pageOf(dictionarySummarySchema);

export const dictionarySchema = dictionarySummarySchema.extend({ tables: z.array(tableSchema) });
/**
 * GET /data-dictionaries/{id}: the dictionary without its tables (an empty list) unless `tables=all`
 * asks for every table, streamed a batch at a time. Pages read the tables a page at a time (GET
 * …/tables); a dictionary of 75,000 columns is 15 MB whole, and a GET that did not ask should not send
 * it (the audit log's read of a dictionary before its rename did, for each rename).
 */
export const dictionaryReadQuerySchema = z.object({ tables: z.enum(["all", "none"]).default("none") });
export type Dictionary = z.infer<typeof dictionarySchema>;

/**
 * What a write to a dictionary answers: its summary, with the new version and counts, and the table
 * written when the write added or changed one. Never every table: a dictionary of 75,000 columns
 * made each save build and send 15 MB.
 */
export const dictionaryWrittenSchema = dictionarySummarySchema.extend({ table: tableSchema.optional() });
export type DictionaryWritten = z.infer<typeof dictionaryWrittenSchema>;

/** POST /api/v1/data-dictionaries */
export const createDictionarySchema = z.object({
  /** The id the create form chose, so that the form sent again makes it once (madeIdSchema). */
  id: madeIdSchema,
  companyId: z.string().min(1),
  applicationId: requiredString("Choose an application"),
  name: nameSchema,
  description: descriptionSchema,
});

/** PATCH /api/v1/data-dictionaries/{id}: name and description, based on `version`. */
export const updateDictionarySchema = z.object({
  version: versionSchema,
  name: nameSchema,
  description: descriptionSchema,
});

/**
 * `?confirmDataLoss=true` on a write of a workspace's dictionary whose databases exist: the change may
 * delete the data an earlier refusal (409 data_loss) listed. Ignored where there is no database.
 */
export const confirmDataLossQuerySchema = z.object({ confirmDataLoss: formBoolean.optional() });

/** POST (create) and PATCH (replace, with `tableId`) a table; both carry the dictionary's version. */
export const createTableSchema = tableInputSchema.and(z.object({ version: versionSchema }));
export const updateTableSchema = tableInputSchema.and(z.object({ version: versionSchema, tableId: z.string().min(1) }));

/**
 * A master dictionary's table needs a column (DOMAIN.md: every table needs ≥ 1 column): a master is what a project
 * copies, and a table without columns would leave every project assigned it waiting at "Setup: add columns".
 * A project's own table may wait for its columns (its status says so); a master's may not.
 */
export const MASTER_TABLE_NEEDS_A_COLUMN = "Add at least one column: a master dictionary's tables are copied into projects, and every table needs one.";
const withAColumn = <S extends z.ZodType<{ columns: unknown[] }>>(schema: S) =>
  schema.refine((t) => t.columns.length > 0, { path: ["columns"], message: MASTER_TABLE_NEEDS_A_COLUMN, ...whenFieldsPass("columns") });
export const createMasterTableSchema = withAColumn(createTableSchema);
export const updateMasterTableSchema = withAColumn(updateTableSchema);

/* ---------- Bulk upload → review → apply or discard (master and project dictionaries alike) ---------- */

export const bulkUploadModeSchema = z.enum(BULK_UPLOAD_MODES, { error: `Choose one of ${BULK_UPLOAD_MODES.join(", ")}` });
export type BulkUploadMode = z.infer<typeof bulkUploadModeSchema>;

/** An error in the uploaded file: the row number counts the header as row 1. */
export const rowErrorSchema = z.object({
  row: z.number().int().nullable(),
  column: z.string().nullable(),
  message: z.string(),
});
export type RowError = z.infer<typeof rowErrorSchema>;

export const columnChangeSchema = z.object({
  name: z.string(),
  before: columnSchema.omit({ id: true, order: true }).nullable(),
  after: columnSchema.omit({ id: true, order: true }).nullable(),
  /** Which fields differ, for a changed column. */
  fields: z.array(z.string()),
});

export const reviewTableSchema = z.object({
  name: z.string(),
  /** added: a new table; changed: columns differ; unchanged: same as now. Tables not in the file stay as they are. */
  status: z.enum(["added", "changed", "unchanged"]),
  added: z.array(columnChangeSchema),
  changed: z.array(columnChangeSchema),
  removed: z.array(columnChangeSchema),
  unchanged: z.number().int(),
});
export type ReviewTable = z.infer<typeof reviewTableSchema>;

export const reviewSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  createdAt: timestampSchema,
  /** The dictionary version the review was computed against; apply refuses it once the dictionary moved on. */
  baseVersion: z.number().int(),
  /** How the upload treats columns the file does not list (merge: no column is removed). */
  mode: bulkUploadModeSchema,
  rowCount: z.number().int(),
  errors: z.array(rowErrorSchema),
  tables: z.array(reviewTableSchema),
  /** True when there are no errors and something would change. */
  canApply: z.boolean(),
});
export type Review = z.infer<typeof reviewSchema>;

/** A review in a list: what it is, without its tables and errors. */
export const reviewSummarySchema = reviewSchema
  .pick({ id: true, fileName: true, createdAt: true, baseVersion: true, mode: true, rowCount: true, canApply: true })
  .extend({ errorCount: z.number().int() });
export type ReviewSummary = z.infer<typeof reviewSummarySchema>;

/**
 * POST …/bulk-uploads (201) and GET …/bulk-uploads/{reviewId}: the review's header. Its tables and
 * problems are pages of their own (reviewTablesPageSchema, reviewProblemsPageSchema): a file of a
 * million rows can have a million problems.
 */
export const reviewHeaderSchema = reviewSummarySchema.extend({
  /** Tables the file names. */
  tableCount: z.number().int(),
  /** Of those, the ones applying would add or change (0 while the file has errors). */
  changingTableCount: z.number().int(),
  /** Of those, the new ones. */
  addedTableCount: z.number().int(),
  /**
   * parsing: the file is still being read (rowCount counts the rows read so far; nothing can be
   * applied yet); ready: read and reviewed. A big upload is answered 202 while parsing.
   */
  status: z.enum(["parsing", "ready"]),
});
export type ReviewHeader = z.infer<typeof reviewHeaderSchema>;

/** GET …/bulk-uploads/{reviewId}/tables?page=&pageSize=: the review's tables in the file's order. */
export const reviewTablesPageSchema = pageOf(reviewTableSchema);
export type ReviewTablesPage = z.infer<typeof reviewTablesPageSchema>;
/** GET …/bulk-uploads/{reviewId}/problems?page=&pageSize=: the file's errors by row. */
export const reviewProblemsPageSchema = pageOf(rowErrorSchema);
export type ReviewProblemsPage = z.infer<typeof reviewProblemsPageSchema>;
export const reviewPageQuerySchema = pageQuerySchema;
/** The tables page may be narrowed to one table by name (any case): a table's own review page. */
export const reviewTablesQuerySchema = pageQuerySchema.extend({ table: z.string().trim().max(128).optional() });

/**
 * GET …/bulk-uploads: the reviews still waiting for someone to apply or discard them, newest first.
 * Reviews that expired, or that the dictionary moved on from (apply would refuse them), are left out.
 */
export const pendingReviewsSchema = z.object({ items: z.array(reviewSummarySchema) });
export type PendingReviews = z.infer<typeof pendingReviewsSchema>;

/* ---------- A project's own dictionary (a copy it may edit without touching the master) ---------- */

/** GET /api/v1/projects/{id}/data-dictionary */
export const projectDictionarySchema = z.object({
  projectId: z.string(),
  version: z.number().int(),
  sourceDictionaryId: z.string().nullable(),
  sourceDictionaryName: z.string().nullable(),
  tableCount: z.number().int(),
  columnCount: z.number().int(),
  /** Tables without a column block the wizard (status SetupAddColumnsIncomplete). */
  emptyTableCount: z.number().int(),
});
export type ProjectDictionary = z.infer<typeof projectDictionarySchema>;

/** GET /api/v1/projects/{id}/data-dictionary/tables?name=&page=&pageSize= → pageOf(tableSummarySchema) */
export const tablesQuerySchema = z.object({
  name: z.string().trim().max(128).optional(),
  page: wholeNumberSchema(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  /** "all": each table of the page with its columns in order (a page that shows them, in one call). */
  columns: z.enum(["none", "all"]).default("none"),
});
export const tablesPageSchema = pageOf(tableSummarySchema.extend({ columns: z.array(columnSchema).optional() }));
