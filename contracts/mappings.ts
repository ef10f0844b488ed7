import { z } from "zod";
import { columnSchema } from "./dictionary";
import { descriptionSchema, formBoolean, madeIdSchema, nameSchema, pageOf, pageQuerySchema, requiredString, versionSchema, whenFieldsPass } from "./common";
import { quotedValue, TRANSLATION_STATUSES, UNMAPPED_RULES, VALUE_MAP_EDIT_MAX, VALUE_MAX_LENGTH, VALUE_SEARCH_MAX_LENGTH } from "./values/mappings";

/**
 * Fusion PSI Configuration (issue 12): translation mapping projects. A mapping project is a workspace
 * of kind "translation" (contracts/workspaces.ts): the data API answers it in the projects contract
 * (projectSchema), its file data structure is its own data dictionary, and the pages and calls below
 * are what only it has.
 */

/** POST /api/v1/mapping-projects: the wizard's basic settings. */
export const createMappingProjectSchema = z.object({
  /** The id the create form chose, so that the form sent again makes it once (madeIdSchema). */
  id: madeIdSchema,
  companyId: z.string().min(1),
  name: nameSchema,
  applicationId: requiredString("Choose the application the files come from"),
  description: descriptionSchema,
});

/** POST /api/v1/mapping-projects/{id}/file-data-structure/complete: the wizard's second step is done. */
export const completeStructureSchema = z.object({ version: versionSchema });

export * from "./values/mappings";

/* ---------- Value maps (spec §2 file-data-structure/mappingTable/{id} and …/column/{columnId}) ---------- */

export const unmappedRuleSchema = z.enum(UNMAPPED_RULES, { error: "Choose what happens to an unmapped value" });

/** One column of a described table (its dictionary column's name and type), with its map's settings and how far its map is. */
export const mappingColumnSchema = columnSchema.pick({ id: true, name: true, type: true, length: true, precision: true, scale: true }).extend({
  translate: z.boolean(),
  unmappedRule: unmappedRuleSchema,
  defaultValue: z.string().nullable(),
  /** Distinct source values known (from samples, imports, or typed). */
  distinctCount: z.number().int(),
  mappedCount: z.number().int(),
  version: z.number().int(),
});
export type MappingColumn = z.infer<typeof mappingColumnSchema>;

/** GET …/mapping-tables/{tableId}: the table's columns in the file's order. */
export const mappingTableSchema = z.object({
  id: z.string(),
  name: z.string(),
  columns: z.array(mappingColumnSchema),
});
export type MappingTable = z.infer<typeof mappingTableSchema>;

/**
 * A source or target value (`noun`). A message names the value it refuses: in a form of many rows it
 * says which row, where the field's path (values.3.sourceValue) means nothing to a user.
 */
const valueSchema = (noun: "source value" | "target value") =>
  z
    .string({ error: `A ${noun} is required` })
    .max(VALUE_MAX_LENGTH, {
      error: (issue) => `The ${noun} ${quotedValue(String(issue.input))} has more than ${VALUE_MAX_LENGTH.toLocaleString("en-US")} characters`,
    })
    .refine((v) => !v.includes("\u0000"), {
      error: (issue) => `The ${noun} ${quotedValue(String(issue.input).replaceAll("\u0000", ""))} cannot hold a NUL character`,
    });

/** PUT …/columns/{columnId}/settings: translated or not, and the rule (Default needs its value). */
export const columnSettingsSchema = z
  .object({
    version: versionSchema,
    translate: formBoolean.default(false),
    unmappedRule: unmappedRuleSchema.default("Keep"),
    defaultValue: z
      .string()
      .trim()
      .max(VALUE_MAX_LENGTH, `A default value has at most ${VALUE_MAX_LENGTH.toLocaleString("en-US")} characters`)
      .nullish()
      .transform((v) => (v ? v : null)),
  })
  .superRefine(
    (s, ctx) => {
      if (s.unmappedRule === "Default" && s.defaultValue === null) ctx.addIssue({ code: "custom", path: ["defaultValue"], message: "Give the default value" });
    },
    whenFieldsPass("unmappedRule", "defaultValue"),
  );

/** GET …/columns/{columnId}/values: unmapped values first, then by source value; `search` finds either side. */
export const valueMapQuerySchema = pageQuerySchema.extend({
  search: z.string().trim().max(VALUE_SEARCH_MAX_LENGTH).optional(),
  /** Only the values still unmapped. */
  unmapped: formBoolean.default(false),
});

export const valueMapEntrySchema = z.object({ sourceValue: z.string(), targetValue: z.string().nullable(), count: z.number().int() });
export type ValueMapEntry = z.infer<typeof valueMapEntrySchema>;
export const valueMapPageSchema = pageOf(valueMapEntrySchema).extend({ column: mappingColumnSchema, tableId: z.string(), tableName: z.string() });
export type ValueMapPage = z.infer<typeof valueMapPageSchema>;

/**
 * A source value as the map keeps it: taken as it is, spaces and all (samples are read untrimmed, so
 * " Alice " and "Alice" are two values of a file). The map's editor saves and removes only values
 * that pass it, so an import and a sample refuse any other (sourceValueProblem).
 */
const sourceValueSchema = valueSchema("source value").refine((v) => v.length > 0, "A source value is required");

/** Why the map cannot keep `value` as a source value, in a sentence naming it; null when it can. */
export function sourceValueProblem(value: string): string | null {
  const parsed = sourceValueSchema.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? "This source value cannot be kept");
}

/** A source value and its target; an empty target unmaps the value. */
const valuePairSchema = z.object({
  sourceValue: sourceValueSchema,
  targetValue: valueSchema("target value")
    .nullish()
    .transform((v) => (v ? v : null)),
});

/** POST …/columns/{columnId}/values: one form's changes, all or none; an empty target unmaps the value. */
export const saveValuesSchema = z.object({
  version: versionSchema,
  values: z.array(valuePairSchema).min(1, "Nothing to save").max(VALUE_MAP_EDIT_MAX, `At most ${VALUE_MAP_EDIT_MAX} values at once`),
});

/** POST …/columns/{columnId}/values/add: a source value the map does not hold yet, with its target (409 at `sourceValue` if it does). */
export const addValueSchema = valuePairSchema.extend({ version: versionSchema });

/** POST …/columns/{columnId}/imports (a CSV) → the preview: what applying it adds, changes and leaves. */
export const valueMapImportSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  rowCount: z.number().int(),
  adds: z.number().int(),
  changes: z.number().int(),
  unchanged: z.number().int(),
  /** Up to 20 of each, for the preview. */
  sampleAdds: z.array(valueMapEntrySchema.omit({ count: true })),
  sampleChanges: z.array(z.object({ sourceValue: z.string(), from: z.string().nullable(), to: z.string().nullable() })),
  /** Applying needs the map as it was when previewed. */
  baseVersion: z.number().int(),
});
export type ValueMapImport = z.infer<typeof valueMapImportSchema>;

/** POST …/imports/{importId}/apply */
export const applyImportSchema = z.object({ version: versionSchema });

/** POST …/mapping-tables/{tableId}/samples: what a sample file held for each translated column. */
export const sampleResultSchema = z.object({
  fileName: z.string(),
  rows: z.number().int(),
  columns: z.array(z.object({ id: z.string(), name: z.string(), distinct: z.number().int(), added: z.number().int() })),
});
export type SampleResult = z.infer<typeof sampleResultSchema>;

/* ---------- Translate a file ---------- */

export const translationReportSchema = z.object({
  /** Per translated column: how many cells had no mapping, and the most frequent of those values. */
  columns: z.array(
    z.object({
      name: z.string(),
      rule: unmappedRuleSchema,
      unmappedCells: z.number().int(),
      unmappedDistinct: z.number().int(),
      unmappedValues: z.array(z.object({ value: z.string(), count: z.number().int() })),
    }),
  ),
  /**
   * The first rows rejected: by a "Reject the row" rule, with the column and the value that rejected each;
   * or as a whole (no column), with the reason: a row whose number of values is not the file's.
   */
  rejected: z.array(
    z.union([
      z.object({ row: z.number().int(), column: z.string(), value: z.string() }),
      z.object({ row: z.number().int(), column: z.null(), reason: z.string() }),
    ]),
  ),
});
export type TranslationReport = z.infer<typeof translationReportSchema>;

export const translationSchema = z.object({
  id: z.string(),
  tableName: z.string(),
  fileName: z.string(),
  status: z.enum(TRANSLATION_STATUSES),
  bytesRead: z.number().int(),
  bytesTotal: z.number().int(),
  rowsRead: z.number().int(),
  rowsWritten: z.number().int(),
  rowsRejected: z.number().int(),
  report: translationReportSchema.nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type Translation = z.infer<typeof translationSchema>;
/**
 * GET …/translations/{translationId}: the translation, and the id its table has in the file data structure
 * now (null: no table has that name any more), so that its page links to the table's value maps.
 */
export const translationDetailSchema = translationSchema.extend({ tableId: z.string().nullable() });
export type TranslationDetail = z.infer<typeof translationDetailSchema>;
/** GET …/translations?page=&pageSize=: a page of the mapping project's translations, newest first. */
export const translationQuerySchema = pageQuerySchema;
export type TranslationQuery = z.output<typeof translationQuerySchema>;
export const translationPageSchema = pageOf(translationSchema);

/** POST …/file-data-structure/samples: the table described from a sample file (its columns, types suggested). */
export const describedTableSchema = z.object({ tableId: z.string(), name: z.string(), columnCount: z.number().int() });
export type DescribedTable = z.infer<typeof describedTableSchema>;
