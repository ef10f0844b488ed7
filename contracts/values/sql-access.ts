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

/**
 * What an "Other change" was, in words, by its route (the entry's target, "POST /api/v1/projects/:id/run"):
 * the writes a support person looks for when a client asks who changed their data. The route after a
 * workspace's base (projects, audit-projects, mapping-projects) or at the top, its parameters as ":".
 */
const AUDIT_WRITE_LABELS: Record<string, string> = {
  "POST /": "{Noun} created",
  "PATCH /:": "{Noun} details or status changed",
  "POST /:/upload-type": "Upload type chosen",
  "PUT /:/users/:": "{Noun} access given or changed",
  "DELETE /:/users/:": "{Noun} access taken away",
  "POST /:/try-create-databases": "Databases creation started",
  "POST /:/updateFlatFileParameters": "Flat-file settings changed",
  "POST /:/flat-file/loads": "Flat-file load started",
  "POST /:/backups": "Backup started",
  "POST /:/comparisons": "Comparison started",
  "POST /:/run": "Run started",
  "POST /:/data-dictionary/:/assign": "Data dictionary assigned",
  "POST /:/data-dictionary/tables": "Dictionary table added",
  "PATCH /:/data-dictionary/tables": "Dictionary table changed",
  "DELETE /:/data-dictionary/tables/:": "Dictionary table removed",
  "POST /:/data-dictionary/bulk-uploads/:/apply": "Dictionary file applied",
  "POST /:/templates": "Template added",
  "POST /:/templates/assign": "Templates assigned",
  "PATCH /:/templates/:": "Template changed",
  "DELETE /:/templates/:": "Template removed",
  "POST /:/templates/:/status": "Template status changed",
  "POST /:/templates/:/move": "Template moved",
  "POST /:/templates/:/levels": "Level added",
  "PATCH /:/templates/:/levels/:": "Level renamed",
  "DELETE /:/templates/:/levels/:": "Level deleted",
  "POST /:/templates/:/levels/:/scripts": "Script added",
  "PUT /:/templates/:/scripts/:": "Script saved (a new version)",
  "PATCH /:/templates/:/scripts/:": "Script renamed",
  "DELETE /:/templates/:/scripts/:": "Script deleted",
  "POST /:/templates/:/scripts/:/versions/:/restore": "Earlier script version restored",
};
const WORKSPACE_ROUTE = /^(POST|PUT|PATCH|DELETE) \/api\/v1\/(projects|audit-projects|mapping-projects)(\/.*)?$/;
const WORKSPACE_NOUNS: Record<string, string> = { projects: "Project", "audit-projects": "Configuration", "mapping-projects": "Mapping project" };

/** An "Other change" in words ("Run started"), or null for a route the log has no words for. */
export function auditWriteLabel(target: string): string | null {
  const route = WORKSPACE_ROUTE.exec(target);
  const label = route && AUDIT_WRITE_LABELS[`${route[1]} /${(route[3] ?? "").slice(1).replace(/:[A-Za-z]+/g, ":")}`];
  return label ? label.replace("{Noun}", WORKSPACE_NOUNS[route[2]!]!) : null;
}

/** A rotation refused because the password was set again since the page was read (another tab, another admin). */
export const rotatedMeanwhileMessage = (login: string, at: string) =>
  `The password of ${login} was rotated meanwhile, at ${new Date(at).toISOString().slice(11, 16)} UTC: nothing was changed. ` +
  "The password shown then is the one that works; rotate again for a new one.";
