/** SQL credentials, their per-workspace permissions and the audit log (migration 0018; issue 13). */
export interface SqlAccessTables {
  sql_credentials: SqlCredentialsTable;
  sql_permissions: SqlPermissionsTable;
  audit_log: AuditLogTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  sql_login_tables_shared: SqlLoginTablesSharedTable;
}

/** A workspace whose database the start's sharing pass is done with (share-login-tables.ts; migration 0022). */
export interface SqlLoginTablesSharedTable {
  project_id: string;
  shared_at: string;
}

/** A company's webhook (migration 0019). */
export interface WebhooksTable {
  id: string;
  company_id: string;
  url: string;
  /** JSON array of contracts/values/notifications.ts WEBHOOK_EVENTS. */
  events: string;
  /** For lock.held: a lock held longer than this is reported (once per lock). */
  lock_minutes: number | null;
  /** Signs each payload (HMAC-SHA256); shown once, when the webhook is added. */
  secret: string;
  created_at: string;
  created_by: string;
  deleted_at: string | null;
}

/** contracts/values/notifications.ts DELIVERY_STATUSES. */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event: string;
  subject: string;
  /** The JSON body sent, exactly (its signature is computed over these bytes). */
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: string;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** A PostgreSQL login of one company; its password is never stored here. */
export interface SqlCredentialsTable {
  id: string;
  company_id: string;
  /** The PostgreSQL role name (data-plane/sql-logins.ts loginNameOf). */
  login: string;
  /** The client portal user it is for; null for a named service. */
  user_id: string | null;
  /** The person's display name when created, or the service's name. */
  name: string;
  /**
   * A service's name as its uniqueness compares it (db-helpers.ts nameKey): unique per company among credentials
   * not revoked (migration 0027). Null for a user's credential, and for a later one of services of one name made
   * before 0027.
   */
  name_key: string | null;
  /** The name's natural sort key (db-helpers.ts naturalSortKey): the lists sorted by name read it (migration 0027). */
  name_sort: string;
  note: string | null;
  /** YYYY-MM-DD: the login is valid until the end of that day (UTC), enforced by PostgreSQL's VALID UNTIL. */
  expires_on: string;
  created_at: string;
  created_by: string;
  /** When the current password was set (creation or the last rotation). */
  password_set_at: string;
  /** The last time a session of the login was seen on a server (sampled; data-plane/sql-logins.ts). */
  last_used_at: string | null;
  revoked_at: string | null;
  revoked_by: string | null;
}

export interface SqlPermissionsTable {
  credential_id: string;
  project_id: string;
  /** contracts/values/sql-access.ts SQL_LEVELS, without "none" (no row). */
  level: string;
  granted_at: string;
  granted_by: string;
}

/** Append-only: rows are inserted in the transaction of the write they describe, never updated. */
export interface AuditLogTable {
  id: string;
  at: string;
  company_id: string | null;
  workspace_id: string | null;
  user_id: string;
  /** The display name the caller's token carried, as it was then. */
  user_name: string | null;
  /** contracts/values/sql-access.ts AUDIT_ACTIONS. */
  action: string;
  /** What was acted on, as a user reads it ("credential dtc_…", "project Payroll"). */
  target: string;
  /** JSON: a before/after summary; never a password or a file's content. */
  summary: string;
  reason: string | null;
}
