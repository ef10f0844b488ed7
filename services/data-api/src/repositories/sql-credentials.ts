import type { Kysely, SelectQueryBuilder } from "kysely";
import type { SqlCredentialStatus, SqlLevel } from "../../../../contracts/sql-access.ts";
import type { Database } from "../db/schema.ts";
import type { SqlCredentialsTable } from "../db/schema-sql-access.ts";
import { nameKey, sortOf, totalOf } from "./db-helpers.ts";

/**
 * SQL credentials and their permissions in the control plane (issue 13). The logins themselves live
 * on the PostgreSQL servers (data-plane/sql-logins.ts); these rows say whose they are, until when,
 * and which workspaces' databases they were granted. A credential's status is computed from its
 * rows in SQL (revoked, or past its day), so lists filter by it.
 */
export type SqlCredentialRow = SqlCredentialsTable;

export function statusOf(row: Pick<SqlCredentialRow, "revoked_at" | "expires_on">, today: string): SqlCredentialStatus {
  if (row.revoked_at) return "Revoked";
  return row.expires_on < today ? "Expired" : "Active";
}

export async function insertCredential(trx: Kysely<Database>, row: SqlCredentialRow): Promise<void> {
  await trx.insertInto("sql_credentials").values(row).execute();
}

/**
 * Whether the company has a credential for a service of this name (case-insensitively) that is not revoked:
 * two would be told apart only by their login names. A revoked one's name is free for its replacement.
 * Compared by name rather than name_key, so that services of one name made before migration 0027 (the later
 * ones keep no key) count too; a company has few credentials. The unique index on name_key decides when two
 * creates race past this. The credential `id` being made is not counted: the same form sent twice at once is
 * makeOnce's "already made".
 */
export async function serviceNameTaken(db: Kysely<Database>, companyId: string, name: string, id: string): Promise<boolean> {
  const rows = await db
    .selectFrom("sql_credentials")
    .select("name")
    .where("company_id", "=", companyId)
    .where("user_id", "is", null)
    .where("revoked_at", "is", null)
    .where("id", "!=", id)
    .execute();
  return rows.some((r) => nameKey(r.name) === nameKey(name));
}

export async function findCredential(db: Kysely<Database>, id: string): Promise<SqlCredentialRow | undefined> {
  return db.selectFrom("sql_credentials").selectAll().where("id", "=", id).executeTakeFirst();
}

type Where<O> = SelectQueryBuilder<Database, "sql_credentials", O>;
function withStatus<O>(query: Where<O>, status: SqlCredentialStatus | undefined, today: string): Where<O> {
  if (status === "Revoked") return query.where("revoked_at", "is not", null);
  if (status === "Expired") return query.where("revoked_at", "is", null).where("expires_on", "<", today);
  if (status === "Active") return query.where("revoked_at", "is", null).where("expires_on", ">=", today);
  return query;
}

const SORT_COLUMNS = { createdAt: "created_at", name: "name_sort", expiresOn: "expires_on" } as const;

export type CredentialQuery = {
  companyId: string;
  status?: SqlCredentialStatus | undefined;
  sort: `${keyof typeof SORT_COLUMNS}` | `-${keyof typeof SORT_COLUMNS}`;
  page: number;
  pageSize: number;
};

/** One company's credentials, a page sorted and filtered in SQL. */
export async function searchCredentials(db: Kysely<Database>, q: CredentialQuery, today: string) {
  const base = () => withStatus(db.selectFrom("sql_credentials").where("company_id", "=", q.companyId), q.status, today);
  const { key, direction } = sortOf(q.sort);
  const rows = await base()
    .selectAll()
    .orderBy(SORT_COLUMNS[key], direction)
    .orderBy("id", direction)
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize)
    .execute();
  const total = await totalOf(rows.length, q, () =>
    base()
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow(),
  );
  return { rows, total };
}

export type GrantedDatabase = {
  credential_id: string;
  project_id: string;
  name: string;
  product_type: string;
  database_server: string | null;
  level: Exclude<SqlLevel, "none">;
};

/** The workspaces each credential was granted, by name. */
export async function grantedDatabases(db: Kysely<Database>, credentialIds: readonly string[]): Promise<GrantedDatabase[]> {
  if (credentialIds.length === 0) return [];
  const rows = await db
    .selectFrom("sql_permissions as p")
    .innerJoin("projects as w", "w.id", "p.project_id")
    .select(["p.credential_id", "p.project_id", "w.name", "w.product_type", "w.database_server", "p.level"])
    .where("p.credential_id", "in", [...credentialIds])
    .orderBy("w.name")
    .execute();
  return rows as GrantedDatabase[];
}

/** Sets the password's time; with `was`, only if it is still that (false: rotated meanwhile). */
export async function markRotated(trx: Kysely<Database>, id: string, at: string, was?: string): Promise<boolean> {
  const result = await trx
    .updateTable("sql_credentials")
    .set({ password_set_at: at })
    .where("id", "=", id)
    .$if(was !== undefined, (q) => q.where("password_set_at", "=", was!))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Revoked, and granted no database any more (the login's grants are taken back on the servers: disableLogin). */
export async function markRevoked(trx: Kysely<Database>, id: string, at: string, by: string): Promise<void> {
  await trx.updateTable("sql_credentials").set({ revoked_at: at, revoked_by: by }).where("id", "=", id).where("revoked_at", "is", null).execute();
  await trx.deleteFrom("sql_permissions").where("credential_id", "=", id).execute();
}

/** Logins seen connected: their last use is now. */
export async function markUsed(db: Kysely<Database>, logins: readonly string[], at: string): Promise<void> {
  if (logins.length === 0) return;
  await db
    .updateTable("sql_credentials")
    .set({ last_used_at: at })
    .where("login", "in", [...logins])
    .execute();
}

/** The company's credentials that are not revoked, with each one's level in `projectId` ("none" without a row). */
export async function permissionsOf(db: Kysely<Database>, companyId: string, projectId: string) {
  const rows = await db
    .selectFrom("sql_credentials as c")
    .leftJoin("sql_permissions as p", (join) => join.onRef("p.credential_id", "=", "c.id").on("p.project_id", "=", projectId))
    .select(["c.id", "c.login", "c.name", "c.expires_on", "c.revoked_at", "p.level", "p.granted_by", "p.granted_at"])
    .where("c.company_id", "=", companyId)
    .where("c.revoked_at", "is", null)
    .orderBy("c.name_sort")
    .orderBy("c.login")
    .execute();
  return rows.map((r) => ({ ...r, level: (r.level ?? "none") as SqlLevel }));
}

/** Sets one credential's level in one workspace (no row for "none"). */
export async function setPermission(trx: Kysely<Database>, credentialId: string, projectId: string, level: SqlLevel, by: string, at: string) {
  await trx.deleteFrom("sql_permissions").where("credential_id", "=", credentialId).where("project_id", "=", projectId).execute();
  if (level !== "none") {
    await trx.insertInto("sql_permissions").values({ credential_id: credentialId, project_id: projectId, level, granted_at: at, granted_by: by }).execute();
  }
}

/**
 * A batch of the workspaces the start's sharing pass has still to do (share-login-tables.ts), after
 * `afterProjectId` in id order: those with a database server, of a company that has a credential
 * (revoked or not, at any level now: a login set back to None has no permission row, yet may own
 * what it made with Write), and not marked done (markLoginTablesShared). Each with the logins
 * granted Write, whose default privileges the pass sets. Never all workspaces at once.
 */
export async function workspacesToShareAfter(db: Kysely<Database>, afterProjectId: string, limit: number) {
  const projects = await db
    .selectFrom("projects as w")
    .select(["w.id", "w.database_server"])
    .where("w.database_server", "is not", null)
    .where("w.id", ">", afterProjectId)
    .where(({ exists, selectFrom }) => exists(selectFrom("sql_credentials as c").select("c.id").whereRef("c.company_id", "=", "w.company_id")))
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom("sql_login_tables_shared as s").select("s.project_id").whereRef("s.project_id", "=", "w.id"))),
    )
    .orderBy("w.id")
    .limit(limit)
    .execute();
  if (projects.length === 0) return [];
  const writers = await db
    .selectFrom("sql_permissions as p")
    .innerJoin("sql_credentials as c", "c.id", "p.credential_id")
    .select(["p.project_id", "c.login"])
    .where("p.level", "=", "write")
    .where(
      "p.project_id",
      "in",
      projects.map((p) => p.id),
    )
    .execute();
  return projects.map((p) => ({
    projectId: p.id,
    serverId: p.database_server!,
    writeLogins: writers.filter((w) => w.project_id === p.id).map((w) => w.login),
  }));
}

/** The start's sharing pass is done with the workspace's database: later starts skip it. */
export async function markLoginTablesShared(db: Kysely<Database>, projectId: string, at: Date): Promise<void> {
  await db
    .insertInto("sql_login_tables_shared")
    .values({ project_id: projectId, shared_at: at.toISOString() })
    .onConflict((oc) => oc.column("project_id").doNothing())
    .execute();
}
