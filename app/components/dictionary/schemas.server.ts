import type { Submission } from "@conform-to/react";
import { data } from "react-router";
import { z } from "zod";
import {
  BULK_UPLOAD_EXTENSIONS,
  BULK_UPLOAD_MAX_BYTES,
  BULK_UPLOAD_MAX_MB,
  bulkUploadModeSchema,
  isColumnType,
  takesLength,
  takesPrecision,
} from "../../../contracts/dictionary";
import { versionSchema } from "../../../contracts/common";
import { actedOn, INCOMPLETE_REQUEST, parseFormData } from "~/lib/forms.server";

/**
 * The portal-only forms of the dictionary pages (master and project alike). The payloads the data
 * API validates live in contracts/dictionary.ts; these are the forms around them. Server-only: the
 * actions validate, the browser gets no schema (lib/forms.ts).
 */

export const MAX_UPLOAD_MB = BULK_UPLOAD_MAX_MB;

/**
 * The bulk upload: one .csv or .xlsx file, not empty, at most 64 MB, and what to do with the columns
 * the file leaves out (`mode`: replace unless the form offers and the user picks "Only add and change").
 */
export const dictionaryUploadSchema = z.object({
  mode: bulkUploadModeSchema.default("replace"),
  file: z
    .file({ error: "Choose a file to upload" })
    .min(1, "The file is empty")
    .max(BULK_UPLOAD_MAX_BYTES, `The file is larger than ${MAX_UPLOAD_MB} MB`)
    .refine((f) => BULK_UPLOAD_EXTENSIONS.some((ext) => f.name.toLowerCase().endsWith(ext)), {
      message: `Upload a ${BULK_UPLOAD_EXTENSIONS.join(" or ")} file`,
    }),
});

/**
 * The review page's two buttons (the action sends any other `intent` to unknownIntent first). Its review is a
 * hidden field: a post without it (forged or truncated) is refused at the top (actedOn), never next to a field not shown.
 */
export const reviewActionSchema = actedOn("reviewId").and(z.object({ intent: z.enum(["apply", "discard"]) }));

/**
 * The confirmation of a table's deletion, based on the dictionary's version. Its table is a hidden field: a post
 * without it (forged or truncated) is refused at the top (actedOn), never next to a field not shown.
 */
export const deleteTableSchema = actedOn("tableId").and(z.object({ intent: z.literal("delete-table"), version: versionSchema }));

const COLUMN_SIZE_FIELD = /^columns\[(\d+)\]\.(length|precision|scale)$/;

/**
 * The TableEditor's post (a new table, or a table's edit), parsed with `schema` (createTableSchema,
 * updateTableSchema) once each column's
 * Length is dropped when its type takes none, and its Precision and Scale when it takes neither
 * (takesLength, takesPrecision): without JavaScript the fields still hold what was there before the
 * type changed, and they no longer apply (with JavaScript the editor hides them). Kept while the type
 * is none or unknown: its own error comes first. The data API still refuses them from its callers.
 */
export function parseTableEditor<S extends z.ZodType>(formData: FormData, schema: S) {
  const gaps = columnsRenumbered(formData);
  if (gaps) return parseFormData(gaps, COLUMNS_MISSING_SCHEMA) as Submission<z.output<S>>;
  const applies = (index: string, field: string) => {
    const type = formData.get(`columns[${index}].type`);
    if (typeof type !== "string" || !isColumnType(type)) return true;
    return field === "length" ? takesLength(type) : takesPrecision(type);
  };
  const kept = new FormData();
  for (const [name, value] of formData) {
    const size = COLUMN_SIZE_FIELD.exec(name);
    if (!size || applies(size[1]!, size[2]!)) kept.append(name, value);
  }
  return parseFormData(kept, schema);
}

const COLUMN_FIELD = /^columns\[(\d+)\]\.(.+)$/;

/** A table's form whose columns are not numbered 0, 1, 2…: refused at the top, with the columns that came back numbered so. */
export const COLUMNS_MISSING =
  "Some columns of this form did not arrive (it may be an old copy of the page), so nothing was saved. Check the columns below, then save again.";
const COLUMNS_MISSING_SCHEMA = z.unknown().refine(() => false, { message: COLUMNS_MISSING, path: [] });

/**
 * The TableEditor numbers its columns 0, 1, 2… with JavaScript or without (a removed column's followers move up:
 * Conform's list intents), so a post whose numbering has gaps (only `columns[3]`: forged, or a copy of another page)
 * lost columns on the way. Its columns numbered 0, 1, 2… in their order, without any list intent, for the refusal
 * (the form comes back showing each of them, and its next save is read as it shows); null when there is no gap.
 */
function columnsRenumbered(formData: FormData): FormData | null {
  const indexes = [
    ...new Set(
      [...formData.keys()]
        .map((name) => COLUMN_FIELD.exec(name)?.[1])
        .filter((i) => i !== undefined)
        .map(Number),
    ),
  ].sort((a, b) => a - b);
  if (indexes.every((index, position) => index === position)) return null;
  const renumbered = new FormData();
  for (const [name, value] of formData) {
    const column = COLUMN_FIELD.exec(name);
    if (column) renumbered.append(`columns[${indexes.indexOf(Number(column[1]))}].${column[2]}`, value);
    else if (name !== "__intent__") renumbered.append(name, value);
  }
  return renumbered;
}

/** A table's edit whose form names another table than its page's URL: refused at the top of the form. */
export const OTHER_TABLE = "This form is for another table than this page's. Reload the page and try again: nothing was saved.";

/**
 * The URL names the table a table's page changes (`tableId`, its path parameter); the TableEditor's form names
 * it again (a hidden tableId, which the data API's PATCH takes). A post whose form names another table (forged,
 * or a form copied from another page) is refused, 400 with OTHER_TABLE at the top of the form, and changes
 * neither table; one that names none (forged or truncated), with INCOMPLETE_REQUEST there, before its other
 * fields are judged (the hidden field's own error would show nowhere); null for a post of the page's own table.
 */
export function refusedOtherTable(submission: Submission<unknown>, tableId: string) {
  const posted = submission.payload.tableId;
  if (posted === tableId) return null;
  return data({ result: submission.reply({ formErrors: [posted ? OTHER_TABLE : INCOMPLETE_REQUEST] }) }, { status: 400 });
}
