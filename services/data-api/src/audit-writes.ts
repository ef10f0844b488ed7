import { AsyncLocalStorage } from "node:async_hooks";
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { Kysely } from "kysely";
import type { Caller } from "../../shared/bearer.ts";
import type { AppEnv } from "./context.ts";
import type { Database } from "./db/schema.ts";
import { recordAudit } from "./repositories/audit-log.ts";
import { setTransactionHook } from "./repositories/db-helpers.ts";

/**
 * The audit log of every write (issue 13). A POST, PUT, PATCH or DELETE opens a pending entry (who,
 * the route, the path, the workspace and company it names); the first transaction the request commits
 * through `inTransaction` writes the entry inside itself, so the entry commits exactly when the write
 * does and a refused write (rolled back) leaves none. A write that commits no such transaction (one
 * statement) is recorded right after its successful answer instead.
 *
 * The routes whose entries say more (a before/after summary, a reason) record their own and are left
 * out here: SQL credentials and permissions, webhooks, force-unlocks, restores and undos, cancels.
 */
const AUDITED_BY_THEIR_ROUTES = [/^\/api\/v1\/sql-credentials/, /^\/api\/v1\/webhooks/, /\/(sql-permissions|force-unlock|restores|cancel)$/];

const WORKSPACE_PATH = /^\/api\/v1\/(?:projects|audit-projects|mapping-projects)\/([0-9a-f-]{36})(?:\/|$)/i;
const WORKSPACE_COLLECTION = /^\/api\/v1\/(projects|audit-projects|mapping-projects)$/;

type Pending = {
  by: Caller;
  /** The name a JSON body gives (what a create or rename is called): names are not secrets. */
  name: string | null;
  method: string;
  route: string;
  path: string;
  companyId: string | null;
  workspaceId: string | null;
  state: "open" | "recorded" | "closed";
};

const pending = new AsyncLocalStorage<Pending>();

async function write(db: Kysely<Database>, entry: Pending, extra: Record<string, unknown> = {}) {
  let { companyId } = entry;
  if (entry.workspaceId && !companyId) {
    const row = await db.selectFrom("projects").select("company_id").where("id", "=", entry.workspaceId).executeTakeFirst();
    companyId = row?.company_id ?? null;
  }
  await recordAudit(db, {
    action: "api.write",
    by: entry.by,
    companyId,
    workspaceId: entry.workspaceId,
    target: `${entry.method} ${entry.route}`,
    summary: { path: entry.path, ...(entry.name ? { name: entry.name } : {}), ...extra },
  });
}

// Registered once: inTransaction asks it for the entry of the request it runs in, if still open.
setTransactionHook(async (trx) => {
  const entry = pending.getStore();
  if (entry?.state !== "open") return undefined;
  await write(trx as Kysely<Database>, entry);
  return { written: () => void (entry.state = "recorded") };
});

/** The company and name a JSON body gives (a create's), read once: Hono keeps the parsed body for the route's validator. */
async function bodyFacts(c: Context<AppEnv>): Promise<{ companyId: string | null; name: string | null }> {
  if (!/^application\/json\b/i.test(c.req.header("content-type") ?? "")) return { companyId: null, name: null };
  const body = (await c.req.json().catch(() => null)) as { companyId?: unknown; name?: unknown } | null;
  const text = (v: unknown) => (typeof v === "string" && v.length <= 200 ? v : null);
  return { companyId: text(body?.companyId), name: text(body?.name) };
}

export function auditWrites(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    const path = c.req.path;
    if (method === "GET" || method === "HEAD" || method === "OPTIONS" || !c.var.caller || AUDITED_BY_THEIR_ROUTES.some((r) => r.test(path))) return next();
    const body = await bodyFacts(c);
    const entry: Pending = {
      by: c.var.caller,
      name: body.name,
      method,
      route: routePath(c, -1),
      path,
      companyId: c.req.query("companyId") ?? body.companyId,
      workspaceId: WORKSPACE_PATH.exec(path)?.[1] ?? null,
      state: "open",
    };
    try {
      await pending.run(entry, next);
      if (entry.state === "open" && c.res.status < 400) {
        // A create's answer names what it made.
        if (!entry.workspaceId && WORKSPACE_COLLECTION.test(entry.route) && /^application\/json/.test(c.res.headers.get("content-type") ?? "")) {
          const made = (await c.res
            .clone()
            .json()
            .catch(() => null)) as { id?: unknown } | null;
          if (typeof made?.id === "string") entry.workspaceId = made.id;
        }
        await write(c.var.deps.db, entry, { status: c.res.status }).catch((err: unknown) =>
          // The write happened: a failing audit insert is logged, never turned into a failed answer.
          c.var.deps.logger.error("could not record a write in the audit log", { err, path, requestId: c.var.requestId }),
        );
      }
    } finally {
      // Work the request left running (a job) records nothing in its name.
      entry.state = "closed";
    }
  };
}
