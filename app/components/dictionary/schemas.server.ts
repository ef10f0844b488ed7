import { z } from "zod";
import { BULK_UPLOAD_EXTENSIONS, BULK_UPLOAD_MAX_BYTES, BULK_UPLOAD_MAX_MB, bulkUploadModeSchema } from "../../../contracts/dictionary";
import { versionSchema } from "../../../contracts/common";

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

/** The review page's two buttons. */
export const reviewActionSchema = z.object({
  intent: z.enum(["apply", "discard"], { error: "Choose Apply or Discard" }),
  reviewId: z.string().min(1),
});

/** The confirmation of a table's deletion, based on the dictionary's version. */
export const deleteTableSchema = z.object({
  intent: z.literal("delete-table"),
  tableId: z.string().min(1),
  version: versionSchema,
});
