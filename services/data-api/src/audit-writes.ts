import { AsyncLocalStorage } from "node:async_hooks";
import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { Kysely } from "kysely";
import type { AuditAction } from "../../../contracts/sql-access.ts";
import type { Caller } from "../../shared/bearer.ts";
import type { AppEnv } from "./context.ts";
import type { Database } from "./db/schema.ts";
import { recordAudit, type AuditRecord } from "./repositories/audit-log.ts";
import { addTransactionHook } from "./repositories/db-helpers.ts";

/**
 * The audit log of every write (issue 13; decision 022). A POST, PUT, PATCH or DELETE opens a pending
 * entry (who, the route, the path, the workspace and company it names, the fields its JSON body sets
 * and, for a change or a removal, those fields as they were before); the first transaction the request
 * commits through `inTransaction` writes the entry inside itself, so the entry commits exactly when
 * the write does and a refused write (rolled back) leaves none.
 *
 * A route that knows more says so with `describeWrite` (its action, target, before/after summary and
 * reason replace the generic ones). Work whose change is made later than its first record says
 * `deferAudit()`, and the transaction that makes the change says `claimAudit()`: a job's start (the
 * lock taken; a refused start deletes its record again), a reviewed upload's readiness (which may come
 * after the answer). A write that touches no table (a staged file) is recorded after its answer.
 */

type Described = Pick<AuditRecord, "action" | "target" | "summary"> & { companyId?: string | null; workspaceId?: string | null; reason?: string | null };

type Pending = {
  by: Caller;
  method: string;
  route: string;
  path: string;
  companyId: string | null;
  workspaceId: string | null;
  /** What the JSON body sets, as recorded (secrets left out, long texts by their length). */
  fields: Record<string, unknown>;
  /** A body's `reason` (a force unlock's, a revoke's): kept in the entry's reason column. */
  reason: string | null;
  /** The resource as its GET answered before a PUT, PATCH or DELETE. */
  before: Record<string, unknown> | null;
  /** The entries a route described (a permission change per credential); none: the generic one. */
  described: Described[];
  /** Written by the transaction that claims it, not by the first one. */
  deferred: boolean;
  claimed: boolean;
  extra: Record<string, unknown>;
  state: "open" | "recorded" | "closed";
};

const pending = new AsyncLocalStorage<Pending>();
const open = () => {
  const entry = pending.getStore();
  return entry?.state === "open" ? entry : undefined;
};

/** What a route that knows more records for its write (called before or inside its transaction; once per entry). */
export function describeWrite(described: Described): void {
  open()?.described.push(described);
}

/** The request changed nothing after all (a transaction that committed, then a refusal): no entry. */
export function nothingToAudit(): void {
  const entry = open();
  if (entry) entry.state = "closed";
}

/** The request's entry waits for the transaction that claims it (see above). */
export function deferAudit(): void {
  const entry = open();
  if (entry) entry.deferred = true;
}

/** What the entry says beside the body's fields, for a write whose body is no JSON (a load's file, table and mode). */
export function noteAudit(extra: Record<string, unknown>): void {
  const entry = open();
  if (entry) entry.extra = { ...entry.extra, ...extra };
}

/** The workspace a create made, inside its transaction: its entry names it, as a change of it would. */
export function auditWorkspace(id: string): void {
  const entry = open();
  if (entry && !entry.workspaceId) entry.workspaceId = id;
}

/** Inside the transaction that makes the change: the request's entry is written by it, with `extra` (a job's id). */
export function claimAudit(extra: Record<string, unknown> = {}): void {
  const entry = open();
  if (!entry) return;
  entry.claimed = true;
  entry.extra = { ...entry.extra, ...extra };
}

const HIDDEN = /password|secret|token/i;
/** Body fields that say how, not what: the version a save is based on, a stale check's `was`. */
const STALE_CHECKS = ["version", "baseVersion", "was"];
/** …and those the entry has a column for. */
const NOT_RECORDED = new Set([...STALE_CHECKS, "companyId", "reason"]);
const LONG_TEXT = 120;
/** A script's SQL and the like hold a client's values: the log says how long, not what. */
const CONTENT = /^(sql|content|text|body|data)$/i;

/** A value as the log shows it: a long text (or any content) by its length, a list by its count. */
function shown(value: unknown, key = ""): unknown {
  if (typeof value === "string") return value.length > LONG_TEXT || CONTENT.test(key) ? `(${value.length.toLocaleString("en-US")} characters)` : value;
  if (typeof value === "number" || typeof value === "boolean" || value === null) return value;
  if (Array.isArray(value)) return `(${value.length} ${value.length === 1 ? "item" : "items"})`;
  return undefined;
}

function recordedFields(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (NOT_RECORDED.has(key)) continue;
    if (HIDDEN.test(key)) {
      out[key] = "(not recorded)";
      continue;
    }
    const v = shown(value, key);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** A field of the resource as read before: at its top, or one object down (`{ template: { name } }`). */
function lookup(resource: Record<string, unknown>, key: string): unknown {
  if (key in resource) return shown(resource[key], key);
  for (const value of Object.values(resource))
    if (value && typeof value === "object" && !Array.isArray(value) && key in value) return shown((value as Record<string, unknown>)[key], key);
  return undefined;
}

/** The before/after summary of a generic write: what the body set, beside what was there. */
function changes(entry: Pending): Record<string, unknown> {
  const { before, fields } = entry;
  if (entry.method === "DELETE") {
    const name = before && (lookup(before, "name") ?? lookup(before, "title") ?? lookup(before, "url"));
    return typeof name === "string" ? { name: { before: name, after: "(deleted)" } } : {};
  }
  if (!before) return fields;
  const out: Record<string, unknown> = {};
  for (const [key, after] of Object.entries(fields)) {
    const was = lookup(before, key);
    if (was === undefined) out[key] = after;
    else if (was !== after) out[key] = { before: was, after };
  }
  // What a change is of, when its body does not rename it.
  const name = lookup(before, "name");
  if (!("name" in out) && typeof name === "string") out.of = name;
  return out;
}

/** Things named by id alone in a path, and the table that knows their company. */
const COMPANY_BY_PATH = [
  { path: /^\/api\/v1\/data-dictionaries\/([0-9a-f-]{36})(?:\/|$)/i, table: "dictionaries" },
  { path: /^\/api\/v1\/master-templates\/([0-9a-f-]{36})(?:\/|$)/i, table: "templates" },
] as const;

/**
 * The company of what the path names: a workspace's, a master dictionary's or a master template's
 * (its levels, scripts and locks too), so that filtering the log by company finds their entries.
 */
async function companyOf(db: Kysely<Database>, workspaceId: string | null, path: string): Promise<string | null> {
  if (workspaceId) return (await db.selectFrom("projects").select("company_id").where("id", "=", workspaceId).executeTakeFirst())?.company_id ?? null;
  for (const { path: pattern, table } of COMPANY_BY_PATH) {
    const id = pattern.exec(path)?.[1];
    if (id) return (await db.selectFrom(table).select("company_id").where("id", "=", id).executeTakeFirst())?.company_id ?? null;
  }
  return null;
}

async function write(db: Kysely<Database>, entry: Pending) {
  const generic: Described = {
    action: "api.write" satisfies AuditAction,
    target: `${entry.method} ${entry.route}`,
    summary: { path: entry.path, ...changes(entry) },
  };
  for (const described of entry.described.length ? entry.described : [generic]) {
    const workspaceId = described.workspaceId ?? entry.workspaceId;
    const companyId = described.companyId ?? entry.companyId ?? (await companyOf(db, workspaceId, entry.path));
    await recordAudit(db, {
      action: described.action,
      by: entry.by,
      companyId,
      workspaceId,
      target: described.target,
      summary: { ...described.summary, ...entry.extra },
      reason: described.reason ?? entry.reason,
    });
  }
}

// Registered once: inTransaction asks it for the entry of the request it runs in, if still open.
addTransactionHook(async (trx) => {
  const entry = open();
  if (!entry || (entry.deferred && !entry.claimed)) return undefined;
  await write(trx as Kysely<Database>, entry);
  return { written: () => void (entry.state = "recorded") };
});

/** The JSON body, read once: Hono keeps the parsed body for the route's validator. */
async function jsonBodyOf(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  if (!/^application\/json\b/i.test(c.req.header("content-type") ?? "")) return {};
  const body = (await c.req.json().catch(() => null)) as unknown;
  return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

/** The resource as the caller could read it before the change: its own GET, with the caller's token. */
async function readBefore(c: Context<AppEnv>, fetch: (request: Request) => Response | Promise<Response>): Promise<Record<string, unknown> | null> {
  const authorization = c.req.header("authorization");
  if (!authorization) return null;
  const url = new URL(c.req.url);
  // A DELETE's `?version=` is its stale check, not a part of what the GET reads.
  for (const key of STALE_CHECKS) url.searchParams.delete(key);
  const res = await fetch(new Request(url, { headers: { authorization, accept: "application/json" } }));
  if (res.status !== 200 || !/^application\/json/.test(res.headers.get("content-type") ?? "")) return null;
  const body = (await res.json().catch(() => null)) as unknown;
  return body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
}

const WORKSPACE_PATH = /^\/api\/v1\/(?:projects|audit-projects|mapping-projects)\/([0-9a-f-]{36})(?:\/|$)/i;
const WORKSPACE_COLLECTION = /^\/api\/v1\/(projects|audit-projects|mapping-projects)$/;

/** `fetch`: the app itself, for the GET that reads a resource before its change. */
export function auditWrites(fetch: (request: Request) => Response | Promise<Response>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if (method === "GET" || method === "HEAD" || method === "OPTIONS" || !c.var.caller) return next();
    const path = c.req.path;
    const body = await jsonBodyOf(c);
    const text = (v: unknown) => (typeof v === "string" && v.length <= 200 ? v : null);
    const entry: Pending = {
      by: c.var.caller,
      method,
      route: routePath(c, -1),
      path,
      companyId: c.req.query("companyId") ?? text(body.companyId),
      workspaceId: WORKSPACE_PATH.exec(path)?.[1] ?? null,
      fields: recordedFields(body),
      reason: text(body.reason),
      before: method === "POST" ? null : await readBefore(c, fetch).catch(() => null),
      described: [],
      deferred: false,
      claimed: false,
      extra: {},
      state: "open",
    };
    try {
      await pending.run(entry, next);
      if (entry.state === "open" && !entry.deferred && c.res.status < 400) {
        // A create's answer names what it made.
        if (!entry.workspaceId && WORKSPACE_COLLECTION.test(entry.route) && /^application\/json/.test(c.res.headers.get("content-type") ?? "")) {
          const made = (await c.res
            .clone()
            .json()
            .catch(() => null)) as { id?: unknown } | null;
          if (typeof made?.id === "string") entry.workspaceId = made.id;
        }
        entry.extra = { ...entry.extra, status: c.res.status };
        await write(c.var.deps.db, entry).catch((err: unknown) =>
          // The write happened: a failing audit insert is logged, never turned into a failed answer.
          c.var.deps.logger.error("could not record a write in the audit log", { err, path, requestId: c.var.requestId }),
        );
      }
    } finally {
      // Work the request left running (a job's steps) records nothing in its name, but the change a deferred entry waits for.
      if (!entry.deferred) entry.state = "closed";
    }
  };
}
