/**
 * Starts the data API: environment, database (migrate, recover, seed), then HTTP.
 * `npm run start:data-api`, or through scripts/start-all.ts with the other two processes.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { getRequestListener } from "@hono/node-server";
import { createRemoteJWKSet } from "jose";
import { EnvError } from "../../../contracts/env.ts";
import type { BearerOptions } from "../../shared/bearer.ts";
import { createKysely, databaseKind } from "../../shared/db.ts";
import { createLogger } from "../../shared/logger.ts";
import { allowLongUploads } from "../../shared/long-uploads.ts";
import { stopOnSignals } from "../../shared/stop-on-signals.ts";
import { createHttpAdminDataSources } from "./admin-data-sources.ts";
import { createApp } from "./app.ts";
import { createHttpCompanyUsersSource } from "./company-users.ts";
import { removeLeftBackupWork } from "./data-plane/backups/backup-jobs.ts";
import { removeExpiredStaged, STAGED_UPLOAD_TTL_MS } from "./data-plane/flat-file/staged-uploads.ts";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "./data-plane/embedded-postgres.ts";
import { createDataPlane, serversFromUrls, type DataPlane } from "./data-plane/servers.ts";
import { removeLeftUploads, uploadsTmpDir } from "./dictionary-bulk/receive-upload.ts";
import { migrateDatabase } from "./db/migrate.ts";
import { createProgressDb } from "./db/progress-db.ts";
import type { Database } from "./db/schema.ts";
import { loadEnv, type DataApiEnv } from "./env.ts";
import { STALE_JOB_MS, recoverInterruptedJobs, startStaleJobSweep } from "./jobs/recover.ts";
import { pruneAudit } from "./repositories/audit-log.ts";
import { startWebhookDelivery } from "./notifications/webhooks.ts";
import { createJobRunner } from "./jobs/runner.ts";
import { createHttpPermissionsSource } from "./permissions.ts";
import { seedDemoContent } from "./demo-content.ts";
import { seedDemo } from "./seed.ts";
import { shareTablesOfSqlLogins } from "./share-login-tables.ts";
import { readProductVersion } from "./version.ts";

/** The id projects record for the embedded server: whatever its port, the same server. */
const EMBEDDED_SERVER_ID = "embedded";

/** How long in-flight requests and running jobs get after SIGINT/SIGTERM before the process exits anyway (with 1). */
const SHUTDOWN_GRACE_MS = 10_000;

function readEnvOrExit(): DataApiEnv {
  try {
    return loadEnv();
  } catch (err) {
    if (!(err instanceof EnvError)) throw err;
    // The message names every bad variable; a stack trace would only hide it.
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}

async function main() {
  const env = readEnvOrExit();
  const logger = createLogger("data-api", env.LOG_LEVEL);
  const db = createKysely<Database>(env.DATABASE_URL);
  const progressDb = createProgressDb<Database>(env.DATABASE_URL);
  const sharedControlPlane = databaseKind(env.DATABASE_URL) === "postgres";

  let embedded: EmbeddedPostgres | undefined;
  let dataPlane: DataPlane;
  try {
    // Start sequence: each step needs the one before it, and all run before the port opens.
    // 0. The servers of project databases: the configured ones, or the embedded one, started now.
    if (env.PROJECT_DATABASES_URL) dataPlane = createDataPlane(serversFromUrls(env.PROJECT_DATABASES_URL), { secret: env.PROJECT_DATABASES_SECRET! });
    else {
      embedded = await startEmbeddedPostgres({ dataDir: env.DATA_DIR, port: env.EMBEDDED_POSTGRES_PORT, logger });
      dataPlane = createDataPlane([{ id: EMBEDDED_SERVER_ID, adminUrl: embedded.adminUrl }], { secret: embedded.secret });
    }
    // Project databases were SQLite files under DATA_DIR/projects before they moved to PostgreSQL
    // (migration 0007 sends those projects back to their "Create databases" step).
    const oldProjectFiles = path.join(env.DATA_DIR, "projects");
    if (fs.existsSync(oldProjectFiles)) {
      fs.rmSync(oldProjectFiles, { recursive: true, force: true });
      logger.warn("removed the SQLite project databases of an earlier version", { dir: oldProjectFiles });
    }
    // 1. Schema.
    await migrateDatabase(db);
    // 2. Recovery: end the jobs a previous process left running (ERROR) and release their project
    //    locks, before any request can see a project locked forever. SQLite: this process is the
    //    only one on the file, so every running job is dead. PostgreSQL: other processes may be
    //    running jobs right now, so only jobs whose heartbeat stopped, now and periodically.
    //    Then drop what failed and interrupted jobs left (the databases of a failed creation), so a
    //    retry starts clean.
    const recovered = await recoverInterruptedJobs(db, {
      ...(sharedControlPlane ? { staleBefore: new Date(Date.now() - STALE_JOB_MS) } : {}),
      dataPlane,
      logger,
    });
    if (recovered.length) logger.warn("ended jobs a previous process left running", { jobIds: recovered });
    //    And the files of uploads and loads a dead process was reading: all of them when this process
    //    is the only one (SQLite); with others sharing DATA_DIR, those untouched for a day.
    const leftBefore = sharedControlPlane ? new Date(Date.now() - 24 * 3600_000) : undefined;
    const leftUploads = await removeLeftUploads(uploadsTmpDir(env.DATA_DIR), leftBefore);
    if (leftUploads) logger.warn("removed the files of uploads a previous process left", { files: leftUploads });
    //    And what its backups were writing: their table files and half-written archives.
    const leftBackups = await removeLeftBackupWork(env.DATA_DIR, leftBefore);
    if (leftBackups) logger.warn("removed what backups a previous process was writing left", { files: leftBackups });
    //    Previews nobody loaded within a day, and (the only process) the files of loads that died with it.
    const leftStaged = await removeExpiredStaged(env.DATA_DIR, new Date(Date.now() - STAGED_UPLOAD_TTL_MS), { loadsToo: !sharedControlPlane });
    if (leftStaged) logger.warn("removed staged uploads nobody loaded, or whose load died", { uploads: leftStaged });
    // 3. Demo data, when asked.
    if (env.SEED_DEMO) {
      await seedDemo(db);
      if (env.SEED_DEMO_CONTENT && (await seedDemoContent(db))) logger.info("demo content seeded");
      logger.info("demo data seeded");
    }
  } catch (err) {
    logger.error("start failed", { err });
    await db.destroy();
    await embedded?.stop();
    process.exit(1);
  }

  const bearer: BearerOptions = {
    getKey: createRemoteJWKSet(new URL(env.OIDC_JWKS_URL)),
    issuer: env.OIDC_ISSUER,
    audience: env.API_AUDIENCE,
    rolesClaim: env.ROLES_CLAIM,
  };
  const jobs = createJobRunner();
  const webhooks = { allowPrivateAddresses: env.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES };
  const app = createApp({
    db,
    progressDb,
    logger,
    bearer,
    permissions: createHttpPermissionsSource({ baseUrl: env.CLIENT_PORTAL_API_URL }),
    version: readProductVersion(),
    dataDir: env.DATA_DIR,
    dataPlane,
    maxUploadBytes: env.MAX_UPLOAD_BYTES,
    autoBackupsKept: env.AUTO_BACKUPS_KEPT,
    scriptLockTtlMinutes: env.SCRIPT_LOCK_TTL_MINUTES,
    runStatementTimeoutSeconds: env.RUN_STATEMENT_TIMEOUT_SECONDS,
    sqlAccess: { host: env.SQL_ACCESS_HOST, port: env.SQL_ACCESS_PORT, sslmode: env.SQL_ACCESS_SSLMODE },
    jobs,
    companyUsers: createHttpCompanyUsersSource({ baseUrl: env.CLIENT_PORTAL_API_URL }),
    adminDataSources: createHttpAdminDataSources({ baseUrl: env.CLIENT_PORTAL_API_URL }),
    accessSettings: { cloudTarget: env.CLOUD_TARGET, translationAnalystRole: env.TRANSLATION_ANALYST_ROLE },
    webhooks,
    auditRetentionDays: env.AUDIT_RETENTION_DAYS,
  });
  const stopSweep = sharedControlPlane ? startStaleJobSweep(db, logger, { dataPlane }) : () => undefined;
  // The audit log keeps AUDIT_RETENTION_DAYS: pruned now and once a day.
  const pruneAuditLog = () =>
    pruneAudit(db, env.AUDIT_RETENTION_DAYS).then(
      (n) => n && logger.info("pruned the audit log", { entries: n, retentionDays: env.AUDIT_RETENTION_DAYS }),
      (err: unknown) => logger.warn("could not prune the audit log", { err }),
    );
  void pruneAuditLog();
  const auditTimer = setInterval(pruneAuditLog, 24 * 3600_000);
  auditTimer.unref();
  // Tables SQL credentials made before the project shared what a login makes: shared now, in the
  // background (a GRANT at a time, once per workspace of a company with credentials), not re-saved by hand.
  void shareTablesOfSqlLogins(db, dataPlane, logger).then(
    (n) => n && logger.info("shared the tables SQL credentials made with their projects", { logins: n }),
    (err: unknown) => logger.warn("could not share the tables SQL credentials made", { err }),
  );
  // Webhook deliveries: the outbox the jobs write, sent and retried here (notifications/webhooks.ts).
  const stopDeliveries = startWebhookDelivery(db, logger, webhooks);

  // An HTTP/1 server, as the portal's and the client portal's (Hono's serve() is typed for HTTP/2 servers too, which
  // have neither the timeouts allowLongUploads sets nor the connections stopOnSignals closes).
  const server = http.createServer(getRequestListener(app.fetch));
  server.listen(env.DATA_API_PORT, () => {
    const { port } = server.address() as AddressInfo;
    logger.info(`data API listening on http://localhost:${port}`, {
      url: `http://localhost:${port}`,
      database: databaseKind(env.DATABASE_URL),
      openapi: `http://localhost:${port}/api/v1/openapi.json`,
    });
  });
  // A load's file or a backup may take longer to arrive than Node's five minutes for a whole request.
  allowLongUploads(server);
  server.on("error", async (err) => {
    logger.error("server failed", { err, port: env.DATA_API_PORT });
    await db.destroy();
    await dataPlane.closePools();
    await embedded?.stop();
    process.exit(1);
  });

  stopOnSignals(server, {
    graceMs: SHUTDOWN_GRACE_MS,
    logger,
    beforeClose: () => {
      stopSweep();
      clearInterval(auditTimer);
      stopDeliveries();
    },
    // Running jobs get the rest of the grace period; one cut short is ended by the next start's recovery.
    cleanup: async () => {
      await jobs.idle();
      await progressDb?.destroy();
      await db.destroy();
      await dataPlane.closePools();
      await embedded?.stop();
      logger.info("stopped");
    },
    afterGrace: "exit",
  });
}

await main();
