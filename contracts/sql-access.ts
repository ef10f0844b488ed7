import { z } from "zod";
import {
  hasNoInvisibleCharacters,
  INVISIBLE_CHARACTERS_MESSAGE,
  isRealDay,
  madeIdSchema,
  pageOf,
  pageQuerySchema,
  requiredString,
  timestampSchema,
  whenFieldsPass,
} from "./common";
import { AUDIT_ACTIONS, SQL_CREDENTIAL_MAX_DAYS, SQL_CREDENTIAL_STATUSES, SQL_LEVELS, SQL_NOTE_MAX, SQL_SERVICE_NAME_MAX } from "./values/sql-access";

/**
 * SQL access (issue 13): SQL credentials (/additional-options/sql-credentials/users), each workspace's
 * SQL permissions (…/users/sql-permissions) and the audit log. A credential is a PostgreSQL login of
 * one company; the data API answers its password once, when it is created or rotated, never again.
 */
export * from "./values/sql-access";

export const sqlLevelSchema = z.enum(SQL_LEVELS, { error: "Choose None, Read or Write" });

/** A database the credential reaches, without its password. */
export const sqlDatabaseSchema = z.object({
  workspaceId: z.string(),
  workspaceName: z.string(),
  /** contracts/workspaces.ts WorkspaceKind of the workspace. */
  workspaceKind: z.string(),
  database: z.string(),
  host: z.string(),
  port: z.number().int(),
  level: sqlLevelSchema,
});
export type SqlDatabase = z.infer<typeof sqlDatabaseSchema>;

export const sqlCredentialSchema = z.object({
  id: z.string(),
  companyId: z.string(),
  login: z.string(),
  userId: z.string().nullable(),
  name: z.string(),
  note: z.string().nullable(),
  expiresOn: z.string(),
  createdAt: timestampSchema,
  createdBy: z.string(),
  passwordSetAt: timestampSchema,
  lastUsedAt: timestampSchema.nullable(),
  revokedAt: timestampSchema.nullable(),
  status: z.enum(SQL_CREDENTIAL_STATUSES),
  databases: z.array(sqlDatabaseSchema),
});
export type SqlCredential = z.infer<typeof sqlCredentialSchema>;

/** GET /api/v1/sql-credentials: one company's, newest first by default. */
export const sqlCredentialQuerySchema = pageQuerySchema.extend({
  companyId: z.string().min(1),
  status: z.enum(SQL_CREDENTIAL_STATUSES).optional(),
  sort: z.enum(["createdAt", "-createdAt", "name", "-name", "expiresOn", "-expiresOn"]).default("-createdAt"),
});
export const sqlCredentialPageSchema = pageOf(sqlCredentialSchema);

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Today in UTC as YYYY-MM-DD: a credential's day ends at midnight UTC. */
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);
const addDays = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The last expiry date a credential made on `today` may have: SQL_CREDENTIAL_MAX_DAYS ahead (the form's `max`, the schema's rule). */
export const lastExpiryDay = (today = todayUtc()) => addDays(today, SQL_CREDENTIAL_MAX_DAYS);

/**
 * An expiry date: a real day, today or later, at most SQL_CREDENTIAL_MAX_DAYS ahead. A value that is
 * no date stops at its own message: compared as text, 2027-13-45 also read as "more than 366 days".
 */
export const expiresOnSchema = requiredString("Choose the day the credential expires")
  .regex(DAY, { message: "Give a date as YYYY-MM-DD", abort: true })
  .refine(isRealDay, { message: "Give a real date", abort: true })
  .refine((d) => d >= todayUtc(), "The expiry date cannot be in the past")
  .refine((d) => d <= lastExpiryDay(), `The expiry date is at most ${SQL_CREDENTIAL_MAX_DAYS} days from today`);

/** A text that may be left empty (null then); a `name` also refuses what nameSchema refuses inside a name. */
function optionalText(max: number, what: string, { name = false } = {}) {
  const text = z.string().trim().max(max, `${what} has at most ${max} characters`);
  return (name ? text.refine(hasNoInvisibleCharacters, INVISIBLE_CHARACTERS_MESSAGE) : text).nullish().transform((v) => (v ? v : null));
}

/** The fields of a new credential; `createSqlCredentialSchema` adds the rule that binds them. */
export const sqlCredentialFieldsSchema = z.object({
  id: madeIdSchema,
  companyId: z.string().min(1),
  userId: optionalText(200, "The user"),
  serviceName: optionalText(SQL_SERVICE_NAME_MAX, "The service name", { name: true }),
  expiresOn: expiresOnSchema,
  note: optionalText(SQL_NOTE_MAX, "The note"),
});

/** For a user of the company, or a named service: exactly one. */
function userOrService(v: { userId: string | null; serviceName: string | null }, ctx: z.RefinementCtx) {
  if (!v.userId && !v.serviceName) ctx.addIssue({ code: "custom", path: ["userId"], message: "Choose a user, or name a service" });
  if (v.userId && v.serviceName) ctx.addIssue({ code: "custom", path: ["serviceName"], message: "Either a user or a service, not both" });
}

/**
 * `schema` with userOrService's rule, checked also when another field is refused (the expiry date), so
 * that a form lists every message at once rather than this one only after the others are mended.
 */
export function withUserOrService<T extends z.ZodType<{ userId: string | null; serviceName: string | null }>>(schema: T): T {
  return schema.superRefine(userOrService, whenFieldsPass("userId", "serviceName"));
}

/** POST /api/v1/sql-credentials. */
export const createSqlCredentialSchema = withUserOrService(sqlCredentialFieldsSchema);

/**
 * POST …/{id}/rotate's query: the company, and `passwordSetAt`, when the password the page showed was set:
 * a rotation from a page that has not seen a rotation made since (another tab, another admin) is
 * refused, or the password handed out from that one would stop working without a word.
 */
export const rotateSqlCredentialQuerySchema = z.object({ companyId: z.string().min(1).optional(), passwordSetAt: timestampSchema.optional() });

/** POST …/{id}/revoke: the reason goes to the audit log. */
export const revokeSqlCredentialSchema = z.object({
  reason: z
    .string()
    .trim()
    .max(SQL_NOTE_MAX, `The reason has at most ${SQL_NOTE_MAX} characters`)
    .nullish()
    .transform((v) => (v ? v : null)),
});

/** How to connect: shown once with the password. */
export const connectionDetailsSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  sslmode: z.string().nullable(),
  user: z.string(),
  /** A `postgresql://` URI (with the password) per database the credential reaches now. */
  uris: z.array(z.object({ workspaceName: z.string(), database: z.string(), uri: z.string() })),
});

/** The answer of create and rotate: the only time the password is ever sent. */
export const issuedSqlCredentialSchema = z.object({
  credential: sqlCredentialSchema,
  password: z.string(),
  connection: connectionDetailsSchema,
});
export type IssuedSqlCredential = z.infer<typeof issuedSqlCredentialSchema>;

/** GET …/{workspace}/{id}/sql-permissions: every credential of the company that is not revoked, with its level here. */
export const sqlPermissionSchema = z.object({
  credentialId: z.string(),
  login: z.string(),
  name: z.string(),
  status: z.enum(SQL_CREDENTIAL_STATUSES),
  expiresOn: z.string(),
  level: sqlLevelSchema,
});
export const sqlPermissionsSchema = z.object({
  /** The workspace has its databases: permissions can be granted. */
  databasesExist: z.boolean(),
  database: z.string().nullable(),
  items: z.array(sqlPermissionSchema),
});
export type SqlPermissions = z.infer<typeof sqlPermissionsSchema>;
/** PUT …/sql-permissions's answer: the permissions after the save, and how many entries it changed (0: each was the level asked for already, the save sent again). */
export const savedSqlPermissionsSchema = sqlPermissionsSchema.extend({ changed: z.number().int().min(0) });

/**
 * PUT …/sql-permissions: the levels to set, each with the level the page showed (`was`): a level
 * someone else changed meanwhile is refused (409) rather than overwritten.
 */
export const setSqlPermissionsSchema = z.object({
  entries: z
    .array(z.object({ credentialId: z.string().min(1), level: sqlLevelSchema, was: sqlLevelSchema }))
    .min(1)
    .max(500),
});

export const auditEntrySchema = z.object({
  id: z.string(),
  at: timestampSchema,
  companyId: z.string().nullable(),
  workspaceId: z.string().nullable(),
  /** The project, configuration or mapping project the entry is about, as it is now (null once deleted). */
  workspace: z.object({ id: z.string(), name: z.string(), productType: z.string() }).nullable(),
  userId: z.string(),
  userName: z.string().nullable(),
  action: z.enum(AUDIT_ACTIONS),
  target: z.string(),
  summary: z.record(z.string(), z.unknown()),
  reason: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const dayFilter = z.string().regex(DAY, "A date as YYYY-MM-DD").refine(isRealDay, "A real date as YYYY-MM-DD").optional();
const textFilter = z.string().trim().max(200).optional();

/** Dates of the audit log's filter the wrong way round: no entry could match, so it is refused, next to From. */
export const FROM_AFTER_TO_MESSAGE = "From must be on or before To.";

/** From after To (both YYYY-MM-DD, so compared as strings): the audit log's filter that nothing could match. */
export const fromAfterTo = (v: { from?: string; to?: string }) => Boolean(v.from && v.to && v.from > v.to);

/**
 * GET /api/v1/audit-log (and audit-log.csv): newest first; every filter optional (the portal drops values that make
 * no sense, and says when From is after To without asking).
 */
export const auditQuerySchema = pageQuerySchema
  .extend({
    companyId: textFilter,
    userId: textFilter,
    /** A user's id, or part of their name. */
    who: textFilter,
    action: z.enum(AUDIT_ACTIONS).optional(),
    from: dayFilter,
    to: dayFilter,
    /** Part of the target or of what changed (a generic entry's path holds the ids its route names). */
    contains: textFilter,
    /** A project, configuration or mapping project: its id, or part of its name. */
    workspace: textFilter,
  })
  .refine((v) => !fromAfterTo(v), { message: FROM_AFTER_TO_MESSAGE, path: ["from"] });
export type AuditQueryInput = z.input<typeof auditQuerySchema>;
/** A page of the log, and how many days its entries are kept (the data API's setting), for the page to say. */
export const auditPageSchema = pageOf(auditEntrySchema).extend({ retentionDays: z.number().int().positive() });
