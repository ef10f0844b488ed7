import { z } from "zod";
import { USER_IDS_AT_ONCE } from "./client-portal";
import {
  COLUMN_WIDTH_MAX,
  COLUMN_WIDTHS_MESSAGE,
  DATE_ORDERS,
  DELIMITERS,
  ENCODINGS,
  FLAT_FILE_EXTENSIONS,
  TEXT_QUALIFIERS,
  WORKSHEET_NAME_MAX,
} from "./values/flat-files";
import { LOCK_REASONS, LOCK_STATES, PROJECT_SORTS, PROJECT_STATUSES, SOURCE_TYPES, UPLOAD_TYPES, JOB_KINDS } from "./values/projects";
import {
  choiceOf,
  descriptionSchema,
  requiredString,
  formBoolean,
  madeIdSchema,
  nameSchema,
  pageOf,
  pageQuerySchema,
  repeatedQuery,
  timestampSchema,
  versionSchema,
  whenFieldsPass,
} from "./common";
import { tablesQuerySchema } from "./dictionary";

export * from "./values/projects";
export * from "./values/flat-files";

export const projectStatusSchema = z.enum(PROJECT_STATUSES, { error: "Choose a status" });
export const lockReasonSchema = z.enum(LOCK_REASONS);
export type LockReason = z.infer<typeof lockReasonSchema>;
export const sourceTypeSchema = z.enum(SOURCE_TYPES, { error: "Choose a source type" });
export const uploadTypeSchema = z.enum(UPLOAD_TYPES, { error: "Choose an upload type" });

/**
 * One table's fixed-length column widths: "10, 5, 20" from a form, [10, 5, 20] from JSON. The
 * message sits on the table's field (not on one number of it), where the form shows it.
 */
const columnWidthsSchema = z.union([z.array(z.number()), z.string()]).transform((value, ctx) => {
  const parts = typeof value === "string" ? value.split(",").map((p) => p.trim()) : value.map(String);
  if (!parts.every((p) => /^\d+$/.test(p) && Number(p) >= 1 && Number(p) <= COLUMN_WIDTH_MAX)) {
    ctx.addIssue({ code: "custom", message: COLUMN_WIDTHS_MESSAGE });
    return z.NEVER;
  }
  return parts.map(Number);
});

/** Widths by table name; a table left blank (or absent) is read with its dictionary widths (defaultColumnWidth). */
const columnWidthsByTableSchema = z.preprocess(
  (v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).filter(([, w]) => w != null && !(typeof w === "string" && w.trim() === "")))
      : v,
  z.record(z.string(), columnWidthsSchema),
);

/**
 * POST /api/v1/projects/{id}/updateFlatFileParameters (and /audit-projects/{id}/…). Excel goes with
 * .xlsx and only with it. Parameters saved before a key existed read with its default.
 */
export const flatFileParametersSchema = z
  .object({
    extension: z.enum(FLAT_FILE_EXTENSIONS, { error: "Choose a file extension" }),
    delimiter: z.enum(DELIMITERS, { error: "Choose a delimiter" }),
    // A checkbox sends nothing when unticked: missing means false.
    hasHeaderRow: formBoolean.default(false),
    textQualifier: choiceOf(TEXT_QUALIFIERS, "Choose a text qualifier", "DoubleQuote"),
    encoding: choiceOf(ENCODINGS, "Choose an encoding", "AutoDetect"),
    dateOrder: choiceOf(DATE_ORDERS, "Choose a date order", "YMD"),
    /** .xlsx: the worksheet to read, by name; empty: the first. */
    worksheet: z.string().trim().max(WORKSHEET_NAME_MAX, `A worksheet's name has at most ${WORKSHEET_NAME_MAX} characters`).default(""),
    /** Fixed Length: each table's column widths, in characters, in the dictionary's column order. */
    columnWidths: columnWidthsByTableSchema.default({}),
  })
  .superRefine(
    (p, ctx) => {
      if ((p.extension === ".xlsx") !== (p.delimiter === "Excel")) {
        ctx.addIssue({ code: "custom", path: ["delimiter"], message: "Use the Excel delimiter for .xlsx files, and only for them" });
      }
    },
    whenFieldsPass("extension", "delimiter"),
  );
export type FlatFileParameters = z.infer<typeof flatFileParametersSchema>;

/** The body of updateFlatFileParameters: the parameters, based on the workspace's `version` (a stale one answers 409, nothing changed). */
export const updateFlatFileParametersSchema = flatFileParametersSchema.and(z.object({ version: versionSchema }));
export type UpdateFlatFileParameters = z.infer<typeof updateFlatFileParametersSchema>;

/** GET /api/v1/projects/{id}/flat-file/column-widths?name=&page=&pageSize=: a page of the dictionary's tables, as its tables list (a dictionary may have thousands). */
export const columnWidthsQuerySchema = tablesQuerySchema.pick({ name: true, page: true, pageSize: true });

/** Each table of the page with its columns and default fixed-length widths (saved ones are in the parameters); `total` every match. */
export const columnWidthsResponseSchema = pageOf(
  z.object({
    name: z.string(),
    /** The columns in the order a line holds them. */
    columns: z.array(z.string()),
    /** From the dictionary: nvarchar length, a display width for other types. */
    defaultWidths: z.array(z.number().int()),
  }),
);
export type ColumnWidthsResponse = z.infer<typeof columnWidthsResponseSchema>;

export const projectSchema = z.object({
  id: z.string(),
  companyId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  applicationId: z.string(),
  applicationName: z.string(),
  sourceType: sourceTypeSchema,
  status: projectStatusSchema,
  isLocked: z.boolean(),
  lockReason: lockReasonSchema.nullable(),
  currentBackupName: z.string().nullable(),
  uploadType: uploadTypeSchema.nullable(),
  flatFileParameters: flatFileParametersSchema.nullable(),
  /** The master dictionary the project's own copy came from, if any. */
  sourceDictionaryId: z.string().nullable(),
  /** The translation mapping project whose value maps its scripts join as tables of schema `maps` (issue 12); null: none. */
  mappingProjectId: z.string().nullable(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  version: z.number().int(),
});
export type Project = z.infer<typeof projectSchema>;

/** POST /api/v1/projects: wizard step 1. */
export const createProjectSchema = z.object({
  /** The id the create form chose, so that the form sent again makes it once (madeIdSchema). */
  id: madeIdSchema,
  companyId: z.string().min(1),
  name: nameSchema,
  applicationId: requiredString("Choose an application"),
  sourceType: sourceTypeSchema,
  description: descriptionSchema,
});

/** A workspace's mapping project: an id, null (none), or absent (unchanged); a form's empty choice is none. */
export const mappingProjectIdSchema = z
  .string()
  .trim()
  .nullish()
  .transform((v) => (v === undefined ? undefined : v ? v : null));

/** PATCH /api/v1/projects/{id}: any of name, description, status (STATUS_CHANGES), mapping project, based on `version`. */
export const updateProjectSchema = z.object({
  version: versionSchema,
  name: nameSchema.optional(),
  description: descriptionSchema.optional(),
  status: projectStatusSchema.optional(),
  mappingProjectId: mappingProjectIdSchema,
});

/** GET /api/v1/projects/search: arrays repeat the key (`status=A&status=B`). */
export const projectSearchQuerySchema = pageQuerySchema.extend({
  companyId: z.string().min(1),
  name: z.string().trim().max(100).optional(),
  status: repeatedQuery(projectStatusSchema),
  applicationId: z.string().optional(),
  sort: z.enum(PROJECT_SORTS).default("-updatedAt"),
});
/**
 * A search's row: the workspace and whether the caller may write it (an admin, a writer on its access
 * list; a mapping project's area roles), so that a list links a reader's unfinished one to its Details,
 * not to a wizard step that would send them back there refused.
 */
export const searchedWorkspaceShape = { canWrite: z.boolean() };
export const projectSearchResponseSchema = pageOf(projectSchema.extend(searchedWorkspaceShape));

/** GET /api/v1/projects/{id}/access: what the caller may do with this project. */
export const projectAccessSchema = z.object({ canRead: z.boolean(), canWrite: z.boolean() });
export type ProjectAccess = z.infer<typeof projectAccessSchema>;

/**
 * GET /api/v1/projects/{id}/users: who may read and write (the project-access page), a page at a
 * time, the latest grant first (a project may have hundreds). `grantedAt` is when the user was given
 * access: changing their access keeps it.
 */
export const projectUserSchema = z.object({
  userId: z.string(),
  canRead: z.boolean(),
  canWrite: z.boolean(),
  grantedAt: timestampSchema,
});
export type ProjectUser = z.infer<typeof projectUserSchema>;
/** `userId` (repeated, at most a page): only their entries, to tell which of a page of people have access. */
export const projectUsersQuerySchema = pageQuerySchema.extend({
  userId: repeatedQuery(z.string().min(1)).refine((ids) => ids.length <= USER_IDS_AT_ONCE, `At most ${USER_IDS_AT_ONCE} user ids`),
});
export const projectUsersPageSchema = pageOf(projectUserSchema);

/**
 * PUT /api/v1/projects/{id}/users/{userId}: write implies read. `existing: true` says the body changes
 * the user's grant and must never create one: a user whose access was removed meanwhile (from another
 * tab, or by someone else) is refused with 404, nothing granted. `adding: true` says the body adds a user
 * who has no access and must never change a grant: a user given access meanwhile is refused with 409,
 * their access kept. With neither, the user is added or changed. `was`, the access the page showed
 * ("read" or "write"): when the user's access is now neither that nor the one asked for (changed
 * meanwhile), the change is refused with 409, nothing changed.
 */
export const setProjectUserSchema = z
  .object({
    canRead: formBoolean.default(false),
    canWrite: formBoolean.default(false),
    existing: formBoolean.default(false),
    adding: formBoolean.default(false),
    was: z.enum(["read", "write"]).optional(),
  })
  .transform((v) => ({ canRead: v.canRead || v.canWrite, canWrite: v.canWrite, existing: v.existing, adding: v.adding, was: v.was }));

/** POST /api/v1/projects/{id}/upload-type: the choice, based on the project's `version` (a stale one answers 409, nothing changed). */
export const uploadTypeBodySchema = z.object({ uploadType: uploadTypeSchema, version: versionSchema });
/** GET /api/v1/projects/{id}/upload-type: null until one is chosen. */
export const uploadTypeResponseSchema = z.object({ uploadType: uploadTypeSchema.nullable() });

/** POST /api/v1/projects/{id}/data-dictionary/{dictionaryId}/assign: copy a master dictionary of the project's application. */
export const assignDictionarySchema = z.object({ version: versionSchema });

/* ---------- Jobs (the project lock, steps and progress; DOMAIN.md "Databases and jobs") ---------- */

export const STEP_STATUSES = ["Pending", "Started", "Completed", "Failed"] as const;
export const RUN_STATUSES = ["None", "CompletedWithFailures", "CompletedWithWarning", "IN_PROGRESS", "SUCCESS", "ERROR"] as const;

export const jobStepSchema = z.object({
  name: z.string(),
  status: z.enum(STEP_STATUSES),
  startedAt: timestampSchema.nullable(),
  finishedAt: timestampSchema.nullable(),
  message: z.string().nullable(),
});

/**
 * Where the running step is in its input (a load's file): bytes read of the whole, rows read, and
 * the time left estimated from the share read and the time the step has run so far.
 */
export const jobProgressDetailSchema = z.object({
  bytesRead: z.number().int(),
  bytesTotal: z.number().int(),
  rowsRead: z.number().int().nullable(),
  /** null until there is enough to tell (the first second, the first bytes). */
  secondsLeft: z.number().int().nullable(),
});
export type JobProgressDetail = z.infer<typeof jobProgressDetailSchema>;

export const jobSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  kind: z.enum(JOB_KINDS),
  status: z.enum(RUN_STATUSES),
  /** 0–100 */
  progress: z.number().int(),
  /** While a step that reads an input runs: how far it is; null otherwise. */
  progressDetail: jobProgressDetailSchema.nullable(),
  steps: z.array(jobStepSchema),
  error: z.string().nullable(),
  createdBy: z.string(),
  createdAt: timestampSchema,
  finishedAt: timestampSchema.nullable(),
});
export type Job = z.infer<typeof jobSchema>;

/** POST /api/v1/projects/{id}/force-unlock (SuperAdmin, Support): why, in a sentence. */
export const forceUnlockSchema = z.object({
  reason: z.string({ error: "Say why the lock is forced" }).trim().min(1, "Say why the lock is forced").max(500, "At most 500 characters"),
});

/**
 * GET /api/v1/projects/{id}/jobs: the background-process page; GET …/jobs/progress, what a job's page
 * polls while a job runs: the same with the running jobs only.
 */
export const projectJobsSchema = z.object({
  isLocked: z.boolean(),
  lockReason: lockReasonSchema.nullable(),
  lockState: z.enum(LOCK_STATES),
  jobs: z.array(jobSchema),
});
export type ProjectJobs = z.infer<typeof projectJobsSchema>;

/**
 * POST /api/v1/projects/{id}/try-create-databases: the workspace's `version` the page showed (its upload type and
 * flat-file parameters, which the databases are made for); a stale one is refused (409), nothing started. Optional:
 * a body without it (a script's, scripts/bench.ts) starts from the settings as they are.
 */
export const tryCreateDatabasesBodySchema = z.object({ version: versionSchema.optional() });
/** POST /api/v1/projects/{id}/try-create-databases → 202 with the job; 409 when locked, not ready or based on a stale version. */
export const tryCreateDatabasesResponseSchema = jobSchema;
