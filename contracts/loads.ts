/**
 * Flat-file loads into a workspace's source database (issue 9; ARCHITECTURE.md §3a): the upload's
 * form, a load as the history shows it, and its rejected rows.
 */
import { z } from "zod";
import { pageOf, pageQuerySchema, timestampSchema } from "./common";
import { LOAD_MODES, LOAD_STATUSES, ON_REJECTED } from "./values/loads";

export const loadModeSchema = z.enum(LOAD_MODES, { error: "Choose how to load" });
export const onRejectedSchema = z.enum(ON_REJECTED, { error: "Choose what happens to rejected rows" });

/** The form fields beside the file (POST …/flat-file/loads, multipart). */
export const loadFormSchema = z.object({
  table: z.string({ error: "Choose a table" }).trim().min(1, "Choose a table"),
  mode: loadModeSchema.default("replace"),
  onRejected: onRejectedSchema.default("loadNothing"),
});
export type LoadForm = z.infer<typeof loadFormSchema>;

export const loadSchema = z.object({
  id: z.string(),
  projectId: z.string(),
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
  /** Why it failed or was refused, in a sentence. */
  message: z.string().nullable(),
  createdBy: z.string(),
  createdAt: timestampSchema,
  finishedAt: timestampSchema.nullable(),
});
export type Load = z.infer<typeof loadSchema>;

export const loadsPageSchema = pageOf(loadSchema);
export const loadsQuerySchema = pageQuerySchema;

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
