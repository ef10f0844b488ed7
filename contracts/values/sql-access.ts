/* Zod-free: labels, options and limits of SQL access (issue 13) that the browser may import. */

/** What a SQL credential may do in one workspace's databases (the sql-permissions page). */
export const SQL_LEVELS = ["none", "read", "write"] as const;
export type SqlLevel = (typeof SQL_LEVELS)[number];
export const SQL_LEVEL_LABELS: Record<SqlLevel, string> = {
  none: "None",
  read: "Read",
  write: "Write",
};
export const SQL_LEVEL_HINTS: Record<SqlLevel, string> = {
  none: "cannot connect",
  read: "SELECT on source and destination",
  write: "also INSERT, UPDATE, DELETE and CREATE in destination",
};

/** A credential as its list shows it: Expired once its day has passed, Revoked for good. */
export const SQL_CREDENTIAL_STATUSES = ["Active", "Expired", "Revoked"] as const;
export type SqlCredentialStatus = (typeof SQL_CREDENTIAL_STATUSES)[number];

/** Sessions one credential may hold at once on a server (PostgreSQL's CONNECTION LIMIT). */
export const SQL_CREDENTIAL_CONNECTION_LIMIT = 5;
/** The furthest expiry a credential may be given, in days from today. */
export const SQL_CREDENTIAL_MAX_DAYS = 366;
export const SQL_SERVICE_NAME_MAX = 100;
/** How many days audit log entries are kept when the data API's AUDIT_RETENTION_DAYS is not set. */
export const AUDIT_RETENTION_DAYS_DEFAULT = 365;
export const SQL_NOTE_MAX = 500;

/** What the audit log records (the audit-log page filters by it). */
export const AUDIT_ACTIONS = [
  "sql_credential.created",
  "sql_credential.rotated",
  "sql_credential.revoked",
  "sql_permission.changed",
  "webhook.added",
  "webhook.removed",
  "workspace.force_unlocked",
  "workspace.restore_started",
  "workspace.undo_started",
  "job.cancel_requested",
  "api.write",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  "sql_credential.created": "SQL credential created",
  "sql_credential.rotated": "SQL credential password rotated",
  "sql_credential.revoked": "SQL credential revoked",
  "sql_permission.changed": "SQL permission changed",
  "webhook.added": "Webhook added",
  "webhook.removed": "Webhook removed",
  "workspace.force_unlocked": "Force-unlocked",
  "workspace.restore_started": "Restore started",
  "workspace.undo_started": "Undo started",
  "job.cancel_requested": "Job cancel asked",
  "api.write": "Other change",
};
