/**
 * A project's own PostgreSQL database (ARCHITECTURE.md §3a): named from its id, on the server the
 * project records, with two schemas, `source` (the legacy data as loaded) and `destination` (what the
 * scripts produce), one table per dictionary table in each. It has three roles of its own, none of
 * which can log in: the owner (of both schemas and every table), a reader and a writer (what SQL
 * credentials are granted later). `CONNECT` is revoked from PUBLIC, so a login that was not granted
 * one of a project's roles cannot even connect to its database. Only this module knows the names.
 *
 * Work on the project's data (loads, comparisons, scripts) runs on connections that log in as the
 * project's runner: a login that is a member of the owner and nothing else, whose password the data
 * API derives from its secret (servers.ts). Not `SET ROLE` on an administrative connection: the
 * session user would still be the administrator, and any statement could `RESET ROLE` back to it.
 */
import type { Kysely } from "kysely";
import type pg from "pg";
import type { Database } from "../db/schema.ts";
import { PROJECT_DATABASE_KINDS, type DatabaseTableSort, type ProjectDatabaseKind } from "../../../../contracts/values/configurations.ts";
import { createTableStatement, quoteIdentifier, type DdlTable } from "./postgres-ddl.ts";
import type { DataPlane } from "./servers.ts";

/** Ids come from us (UUIDs), but names are built from them: refuse anything else. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The database of a project: `dt_` and its id's hex digits (35 characters; PostgreSQL allows 63). */
export function databaseNameOf(projectId: string): string {
  if (!UUID.test(projectId)) throw new Error(`Not a project id: ${projectId}`);
  return `dt_${projectId.replaceAll("-", "").toLowerCase()}`;
}

/** The connection URL of the project's runner: for a worker thread that does the project's work on a connection of its own. */
export function runnerUrl(dataPlane: DataPlane, serverId: string, projectId: string): string {
  return dataPlane.loginUrl(serverId, databaseNameOf(projectId), rolesOf(projectId).runner);
}

/** The project's roles (none can log in) and its runner (the data API's login for the project's work). */
export function rolesOf(projectId: string) {
  const database = databaseNameOf(projectId);
  return { owner: `${database}_owner`, reader: `${database}_reader`, writer: `${database}_writer`, runner: `${database}_runner` };
}

/** What begins the name of every SQL credential's login (sql-logins.ts), unlike a project's roles (`dt_…`). */
export const CREDENTIAL_LOGIN_PREFIX = "dtc_";

/** Connections the data API holds per project: a load, a comparison and a page reading at once. */
const RUNNER_CONNECTION_LIMIT = 8;

/** The server with the fewest projects: where a new project's database goes. */
export async function chooseServer(db: Kysely<Database>, dataPlane: DataPlane): Promise<string> {
  const counts = await db
    .selectFrom("projects")
    .select(["database_server", (eb) => eb.fn.countAll<number | string>().as("n")])
    .where("database_server", "is not", null)
    .groupBy("database_server")
    .execute();
  const held = new Map(counts.map((c) => [c.database_server, Number(c.n)]));
  return [...dataPlane.servers].sort((a, b) => (held.get(a.id) ?? 0) - (held.get(b.id) ?? 0))[0]!.id;
}

/**
 * Makes the project's database and roles, empty: whatever a previous attempt left is dropped first,
 * so a retry starts clean. The database and the schemas each come in a step of their own
 * (createProjectSchema); a failure in any of them is undone by dropProjectDatabase.
 */
export async function createProjectDatabase(dataPlane: DataPlane, serverId: string, projectId: string): Promise<void> {
  await dropProjectDatabase(dataPlane, serverId, projectId);
  const database = databaseNameOf(projectId);
  const roles = rolesOf(projectId);
  const q = quoteIdentifier;
  await dataPlane.withAdmin(serverId, null, async (admin) => {
    // Roles are global to the server; made in one transaction: all three or none.
    await inTransaction(admin, async () => {
      for (const role of [roles.owner, roles.reader, roles.writer]) await admin.query(`CREATE ROLE ${q(role)} NOLOGIN`);
      await admin.query(`GRANT ${q(roles.reader)} TO ${q(roles.writer)}`);
      await admin.query(
        `CREATE ROLE ${q(roles.runner)} LOGIN INHERIT CONNECTION LIMIT ${RUNNER_CONNECTION_LIMIT} PASSWORD ${admin.escapeLiteral(dataPlane.passwordOf(roles.runner))} IN ROLE ${q(roles.owner)}`,
      );
      // The administrative login makes the tables in the owner's name (SET ROLE in createProjectSchema),
      // and may end the runner's sessions and cancel its statements (a run's Cancel, the drop), which a
      // login that is not a superuser may only for a role it is a member of (a managed server's admin).
      await admin.query(`GRANT ${q(roles.owner)}, ${q(roles.runner)} TO CURRENT_USER`);
    });
    // CREATE DATABASE cannot run in a transaction: a failure after it is undone by the drop. The
    // administrative login owns the database, the project's owner only its schemas: without CREATE
    // on the database, work as the owner can make no schema and no extension, not even a trusted one.
    await admin.query(`CREATE DATABASE ${q(database)} ENCODING 'UTF8' TEMPLATE template0`);
    await admin.query(`REVOKE ALL ON DATABASE ${q(database)} FROM PUBLIC`);
    await admin.query(`GRANT CONNECT ON DATABASE ${q(database)} TO ${q(roles.runner)}, ${q(roles.reader)}, ${q(roles.writer)}`);
    // Loads stage their rows in temporary tables.
    await admin.query(`GRANT TEMPORARY ON DATABASE ${q(database)} TO ${q(roles.runner)}`);
  });
  await dataPlane.withAdmin(serverId, database, (admin) =>
    inTransaction(admin, async () => {
      // Only `source` and `destination`: nobody creates tables anywhere else.
      await admin.query("DROP SCHEMA IF EXISTS public CASCADE");
      // Functions are callable by PUBLIC by default; a project's are for its own roles only.
      await admin.query(`ALTER DEFAULT PRIVILEGES FOR ROLE ${q(roles.owner)} REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC`);
    }),
  );
}

/**
 * One schema of the project's database with one table per dictionary table, in one transaction as
 * the project's owner. The reader may read it; the writer may also change rows and, in
 * `destination`, create tables.
 */
export async function createProjectSchema(
  dataPlane: DataPlane,
  serverId: string,
  projectId: string,
  kind: ProjectDatabaseKind,
  tables: readonly DdlTable[],
): Promise<void> {
  const roles = rolesOf(projectId);
  const q = quoteIdentifier;
  await dataPlane.withAdmin(serverId, databaseNameOf(projectId), (client) =>
    inTransaction(client, async () => {
      await client.query(`CREATE SCHEMA ${q(kind)} AUTHORIZATION ${q(roles.owner)}`);
      await client.query(`SET LOCAL ROLE ${q(roles.owner)}`);
      for (const table of tables) await client.query(createTableStatement(kind, table));
      await client.query(`GRANT USAGE ON SCHEMA ${q(kind)} TO ${q(roles.reader)}`);
      await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${q(kind)} TO ${q(roles.reader)}`);
      await client.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${q(kind)} GRANT SELECT ON TABLES TO ${q(roles.reader)}`);
      if (kind === "destination") {
        await client.query(`GRANT CREATE ON SCHEMA ${q(kind)} TO ${q(roles.writer)}`);
        await client.query(`GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${q(kind)} TO ${q(roles.writer)}`);
        await client.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${q(kind)} GRANT INSERT, UPDATE, DELETE ON TABLES TO ${q(roles.writer)}`);
      }
    }),
  );
}

/**
 * Runs `work` in one transaction on the project's database, logged in as its runner (with the
 * owner's rights, nothing more): a load, a comparison or a script can reach nothing the project does
 * not own. Rolled back when `work` throws.
 */
export async function asProjectOwner<T>(dataPlane: DataPlane, serverId: string, projectId: string, work: (client: pg.ClientBase) => Promise<T>): Promise<T> {
  return dataPlane.withLogin(serverId, databaseNameOf(projectId), rolesOf(projectId).runner, (client) =>
    inTransaction(client, async () => {
      await client.query("SET LOCAL search_path = source, destination");
      return work(client);
    }),
  );
}

/** Stops the statement a session of the project's runner is running (a run's Cancel), from an administrative connection. */
export async function cancelStatement(dataPlane: DataPlane, serverId: string, projectId: string, pid: number): Promise<void> {
  await dataPlane.withAdmin(serverId, null, async (admin) => {
    await takeMembership(admin, rolesOf(projectId).runner);
    await admin.query("select pg_cancel_backend($1)", [pid]);
  });
}

/**
 * The administrative login becomes a member of `login` (a project's runner, a credential's login): a
 * login that is not a superuser (a managed server's admin) may end or cancel only the sessions of roles
 * it is a member of. Logins are given it as they are made; one made before that rule gets it here, when
 * it is first needed. Granted again, it changes nothing.
 */
export async function takeMembership(admin: pg.ClientBase, login: string): Promise<void> {
  await admin.query(`GRANT ${quoteIdentifier(login)} TO CURRENT_USER`);
}

/** Drops the project's database (ending its sessions) and its roles; nothing to drop is not an error. */
export async function dropProjectDatabase(dataPlane: DataPlane, serverId: string, projectId: string): Promise<void> {
  const database = databaseNameOf(projectId);
  const roles = rolesOf(projectId);
  await dataPlane.closePools(database);
  await dataPlane.withAdmin(serverId, null, async (admin) => {
    await dropDatabase(admin, database, roles.runner);
    // Grants to logins (SQL credentials) go with the roles; the database's objects are gone already.
    for (const role of [roles.runner, roles.writer, roles.reader, roles.owner]) await admin.query(`DROP ROLE IF EXISTS ${quoteIdentifier(role)}`);
  });
}

/**
 * DROP DATABASE … WITH (FORCE) ends the database's sessions, but refuses a login that is not a
 * superuser (a managed server's admin) whenever autovacuum is at work in the database: its worker
 * belongs to no role the login is a member of. So: no new session, the sessions of the project's runner
 * and of SQL logins ended (the administrative login takes their membership), then a plain DROP,
 * which stops autovacuum itself and waits for the ended sessions to go. A session of anyone else (a
 * DBA at work in it) fails the drop after PostgreSQL's 5 s, and the database takes sessions again.
 */
async function dropDatabase(admin: pg.ClientBase, database: string, runner: string): Promise<void> {
  if (!(await hasDatabase(admin, database))) return;
  const q = quoteIdentifier(database);
  await admin.query(`ALTER DATABASE ${q} WITH ALLOW_CONNECTIONS false`);
  try {
    // The product's own logins with a session there (the runner's, a credential's): one made before the rule of takeMembership.
    const { rows } = await admin.query<{ login: string }>(
      "select distinct usename as login from pg_stat_activity where datname = $1 and (usename = $2 or starts_with(usename, $3))",
      [database, runner, CREDENTIAL_LOGIN_PREFIX],
    );
    for (const { login } of rows) await takeMembership(admin, login);
    await admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() and pg_has_role(usesysid, 'USAGE')",
      [database],
    );
    await admin.query(`DROP DATABASE ${q}`);
  } catch (err) {
    await admin.query(`ALTER DATABASE ${q} WITH ALLOW_CONNECTIONS true`).catch(() => undefined);
    throw err;
  }
}

/**
 * Drops the database a project records, if any, and forgets where it was: what a failed creation
 * leaves (its clean-up, or the recovery after a killed process). The next attempt chooses a server again.
 */
export async function forgetProjectDatabase(db: Kysely<Database>, dataPlane: DataPlane, projectId: string): Promise<boolean> {
  const project = await db.selectFrom("projects").select("database_server").where("id", "=", projectId).executeTakeFirst();
  if (!project?.database_server) return false;
  await dropProjectDatabase(dataPlane, project.database_server, projectId);
  await db.updateTable("projects").set({ database_server: null }).where("id", "=", projectId).where("database_server", "=", project.database_server).execute();
  return true;
}

/** `rowCountEstimated`: the table has more rows than are counted one by one, and `rowCount` is PostgreSQL's estimate. */
export type DatabaseTableSummary = { name: string; columnCount: number; rowCount: number; rowCountEstimated: boolean; bytes: number };

/**
 * Rows counted exactly, at most: beyond, a table's count is PostgreSQL's estimate (pg_class.reltuples,
 * kept by autovacuum's ANALYZE), so a page listing tables of tens of millions of rows answers in
 * milliseconds rather than scanning each one.
 */
export const EXACT_ROW_COUNT_UP_TO = 1_000_000;
export type DatabaseSummary = { kind: ProjectDatabaseKind; exists: boolean; tableCount: number; tables: DatabaseTableSummary[] };

export type DatabasesQuery = {
  /** Name contains, any case. */
  table?: string | undefined;
  /** One database only; both by default. */
  database?: ProjectDatabaseKind | undefined;
  /** A page of each database's tables: never all of them, which may be thousands. */
  page?: number | undefined;
  pageSize: number;
  sort?: DatabaseTableSort | undefined;
  /** Rows counted exactly at most per table; 0 counts no table: every count is PostgreSQL's estimate. */
  exactUpTo?: number | undefined;
};

/**
 * PostgreSQL's estimate of a table's rows (pg_class.reltuples, kept by ANALYZE); for a table not analyzed
 * since it was filled (-1: a load that replaced its rows truncated it, a restore made it anew), the live
 * rows its statistics count at each commit, so a table of millions just loaded does not read as
 * "about" the rows counted one by one (1,000,001) until autovacuum analyzes it.
 */
const ESTIMATED_ROWS = "(case when c.reltuples < 0 then pg_stat_get_live_tuples(c.oid) else c.reltuples end)::bigint";

/** The tables of the schemas named by $1 (text[]) whose name contains $2 (any case, or null for all). */
const LISTED_TABLES = `c.relkind in ('r', 'p') and c.relnamespace::regnamespace::text = any($1::text[]) and ($2::text is null or strpos(lower(c.relname), $2) > 0)`;

/** Each sort's ORDER BY, ties broken by name so pages never overlap. */
const TABLE_ORDER: Record<DatabaseTableSort, string> = {
  name: "lower(c.relname), c.relname",
  "-name": "lower(c.relname) desc, c.relname desc",
  size: "pg_total_relation_size(c.oid), lower(c.relname), c.relname",
  "-size": "pg_total_relation_size(c.oid) desc, lower(c.relname), c.relname",
};

/**
 * What a project's databases hold right now (the databases pages): for each of source and destination
 * whether it exists, how many tables match, and a page of them, filtered, sorted and paged in SQL, with
 * their column and row counts. Only the page's tables are counted (`exactUpTo` rows at most each, then
 * PostgreSQL's estimate), so the page costs the same for 10 tables or 1,500. Read as the project's
 * owner; changes nothing.
 */
export async function describeProjectDatabases(
  db: Kysely<Database>,
  dataPlane: DataPlane,
  projectId: string,
  query: DatabasesQuery,
): Promise<DatabaseSummary[]> {
  const kinds = query.database ? [query.database] : PROJECT_DATABASE_KINDS;
  const exactUpTo = query.exactUpTo ?? EXACT_ROW_COUNT_UP_TO;
  const missing = () => kinds.map((kind) => ({ kind, exists: false, tableCount: 0, tables: [] }));
  const project = await db.selectFrom("projects").select("database_server").where("id", "=", projectId).executeTakeFirst();
  const serverId = project?.database_server;
  if (!serverId || !(await databaseExists(dataPlane, serverId, projectId))) return missing();
  const contains = query.table?.trim().toLowerCase() || undefined;
  const offset = ((query.page ?? 1) - 1) * query.pageSize;
  return asProjectOwner(dataPlane, serverId, projectId, async (client) => {
    const { rows: schemas } = await client.query<{ name: string }>("select nspname as name from pg_namespace where nspname = any($1::text[])", [kinds]);
    // `readable`: a table the project's roles may not read (made by hand under another role) is listed
    // with PostgreSQL's estimate rather than failing the whole answer. `total`: every match of its
    // database, whichever page is asked.
    const { rows: tables } = await client.query<{
      schema: ProjectDatabaseKind;
      name: string;
      column_count: string;
      bytes: string;
      estimate: string;
      readable: boolean;
      total: string;
    }>(
      `select t.schema, t.name, t.total, pg_total_relation_size(t.oid) as bytes, t.estimate, has_table_privilege(t.oid, 'SELECT') as readable,
              (select count(*) from pg_attribute a where a.attrelid = t.oid and a.attnum > 0 and not a.attisdropped) as column_count
         from (select c.oid, c.relnamespace::regnamespace::text as schema, c.relname as name, ${ESTIMATED_ROWS} as estimate,
                      row_number() over (partition by c.relnamespace order by ${TABLE_ORDER[query.sort ?? "name"]}) as position,
                      count(*) over (partition by c.relnamespace) as total
                 from pg_class c
                where ${LISTED_TABLES}) t
        where t.position > $3 and t.position <= $3 + $4::int
        order by t.schema, t.position`,
      [kinds, contains ?? null, offset, query.pageSize],
    );
    const summaries: DatabaseSummary[] = [];
    for (const kind of kinds) {
      const own = [];
      let tableCount = 0;
      for (const t of tables.filter((t) => t.schema === kind)) {
        tableCount = Number(t.total);
        const counting = exactUpTo > 0 && t.readable;
        const counted = counting ? await countRowsUpTo(client, `${quoteIdentifier(kind)}.${quoteIdentifier(t.name)}`, exactUpTo + 1) : 0;
        // Past the limit, the estimate (never less than what was counted: a table not analyzed yet says -1).
        const estimated = !counting || counted > exactUpTo;
        const rowCount = estimated ? Math.max(Number(t.estimate), counted) : counted;
        own.push({ name: t.name, columnCount: Number(t.column_count), rowCount, rowCountEstimated: estimated, bytes: Number(t.bytes) });
      }
      if (own.length === 0 && offset > 0) tableCount = await countTables(client, kind, contains);
      summaries.push({ kind, exists: schemas.some((s) => s.name === kind), tableCount, tables: own });
    }
    return summaries;
  });
}

/** The tables matching `contains` in one schema: for a page past the last, which has no row to say it. */
async function countTables(client: pg.ClientBase, kind: ProjectDatabaseKind, contains: string | undefined): Promise<number> {
  const { rows } = await client.query<{ n: string }>(`select count(*) as n from pg_class c where ${LISTED_TABLES}`, [[kind], contains ?? null]);
  return Number(rows[0]!.n);
}

/** The table's rows, read no further than `limit`. */
async function countRowsUpTo(client: pg.ClientBase, table: string, limit: number): Promise<number> {
  const { rows } = await client.query<{ n: string }>(`select count(*) as n from (select from ${table} limit ${limit}) s`);
  return Number(rows[0]!.n);
}

export async function databaseExists(dataPlane: DataPlane, serverId: string, projectId: string): Promise<boolean> {
  return dataPlane.withAdmin(serverId, null, (admin) => hasDatabase(admin, databaseNameOf(projectId)));
}

async function hasDatabase(admin: pg.ClientBase, database: string): Promise<boolean> {
  const { rowCount } = await admin.query("select 1 from pg_database where datname = $1", [database]);
  return rowCount === 1;
}

/** Runs `work` between BEGIN and COMMIT, rolling back when it throws. */
export async function inTransaction<T>(client: pg.ClientBase, work: () => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    const result = await work();
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  }
}

export type RowsQuery = { page: number; pageSize: number; sort?: string | undefined; column?: string | undefined; contains?: string | undefined };

/**
 * A page of one table's rows, read as the project's runner: values as PostgreSQL writes them (text,
 * so leading zeros and exact decimals show as stored), sorted by a column of the table as its type orders it and filtered
 * by "column contains" (or "any column contains") in SQL. Undefined when the table is not there; a sort or filter naming no
 * column of the table is ignored rather than refused (an old link).
 *
 * Read so that a table of millions of rows answers a page in a fraction of a second (the data page of a
 * 1,000,000-row table took 1–4 s): the sort picks the page's rows by their place in the table (`ctid`)
 * alone, narrow rows, and only those 25 are written as text; ties of the sort are broken by that place,
 * so that pages neither repeat nor skip a row; and a page in the second half of the rows is read from the
 * end (the order reversed, the offset from the end), so the last page costs what the first does.
 */
export async function readTableRows(dataPlane: DataPlane, serverId: string, projectId: string, kind: ProjectDatabaseKind, table: string, query: RowsQuery) {
  return asProjectOwner(dataPlane, serverId, projectId, async (client) => {
    // The count and the page see the same rows (a page read from the end counts from the count).
    await client.query("set transaction isolation level repeatable read, read only");
    const { rows: columns } = await client.query<{ name: string; type: string; partitioned: boolean }>(
      `select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, c.relkind = 'p' as partitioned
         from pg_attribute a join pg_class c on c.oid = a.attrelid
        where c.relnamespace = $1::regnamespace and c.relname = $2 and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
        order by a.attnum`,
      [kind, table],
    );
    if (columns.length === 0) return undefined;
    const names = new Set(columns.map((c) => c.name));
    const descending = query.sort?.startsWith("-") ?? false;
    const sortName = query.sort?.replace(/^-/, "");
    const sortBy = sortName && names.has(sortName) ? sortName : columns[0]!.name;
    // Without a column (the page's "Any column"), a row any of whose columns contains the text; so too for a column the
    // table lacks (a filter kept from another table, an old link): never the filter dropped, every row shown as if it matched.
    const column = query.column && names.has(query.column) ? query.column : null;
    const searched = column ? [column] : [...names];
    const contains = query.contains || undefined;
    const from = `${quoteIdentifier(kind)}.${quoteIdentifier(table)}`;
    const where = contains ? `where ${searched.map((name) => `strpos(lower(${quoteIdentifier(name)}::text), lower($1)) > 0`).join(" or ")}` : "";
    const params = contains ? [contains] : [];
    const { rows: count } = await client.query<{ n: string }>(`select count(*) as n from ${from} ${where}`, params);
    const total = Number(count[0]!.n);
    const offset = (query.page - 1) * query.pageSize;
    const page = { table, columns: columns.map(({ name, type }) => ({ name, type })), total, page: query.page, pageSize: query.pageSize, column };
    const sort = `${descending ? "-" : ""}${sortBy}`;
    if (offset >= total) return { ...page, items: [] as (string | null)[][], sort };
    // Sorted by the stored column, qualified: a bare name in ORDER BY is the select list's text of it (10 before 2).
    // A partitioned table's rows are not told apart by their place alone: it is read as it always was.
    const tie = columns[0]!.partitioned ? "" : "ctid";
    const order = (reversed: boolean) => {
      const down = descending !== reversed;
      const key = `${from}.${quoteIdentifier(sortBy)} ${down ? "desc nulls first" : "asc nulls last"}`;
      return tie ? `${key}, ${from}.${tie} ${reversed ? "desc" : "asc"}` : key;
    };
    const list = columns.map((c) => `${quoteIdentifier(c.name)}::text`).join(", ");
    // From the end when the page is nearer to it: the same rows, read through the reversed order.
    const fromEnd = tie !== "" && offset + query.pageSize / 2 > total / 2;
    const limit = fromEnd ? Math.min(query.pageSize, total - offset) : query.pageSize;
    const skip = fromEnd ? total - offset - limit : offset;
    const text = tie
      ? `select ${list} from ${from} where ctid = any(array(select ctid from ${from} ${where} order by ${order(fromEnd)} limit ${limit} offset ${skip})) order by ${order(false)}`
      : `select ${list} from ${from} ${where} order by ${order(false)} limit ${limit} offset ${skip}`;
    const { rows } = await client.query({ text, values: params, rowMode: "array" });
    return { ...page, items: rows as (string | null)[][], sort };
  });
}
