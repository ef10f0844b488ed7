import type { Kysely } from "kysely";
import type { BearerOptions, BearerVariables } from "../../shared/bearer.ts";
import type { RequestIdVariables } from "../../shared/http.ts";
import type { Logger } from "../../shared/logger.ts";
import type { AccessSettings } from "../../../contracts/areas.ts";
import type { AdminDataSourcesSource } from "./admin-data-sources.ts";
import type { CompanyUsersSource } from "./company-users.ts";
import type { DataPlane } from "./data-plane/servers.ts";
import type { SqlAccessSettings } from "./data-plane/sql-logins.ts";
import type { Database } from "./db/schema.ts";
import type { JobRunner } from "./jobs/runner.ts";
import type { WebhookDeliverySettings } from "./notifications/webhooks.ts";
import type { PermissionsSource } from "./permissions.ts";

/** What createApp needs from the outside: the server wires real ones, tests wire their own. */
export type AppDeps = {
  db: Kysely<Database>;
  /** Where jobs write their progress and heartbeats (db/progress-db.ts): a connection on its own thread on SQLite; `db` when omitted. */
  progressDb?: Kysely<Database>;
  logger: Logger;
  bearer: BearerOptions;
  permissions: PermissionsSource;
  /** The product version (root package.json), answered by productInfo. */
  version: string;
  /** The data folder: uploads are written under `${dataDir}/tmp` while they are read. */
  dataDir: string;
  /** The PostgreSQL servers holding project databases (data-plane/servers.ts). */
  dataPlane: DataPlane;
  /** Runs jobs in the background of this process (jobs/runner.ts); one per app. */
  jobs: JobRunner;
  /** The people of a company (client portal): project-access grants are checked against it. */
  companyUsers: CompanyUsersSource;
  /** A company's schemes (client portal): served as admin data sources, and what configurations may serve. */
  adminDataSources: AdminDataSourcesSource;
  /**
   * The cloud target and the translation module's analyst role (env CLOUD_TARGET,
   * TRANSLATION_ANALYST_ROLE): which areas exist here and who may enter them (contracts/areas.ts).
   * Default: AWS with the default role name.
   */
  accessSettings?: AccessSettings;
  /** Automatic backups kept per workspace (env AUTO_BACKUPS_KEPT); 10 when omitted. */
  autoBackupsKept?: number;
  /** A script's lock lapses after this many minutes (env SCRIPT_LOCK_TTL_MINUTES); 120 when omitted. */
  scriptLockTtlMinutes?: number;
  /** A run's statement is cancelled after this many seconds (env RUN_STATEMENT_TIMEOUT_SECONDS); 3600 when omitted. */
  runStatementTimeoutSeconds?: number;
  /** Where users' SQL tools reach project databases (env SQL_ACCESS_HOST, SQL_ACCESS_PORT, SQL_ACCESS_SSLMODE); each server's own by default. */
  sqlAccess?: SqlAccessSettings;
  /** The largest flat file a load takes (env MAX_UPLOAD_BYTES); 5 GB when omitted. */
  maxUploadBytes?: number;
  /** Where webhook deliveries may go (env WEBHOOKS_ALLOW_PRIVATE_ADDRESSES): public addresses only when omitted. */
  webhooks?: WebhookDeliverySettings;
  /** Audit log entries are kept this many days (env AUDIT_RETENTION_DAYS; server.ts prunes them); AUDIT_RETENTION_DAYS_DEFAULT when omitted. */
  auditRetentionDays?: number;
  /** How long an upload waits for its review before answering 202 (routes/dictionaries/bulk-uploads.ts UPLOAD_WAIT_MS); tests set 0. */
  uploadWaitMs?: number;
};

/**
 * The Hono environment of every router. `deps` is set for every request; `caller` only behind
 * bearerAuth, that is on every /api/v1 route except the OpenAPI document.
 */
export type AppEnv = {
  Variables: RequestIdVariables & BearerVariables & { deps: AppDeps };
};
