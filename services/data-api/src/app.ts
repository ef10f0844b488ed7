import { OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { sql } from "kysely";
import { bearerAuth } from "../../shared/bearer.ts";
import { apiError, installErrorHandlers, requestId } from "../../shared/http.ts";
import { refuseNulCharacters } from "../../shared/nul-characters.ts";
import type { Logger } from "../../shared/logger.ts";
import { auditWrites } from "./audit-writes.ts";
import { requestBodyLimits } from "./body-limits.ts";
import type { AppDeps, AppEnv } from "./context.ts";
import { serverNotAnswering } from "./data-plane/server-lost.ts";
import { guardLockedWrites } from "./jobs/lock-guard.ts";
import { API_PREFIX, OPENAPI_PATH, installOpenApiDocument, validationHook } from "./openapi.ts";
import { createApplicationsRouter } from "./routes/applications/applications.ts";
import { createCompaniesRouter } from "./routes/companies/companies.ts";
import { createDataDictionariesRouter } from "./routes/dictionaries/data-dictionaries.ts";
import { createMasterTemplatesRouter } from "./routes/templates/master-templates.ts";
import { createProductInfoRouter } from "./routes/product-info/product-info.ts";
import { createWebhooksRouter } from "./routes/notifications/webhooks.ts";
import { createAuditLogRouter } from "./routes/sql-access/audit-log.ts";
import { createSqlCredentialsRouter } from "./routes/sql-access/sql-credentials.ts";
import { createWorkspaceRouter } from "./routes/workspaces/router.ts";

export type { AppDeps, AppEnv } from "./context.ts";

/** The data API as a Hono app: the server listens with it, the tests call `app.request(...)` on it. */
export function createApp(deps: AppDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

  app.use(requestId());
  app.use(async (c, next) => {
    c.set("deps", deps);
    await next();
  });
  app.use(requestLog(deps.logger));
  // A project database's server (or the PostgreSQL control plane) not answering, as while the embedded
  // one is started again, or every connection to it staying in use, is a 503 to try again in a moment, not a 500.
  installErrorHandlers(app, deps.logger, serverNotAnswering);
  // Before anything reads a body: 1 MB of JSON by default, more for the routes that need it.
  app.use(requestBodyLimits());
  // Before any route reads a value: PostgreSQL's text holds no NUL.
  app.use(refuseNulCharacters());

  // For load balancers and `docker HEALTHCHECK`: no auth, but it does reach the database.
  app.get("/healthz", async (c) => {
    try {
      await sql`select 1`.execute(deps.db);
    } catch (err) {
      deps.logger.error("health check: database unreachable", { err, requestId: c.var.requestId });
      return apiError(c, 503, "service_unavailable", ["The database is not reachable."]);
    }
    return c.json({ status: "ok" as const }, 200);
  });

  // The document is public (clients generate code from it); everything else under /api/v1 is not.
  installOpenApiDocument(app, deps.version);
  const requireBearer: MiddlewareHandler = bearerAuth(deps.bearer, deps.logger);
  // A plain comparison rather than hono's `except`, whose combinators cost more than the check itself.
  app.use(`${API_PREFIX}/*`, (c, next) => (c.req.path === OPENAPI_PATH ? next() : requireBearer(c, next)));
  // Every successful write lands in the audit log, with what it changed (read through the app's own GET).
  app.use(`${API_PREFIX}/*`, auditWrites((request) => app.fetch(request)));
  // A write's lock check is made again inside its transactions (a job may take the lock meanwhile).
  app.use(`${API_PREFIX}/*`, guardLockedWrites);

  // One router per resource (ARCHITECTURE.md §3). Errors (an ApiProblem with its field errors, any
  // HTTPException, anything else as a 500) are answered once, by installErrorHandlers above.
  app.route(API_PREFIX, createProductInfoRouter());
  app.route(API_PREFIX, createCompaniesRouter());
  app.route(API_PREFIX, createApplicationsRouter());
  app.route(API_PREFIX, createDataDictionariesRouter());
  app.route(API_PREFIX, createMasterTemplatesRouter());
  // Additional Options (issue 13): SQL credentials and the audit log.
  app.route(API_PREFIX, createSqlCredentialsRouter());
  app.route(API_PREFIX, createAuditLogRouter());
  app.route(API_PREFIX, createWebhooksRouter());
  // Workspaces, one implementation for both kinds: /projects (migration), /audit-projects (onboarding).
  app.route(API_PREFIX, createWorkspaceRouter("migration"));
  app.route(API_PREFIX, createWorkspaceRouter("onboarding"));
  app.route(API_PREFIX, createWorkspaceRouter("translation"));

  return app;
}

function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    logger.info("request", {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
      requestId: c.var.requestId,
      userId: c.var.caller?.userId,
    });
  };
}
