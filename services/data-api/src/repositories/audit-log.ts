import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { AuditAction, AuditEntry } from "../../../../contracts/sql-access.ts";
import type { Database } from "../db/schema.ts";
import type { AuditLogTable } from "../db/schema-sql-access.ts";
import { textContains, totalOf } from "./db-helpers.ts";

/**
 * The audit log (issue 13): append-only. A write records its entry with `recordAudit` on the same
 * transaction (`trx`), so an entry exists exactly when its change does. Summaries say what changed
 * (before/after of the fields a user reads); never a password, a token or a file's content.
 */
export type AuditRecord = {
  action: AuditAction;
  /** Who: the caller (its id and display name). */
  by: { userId: string; name: string | null };
  companyId: string | null;
  workspaceId?: string | null;
  target: string;
  summary: Record<string, unknown>;
  reason?: string | null;
  now?: Date;
};

export async function recordAudit(trx: Kysely<Database>, entry: AuditRecord): Promise<void> {
  await trx
    .insertInto("audit_log")
    .values({
      id: randomUUID(),
      at: (entry.now ?? new Date()).toISOString(),
      company_id: entry.companyId,
      workspace_id: entry.workspaceId ?? null,
      user_id: entry.by.userId,
      user_name: entry.by.name,
      action: entry.action,
      target: entry.target,
      summary: JSON.stringify(entry.summary),
      reason: entry.reason ?? null,
    })
    .execute();
}

export type AuditQuery = {
  companyId?: string | undefined;
  userId?: string | undefined;
  who?: string | undefined;
  action?: AuditAction | undefined;
  /** YYYY-MM-DD, inclusive, UTC. */
  from?: string | undefined;
  to?: string | undefined;
  contains?: string | undefined;
  /** A workspace (project, configuration, mapping project): its id, or part of its name. */
  workspace?: string | undefined;
  page: number;
  pageSize: number;
};

/** The entries with the workspace each names (gone once the workspace is deleted: no name then). */
const withWorkspace = (db: Kysely<Database>) => db.selectFrom("audit_log").leftJoin("projects", "projects.id", "audit_log.workspace_id");

function filtered(db: Kysely<Database>, q: Omit<AuditQuery, "page" | "pageSize">) {
  let query = withWorkspace(db);
  if (q.companyId) query = query.where("audit_log.company_id", "=", q.companyId);
  if (q.userId) query = query.where("audit_log.user_id", "=", q.userId);
  // The page shows names, not ids: "who" is either, a name by any part of it.
  const who = q.who?.trim();
  if (who) query = query.where((eb) => eb.or([eb("audit_log.user_id", "=", who), textContains("audit_log.user_name", who)]));
  // …and so is the workspace: a support person asked about "Payroll" types its name.
  const workspace = q.workspace?.trim();
  if (workspace) query = query.where((eb) => eb.or([eb("audit_log.workspace_id", "=", workspace), textContains("projects.name", workspace)]));
  if (q.action) query = query.where("audit_log.action", "=", q.action);
  // ISO timestamps compare as text: the day's start, and the next day's start (exclusive).
  if (q.from) query = query.where("audit_log.at", ">=", `${q.from}T00:00:00.000Z`);
  if (q.to) query = query.where("audit_log.at", "<", new Date(Date.parse(`${q.to}T00:00:00Z`) + 86_400_000).toISOString());
  // A generic entry's target is its route (…/projects/:id/…): the path with the real ids is in its summary.
  const contains = q.contains?.trim();
  if (contains) query = query.where((eb) => eb.or([textContains("audit_log.target", contains), textContains("audit_log.summary", contains)]));
  return query;
}

const entryColumns = ["projects.name as workspace_name", "projects.product_type as workspace_type"] as const;

type AuditRow = AuditLogTable & { workspace_name: string | null; workspace_type: string | null };

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at,
    companyId: row.company_id,
    workspaceId: row.workspace_id,
    workspace:
      row.workspace_id && row.workspace_name ? { id: row.workspace_id, name: row.workspace_name, productType: row.workspace_type ?? "Migration" } : null,
    userId: row.user_id,
    userName: row.user_name,
    action: row.action as AuditAction,
    target: row.target,
    summary: JSON.parse(row.summary) as Record<string, unknown>,
    reason: row.reason,
  };
}

/** A page of entries, newest first, filtered in SQL. */
export async function searchAudit(db: Kysely<Database>, q: AuditQuery) {
  const rows = await filtered(db, q)
    .selectAll("audit_log")
    .select(entryColumns)
    .orderBy("audit_log.at", "desc")
    .orderBy("audit_log.id", "desc")
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize)
    .execute();
  const total = await totalOf(rows.length, q, () =>
    filtered(db, q)
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow(),
  );
  return { items: rows.map(toEntry), total, page: q.page, pageSize: q.pageSize };
}

/** Every matching entry, newest first, a batch at a time (the CSV export streams them). */
export async function* auditBatches(db: Kysely<Database>, q: Omit<AuditQuery, "page" | "pageSize">, batch = 1000): AsyncGenerator<AuditEntry[]> {
  let after: { at: string; id: string } | undefined;
  for (;;) {
    let query = filtered(db, q).selectAll("audit_log").select(entryColumns);
    if (after) {
      const { at, id } = after;
      query = query.where((eb) => eb.or([eb("audit_log.at", "<", at), eb.and([eb("audit_log.at", "=", at), eb("audit_log.id", "<", id)])]));
    }
    const rows = await query.orderBy("audit_log.at", "desc").orderBy("audit_log.id", "desc").limit(batch).execute();
    if (rows.length === 0) return;
    yield rows.map(toEntry);
    if (rows.length < batch) return;
    const last = rows[rows.length - 1]!;
    after = { at: last.at, id: last.id };
  }
}

/** Entries older than `days` go (AUDIT_RETENTION_DAYS); answers how many. */
export async function pruneAudit(db: Kysely<Database>, days: number, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - days * 86_400_000).toISOString();
  const result = await db.deleteFrom("audit_log").where("at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
