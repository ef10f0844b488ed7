import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { createLogger, type Logger } from "./logger.ts";
import { openSqlite, sqliteFileOf, withStatementCache } from "./sqlite.ts";

export type DatabaseKind = "sqlite" | "postgres";

export function databaseKind(url: string): DatabaseKind {
  return /^postgres(ql)?:\/\//i.test(url) ? "postgres" : "sqlite";
}

/**
 * One Kysely over either engine: a `postgres://` URL means PostgreSQL, anything else is a SQLite
 * file path (or `:memory:`), optionally written `sqlite:<path>`.
 */
export function createKysely<DB>(url: string, logger: Logger = createLogger("db")): Kysely<DB> {
  if (databaseKind(url) === "postgres") {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle connection dropped by the server (a restart, a failover, an admin) emits 'error' on the
    // pool; unhandled, it would take the whole process down. The pool replaces the connection.
    pool.on("error", (err) => logger.warn("a pooled PostgreSQL connection failed; it will be replaced", { err }));
    return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  }
  return new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(openSqlite(sqliteFileOf(url))) }) });
}
