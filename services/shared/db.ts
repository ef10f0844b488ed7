import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from "kysely";
import pg from "pg";
import { createLogger, type Logger } from "./logger.ts";

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
  const file = url.replace(/^sqlite:(\/\/)?/, "");
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  return new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

/** How many prepared statements one SQLite connection keeps: every query shape of the app, with room. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query again (`db.prepare(sql)`), which costs about as much
 * as running a small one: statements are kept by their SQL text instead, the least recently used
 * going first past the bound. Safe because Kysely runs one query at a time on the one connection
 * (its mutex holds it for a whole stream or transaction), and SQLite re-prepares a kept statement
 * itself after a schema change.
 */
function withStatementCache(sqlite: Database.Database): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    prepare(sql) {
      let statement = statements.get(sql);
      if (statement) statements.delete(sql);
      else statement = sqlite.prepare(sql);
      statements.set(sql, statement);
      if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      return statement;
    },
    close: () => sqlite.close(),
  };
}
