import { z } from "zod";
import { DELIMITERS, ENCODINGS, FLAT_FILE_EXTENSIONS, LOCK_REASONS, LOCK_STATES, PROJECT_SORTS, PROJECT_STATUSES, SOURCE_TYPES, TEXT_QUALIFIERS, UPLOAD_TYPES } from "./values/projects";
import { descriptionSchema, requiredString, formBoolean, nameSchema, pageOf, pageQuerySchema, timestampSchema, versionSchema } from "./common";

export * from "./values/projects";

export const projectStatusSchema = z.enum(PROJECT_STATUSES);
export const lockReasonSchema = z.enum(LOCK_REASONS);
export type LockReason = z.infer<typeof lockReasonSchema>;
export const sourceTypeSchema = z.enum(SOURCE_TYPES, { error: "Choose a source type" });
export const uploadTypeSchema = z.enum(UPLOAD_TYPES, { error: "Choose an upload type" });

/** POST /api/v1/projects/{id}/updateFlatFileParameters. Excel goes with .xlsx and only with it. */
export const flatFileParametersSchema = z
  .object({
    extension: z.enum(FLAT_FILE_EXTENSIONS, { error: "Choose a file extension" }),
    delimiter: z.enum(DELIMITERS, { error: "Choose a delimiter" }),
    // A checkbox sends nothing when unticked: missing means false.
    hasHeaderRow: formBoolean.default(false),
    textQualifier: z.enum(TEXT_QUALIFIERS).default("DoubleQuote"),
    encoding: z.enum(ENCODINGS).default("UTF-8"),
  })
  .superRefine((p, ctx) => {
    if ((p.extension === ".xlsx") !== (p.delimiter === "Excel")) {
      ctx.addIssue({ code: "custom", path: ["delimiter"], message: "Use the Excel delimiter for .xlsx files, and only for them" });
    }
  });
export type FlatFileParameters = z.infer<typeof flatFileParametersSchema>;

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
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  version: z.number().int(),
});
export type Project = z.infer<typeof projectSchema>;

/** POST /api/v1/projects: wizard step 1. */
export const createProjectSchema = z.object({
  companyId: z.string().min(1),
  name: nameSchema,
  applicationId: requiredString("Choose an application"),
  sourceType: sourceTypeSchema,
  description: descriptionSchema,
});

/** PATCH /api/v1/projects/{id}: any of name, description, status (STATUS_CHANGES), based on `version`. */
export const updateProjectSchema = z.object({
  version: versionSchema,
  name: nameSchema.optional(),
  description: descriptionSchema.optional(),
  status: projectStatusSchema.optional(),
});

/** GET /api/v1/projects/search: arrays repeat the key (`status=A&status=B`). */
export const projectSearchQuerySchema = pageQuerySchema.extend({
  companyId: z.string().min(1),
  name: z.string().trim().max(100).optional(),
  status: z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(projectStatusSchema)).default([]),
  applicationId: z.string().optional(),
  sort: z.enum(PROJECT_SORTS).default("-updatedAt"),
});
export const projectSearchResponseSchema = pageOf(projectSchema);

/** GET /api/v1/projects/{id}/access: what the caller may do with this project. */
export const projectAccessSchema = z.object({ canRead: z.boolean(), canWrite: z.boolean() });
export type ProjectAccess = z.infer<typeof projectAccessSchema>;

/** GET /api/v1/projects/{id}/users: who may read and write (the project-access page). */
export const projectUserSchema = z.object({
  userId: z.string(),
  canRead: z.boolean(),
  canWrite: z.boolean(),
  grantedAt: timestampSchema,
});
export const projectUsersResponseSchema = z.array(projectUserSchema);

/** PUT /api/v1/projects/{id}/users/{userId}: write implies read. */
export const setProjectUserSchema = z
  .object({ canRead: formBoolean.default(false), canWrite: formBoolean.default(false) })
  .transform((v) => ({ canRead: v.canRead || v.canWrite, canWrite: v.canWrite }));

/** GET and POST /api/v1/projects/{id}/upload-type */
export const uploadTypeBodySchema = z.object({ uploadType: uploadTypeSchema });
/** GET /api/v1/projects/{id}/upload-type: null until one is chosen. */
export const uploadTypeResponseSchema = z.object({ uploadType: uploadTypeSchema.nullable() });

/** POST /api/v1/projects/{id}/data-dictionary/{dictionaryId}/assign: copy a master dictionary of the project's application. */
export const assignDictionarySchema = z.object({ version: versionSchema });

/* ---------- Jobs (the project lock, steps and progress; DOMAIN.md "Databases and jobs") ---------- */

export const STEP_STATUSES = ["Pending", "Started", "Completed", "Failed"] as const;
export const RUN_STATUSES = ["None", "CompletedWithFailures", "CompletedWithWarning", "IN_PROGRESS", "SUCCESS", "ERROR"] as const;
export const JOB_KINDS = ["DatabaseCreation", "Restore", "Backup", "FlatFile", "Comparison", "RestoreAndComparison", "ProjectRun", "SchemaChange"] as const;

export const jobStepSchema = z.object({
  name: z.string(),
  status: z.enum(STEP_STATUSES),
  startedAt: timestampSchema.nullable(),
  finishedAt: timestampSchema.nullable(),
  message: z.string().nullable(),
});

export const jobSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  kind: z.enum(JOB_KINDS),
  status: z.enum(RUN_STATUSES),
  /** 0–100 */
  progress: z.number().int(),
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

/** GET /api/v1/projects/{id}/jobs: the background-process page. */
export const projectJobsSchema = z.object({
  isLocked: z.boolean(),
  lockReason: lockReasonSchema.nullable(),
  lockState: z.enum(LOCK_STATES),
  jobs: z.array(jobSchema),
});

/** POST /api/v1/projects/{id}/try-create-databases → 202 with the job; 409 when locked or not ready. */
export const tryCreateDatabasesResponseSchema = jobSchema;
