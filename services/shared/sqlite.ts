/**
 * Opening a SQLite file the way every connection of the services does (createKysely, and the data
 * API's progress connection, db/progress-db.ts), and the cache of prepared statements they share.
 * Apart from db.ts so a worker thread opens SQLite without loading PostgreSQL's client.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { SqliteDatabase, SqliteStatement } from "kysely";

/** The file of a SQLite URL: a path (or `:memory:`), optionally written `sqlite:<path>`. */
export function sqliteFileOf(url: string): string {
  return url.replace(/^sqlite:(\/\/)?/, "");
}

/** A connection to `file` (its folder made first), in WAL mode, foreign keys on, waiting 5 s for a lock. */
export function openSqlite(file: string): Database.Database {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  return sqlite;
}

/** How many prepared statements one SQLite connection keeps: every query shape of the app, with room. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query again (`db.prepare(sql)`), which costs about as much
 * as running a small one: statements are kept by their SQL text instead, the least recently used
 * going first past the bound. Safe because Kysely runs one query at a time on the one connection
 * (its mutex holds it for a whole stream or transaction), and SQLite re-prepares a kept statement
 * itself after a schema change. A schema change through this connection (the migrations) also
 * drops every kept statement, whose column names (rowsBuiltInJs) it may have changed.
 */
export function withStatementCache(sqlite: Database.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    prepare(sql) {
      let statement = statements.get(sql);
      if (statement) statements.delete(sql);
      else statement = rowsBuiltInJs(sqlite.prepare(sql));
      if (!statement.reader && SCHEMA_CHANGE.test(sql)) statements.clear();
      statements.set(sql, statement);
      if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      return statement;
    },
    close: () => sqlite.close(),
  };
}

const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

/**
 * A reading statement whose rows are read as arrays and made into objects here: better-sqlite3
 * builds each row object in C++ one property at a time, which costs more than reading the values
 * (a 25-row page of 18 columns: about a third of the query's CPU). The objects are the same: a
 * key per column name in column order, the last of two equal names winning. The names are read
 * once per statement (reading them costs as much as the saving); a schema change through this
 * connection drops the statement (withStatementCache), and a row of another width (a column added
 * or dropped by another connection) reads them again.
 */
function rowsBuiltInJs(statement: Database.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  let names = columnNames(statement);
  statement.raw(true);
  const toObject = (values: unknown[]) => {
    if (values.length !== names.length) names = columnNames(statement);
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
    return row;
  };
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(toObject),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>) yield toObject(values);
    },
  };
}

function columnNames(statement: Database.Statement): string[] {
  return statement.columns().map((column) => column.name);
}
