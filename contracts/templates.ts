import { z } from "zod";
import {
  descriptionSchema,
  madeIdSchema,
  nameSchema,
  pageOf,
  pageQuerySchema,
  presentString,
  repeatedQuery,
  requiredString,
  timestampSchema,
  versionSchema,
  wholeNumberSchema,
} from "./common";
import { LOCK_STATES } from "./values/projects";
import { MAX_RUN_CHOICES } from "./values/runs";
import {
  LOCK_REASON_MAX,
  MAX_TEMPLATES_ASSIGNED_AT_ONCE,
  MOVE_DIRECTIONS,
  SCRIPT_SQL_MAX_BYTES,
  TEMPLATE_AREAS,
  TEMPLATE_SORTS,
  TEMPLATE_STATUSES,
  TEMPLATE_TYPES,
  VERSION_COMMENT_MAX,
} from "./values/templates";

export * from "./values/templates";

/**
 * Templates, levels and scripts (issue 11; DOMAIN.md "Templates, levels, scripts, runs"). A master
 * template belongs to a company and an area; a project's copy names its project. Levels and scripts
 * are ordered; every script save is a version. Writes to a template's structure carry the template's
 * `version` (a stale one is refused); a script save carries the script version it was based on.
 */

export const templateAreaSchema = z.enum(TEMPLATE_AREAS);
export const templateStatusSchema = z.enum(TEMPLATE_STATUSES, { error: `One of ${TEMPLATE_STATUSES.join(", ")}` });
export const templateTypeSchema = z.enum(TEMPLATE_TYPES, { error: `One of ${TEMPLATE_TYPES.join(", ")}` });
export const lockStateSchema = z.enum(LOCK_STATES);

export const scriptSummarySchema = z.object({
  id: z.string(),
  levelId: z.string(),
  name: z.string(),
  order: z.number().int(),
  /** The newest version's number. */
  version: z.number().int(),
  lockState: lockStateSchema,
  lockedBy: z.string().nullable(),
  lockedByName: z.string().nullable(),
  lockedAt: timestampSchema.nullable(),
  updatedAt: timestampSchema,
  updatedByName: z.string().nullable(),
});
export type ScriptSummary = z.infer<typeof scriptSummarySchema>;

export const levelSchema = z.object({
  id: z.string(),
  name: z.string(),
  order: z.number().int(),
  scripts: z.array(scriptSummarySchema),
});
export type Level = z.infer<typeof levelSchema>;

export const templateSummarySchema = z.object({
  id: z.string(),
  companyId: z.string(),
  area: templateAreaSchema,
  projectId: z.string().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  type: templateTypeSchema,
  status: templateStatusSchema,
  /** Moves on with every change to the template, its levels or its scripts. */
  version: z.number().int(),
  /** A project's copy: the master it was copied from, and that master's version then. */
  masterTemplateId: z.string().nullable(),
  masterVersion: z.number().int().nullable(),
  levelCount: z.number().int(),
  scriptCount: z.number().int(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  updatedByName: z.string().nullable(),
});
export type TemplateSummary = z.infer<typeof templateSummarySchema>;

export const templateSchema = templateSummarySchema.extend({ levels: z.array(levelSchema) });
export type Template = z.infer<typeof templateSchema>;

export const templateSearchQuerySchema = pageQuerySchema.extend({
  companyId: requiredString(),
  area: templateAreaSchema,
  name: z.string().trim().max(100).optional(),
  status: repeatedQuery(templateStatusSchema),
  type: repeatedQuery(templateTypeSchema),
  sort: z.enum(TEMPLATE_SORTS).default("name"),
});
export type TemplateSearchQuery = z.infer<typeof templateSearchQuerySchema>;
export const templatePageSchema = pageOf(templateSummarySchema);

export const createTemplateSchema = z.object({
  /** The id the create form chose, so that the form sent again makes it once (madeIdSchema). */
  id: madeIdSchema,
  companyId: requiredString(),
  area: templateAreaSchema,
  name: nameSchema,
  description: descriptionSchema,
  type: templateTypeSchema,
});

export const updateTemplateSchema = z.object({ version: versionSchema, name: nameSchema, description: descriptionSchema, type: templateTypeSchema });
export const changeTemplateStatusSchema = z.object({ version: versionSchema, status: templateStatusSchema });

export const levelInputSchema = z.object({ version: versionSchema, name: nameSchema });
export const moveSchema = z.object({ version: versionSchema, direction: z.enum(MOVE_DIRECTIONS) });
export const templateVersionSchema = z.object({ version: versionSchema });

const SQL_REQUIRED_MESSAGE = "Write at least one statement";
// A form without JavaScript sends an empty textarea as "", which Conform turns into a missing field.
const sqlSchema = presentString(SQL_REQUIRED_MESSAGE)
  .refine((s) => Buffer.byteLength(s) <= SCRIPT_SQL_MAX_BYTES, `At most ${SCRIPT_SQL_MAX_BYTES.toLocaleString("en")} bytes`)
  .refine((s) => s.trim().length > 0, SQL_REQUIRED_MESSAGE);
const commentSchema = z
  .string()
  .trim()
  .max(VERSION_COMMENT_MAX, `At most ${VERSION_COMMENT_MAX} characters`)
  .nullish()
  .transform((v) => (v ? v : null));

export const createScriptSchema = z.object({ version: versionSchema, name: nameSchema, sql: sqlSchema, comment: commentSchema });
/** A save: the script version it was based on, the SQL, and why. */
export const saveScriptSchema = z.object({ baseVersion: versionSchema, sql: sqlSchema, comment: commentSchema });
export const renameScriptSchema = z.object({ version: versionSchema, name: nameSchema });

export const scriptSchema = scriptSummarySchema.extend({
  templateId: z.string(),
  levelName: z.string(),
  templateName: z.string(),
  /** The newest version's SQL. */
  sql: z.string(),
  /** When a Locked script's lock lapses if its holder does not save or unlock. */
  lockExpiresAt: timestampSchema.nullable(),
  createdAt: timestampSchema,
});
export type Script = z.infer<typeof scriptSchema>;

export const scriptVersionSummarySchema = z.object({
  version: z.number().int(),
  comment: z.string().nullable(),
  author: z.string(),
  authorName: z.string().nullable(),
  createdAt: timestampSchema,
  lines: z.number().int(),
});
export type ScriptVersionSummary = z.infer<typeof scriptVersionSummarySchema>;
export const scriptVersionSchema = scriptVersionSummarySchema.extend({ sql: z.string() });
export type ScriptVersion = z.infer<typeof scriptVersionSchema>;
export const scriptVersionPageSchema = pageOf(scriptVersionSummarySchema);
export const scriptVersionsQuerySchema = pageQuerySchema;

/** A line diff between two versions: every line of both, in order, each marked. */
export const diffLineSchema = z.object({
  kind: z.enum(["same", "added", "removed"]),
  text: z.string(),
  /** Its line in the older text (same, removed) and in the newer (same, added). */
  oldLine: z.number().int().nullable(),
  newLine: z.number().int().nullable(),
});
export type DiffLine = z.infer<typeof diffLineSchema>;
export const scriptDiffSchema = z.object({
  from: z.number().int(),
  to: z.number().int(),
  added: z.number().int(),
  removed: z.number().int(),
  lines: z.array(diffLineSchema),
});
export type ScriptDiff = z.infer<typeof scriptDiffSchema>;
export const scriptDiffQuerySchema = z.object({ from: wholeNumberSchema(1), to: wholeNumberSchema(1) });

export const lockEventSchema = z.object({
  id: z.string(),
  state: lockStateSchema,
  userId: z.string(),
  userName: z.string().nullable(),
  reason: z.string().nullable(),
  at: timestampSchema,
});
export type LockEvent = z.infer<typeof lockEventSchema>;
export const lockEventPageSchema = pageOf(lockEventSchema);

export const forceUnlockSchema = z.object({
  reason: requiredString("Give the reason for forcing the lock")
    .trim()
    .min(1, "Give the reason for forcing the lock")
    .max(LOCK_REASON_MAX, `At most ${LOCK_REASON_MAX} characters`),
});

/* ---------- A project's templates ---------- */

export const projectTemplatesQuerySchema = pageQuerySchema;
/**
 * "Assign templates": a page of the master templates a workspace may still take, by name, found by name;
 * with `id` (repeated), only those of these ids (the ticks the page carries, to tell which are still good).
 */
export const assignableTemplatesQuerySchema = pageQuerySchema.extend({
  name: z.string().trim().max(100).optional(),
  id: repeatedQuery(z.string().min(1).max(100)).refine((ids) => ids.length <= MAX_TEMPLATES_ASSIGNED_AT_ONCE, `At most ${MAX_TEMPLATES_ASSIGNED_AT_ONCE} ids`),
});
/**
 * The page, and of the `id`s asked, the company's master templates that cannot be assigned (made Draft or
 * Archived, or assigned meanwhile), named for the page to say so. An id of no master template of the
 * company's area (deleted, or another company's) is in neither.
 */
export const assignablePageSchema = templatePageSchema.extend({ leftOut: z.array(z.object({ id: z.string(), name: z.string() })) });
export const assignTemplatesSchema = z.object({
  templateIds: z.preprocess(
    (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
    z
      .array(z.string().min(1))
      .min(1, "Choose at least one template")
      .max(MAX_TEMPLATES_ASSIGNED_AT_ONCE, `Assign at most ${MAX_TEMPLATES_ASSIGNED_AT_ONCE} templates at once`),
  ),
});
/**
 * "Run the templates": a page of the workspace's templates in run order, found by name, each with its levels
 * and each level's scripts, ids and names only (never their SQL): what a run may be narrowed to. Beside it, the
 * script chosen (`scriptId`) named wherever it is listed, so that a page not listing it still says which it is
 * (`chosenScript`; null when none was asked, or it is not one of the workspace's), and so are the templates and
 * levels ticked (`templateId`, `levelId`, repeated, at most MAX_RUN_CHOICES each: `chosenTemplates`,
 * `chosenLevels`, in run order, those of the workspace only), for the page to name those ticked on other pages.
 */
const tickedIdsQuery = repeatedQuery(z.string().min(1).max(100)).refine((ids) => ids.length <= MAX_RUN_CHOICES, `At most ${MAX_RUN_CHOICES} ids`);
export const runChoicesQuerySchema = pageQuerySchema.extend({
  name: z.string().trim().max(100).optional(),
  scriptId: z.string().min(1).max(100).optional(),
  templateId: tickedIdsQuery,
  levelId: tickedIdsQuery,
});
export const runChoiceSchema = z.object({
  id: z.string(),
  name: z.string(),
  levels: z.array(z.object({ id: z.string(), name: z.string(), scripts: z.array(z.object({ id: z.string(), name: z.string() })) })),
});
export type RunChoice = z.infer<typeof runChoiceSchema>;
export const chosenScriptSchema = z.object({ id: z.string(), templateName: z.string(), levelName: z.string(), name: z.string() });
export type ChosenScript = z.infer<typeof chosenScriptSchema>;
export const chosenLevelSchema = z.object({ id: z.string(), templateName: z.string(), name: z.string() });
export type ChosenLevel = z.infer<typeof chosenLevelSchema>;
export const runChoicesPageSchema = pageOf(runChoiceSchema).extend({
  chosenScript: chosenScriptSchema.nullable(),
  chosenTemplates: z.array(z.object({ id: z.string(), name: z.string() })),
  chosenLevels: z.array(chosenLevelSchema),
});
export const createProjectTemplateSchema = z.object({ id: madeIdSchema, name: nameSchema, description: descriptionSchema, type: templateTypeSchema });

/** A project's copy beside its master: each script (matched by level and name, any case) the same, changed, or in one of them only. */
export const masterComparisonSchema = z.object({
  masterTemplateId: z.string(),
  masterName: z.string(),
  /** The master's version when it was copied, and now. */
  copiedVersion: z.number().int().nullable(),
  masterVersion: z.number().int(),
  scripts: z.array(
    z.object({
      level: z.string(),
      name: z.string(),
      state: z.enum(["same", "changed", "onlyInProject", "onlyInMaster"]),
      /**
       * Of a changed script: which side moved from the master's text the copy started from (its version 1);
       * null when that is not known (a script made here under a master script's name).
       */
      changedIn: z.enum(["here", "master", "both"]).nullable(),
      /** The master's newest SQL → the project's newest (changed scripts only); versions are the master's (`from`) and the project's (`to`). */
      diff: scriptDiffSchema.nullable(),
    }),
  ),
});
export type MasterComparison = z.infer<typeof masterComparisonSchema>;
