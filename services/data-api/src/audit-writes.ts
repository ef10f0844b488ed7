import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "./context.ts";
import { recordAudit } from "./repositories/audit-log.ts";

/**
 * The audit log's net for every other write (issue 13): a POST, PUT, PATCH or DELETE the data API
 * answered with success is recorded after the fact (who, when, the route and its path, the workspace
 * and company where the path names one). Not in the write's own transaction, unlike the writes whose
 * routes record their own entry with a before/after summary and a reason (SQL credentials and
 * permissions, webhooks, force-unlocks, restores and undos, cancels): those are left to their routes.
 */
const AUDITED_BY_THEIR_ROUTES = [/^\/api\/v1\/sql-credentials/, /^\/api\/v1\/webhooks/, /\/(sql-permissions|force-unlock|restores|cancel)$/];

const WORKSPACE_ROUTE = /^\/api\/v1\/(projects|audit-projects|mapping-projects)\/:id(\/|$)/;
const WORKSPACE_COLLECTION = /^\/api\/v1\/(projects|audit-projects|mapping-projects)$/;

export function auditWrites(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const method = c.req.method;
    if (method === "GET" || method === "HEAD" || method === "OPTIONS") return;
    if (c.res.status >= 400 || !c.var.caller) return;
    const path = c.req.path;
    if (AUDITED_BY_THEIR_ROUTES.some((r) => r.test(path))) return;
    const route = routePath(c, -1);
    const { db, logger } = c.var.deps;
    try {
      let workspaceId: string | null = null;
      let companyId = c.req.query("companyId") ?? null;
      if (WORKSPACE_ROUTE.test(route)) {
        const row = await db
          .selectFrom("projects")
          .select(["id", "company_id"])
          .where("id", "=", c.req.param("id") ?? "")
          .executeTakeFirst();
        workspaceId = row?.id ?? null;
        companyId = row?.company_id ?? companyId;
      }
      // A create names its company in what it answers (the new project, application, dictionary…).
      if (!companyId && /^application\/json/.test(c.res.headers.get("content-type") ?? "")) {
        const answered = (await c.res
          .clone()
          .json()
          .catch(() => null)) as { companyId?: unknown; id?: unknown } | null;
        if (typeof answered?.companyId === "string") companyId = answered.companyId;
        if (typeof answered?.id === "string" && WORKSPACE_COLLECTION.test(route)) workspaceId = answered.id;
      }
      await recordAudit(db, {
        action: "api.write",
        by: c.var.caller,
        companyId,
        workspaceId,
        target: `${method} ${route}`,
        summary: { path, status: c.res.status },
      });
    } catch (err) {
      // The write happened: a failing audit insert is logged, never turned into a failed answer.
      logger.error("could not record a write in the audit log", { err, path, requestId: c.var.requestId });
    }
  };
}
