/**
 * A client's SQLite export as restore input (issue 10): its tables matched to the dictionary's by name
 * (any case), their columns too, each streamed as PostgreSQL CSV in batches. better-sqlite3 is
 * synchronous: a batch at a time, then the event loop gets its turn, so a big table never blocks the
 * service nor sits in memory.
 */
import fs from "node:fs";
import Database from "better-sqlite3";
import { answerOf, startWorker } from "../../worker-entry.ts";
import type { DdlTable } from "../postgres-ddl.ts";
import { RestoreInputProblem, type TableInput } from "./table-input.ts";

export type SqliteExportPlan = {
  tables: { sqliteTable: string; table: string; columns: { sqlite: string; column: string }[]; rows: number }[];
  leftOutTables: string[];
  leftOutColumns: { table: string; column: string }[];
  emptyTables: string[];
};

const HEADER = Buffer.from("SQLite format 3\0", "latin1");
const NOT_SQLITE = "This file is not a SQLite database.";
/**
 * A SQLite file that cannot be read whole (cut short in its upload or its copy, or damaged), in the
 * product's words: SQLite's own (its integrity check lists every page it cannot account for) say
 * nothing a user can act on.
 */
export const SQLITE_DAMAGED_MESSAGE =
  "The SQLite database is damaged or incomplete: it cannot be read whole. Export it again, or copy it again whole, and restore that.";

function open(filePath: string): Database.Database {
  const head = Buffer.alloc(HEADER.length);
  const fd = fs.openSync(filePath, "r");
  try {
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (!head.equals(HEADER)) throw new RestoreInputProblem(NOT_SQLITE);
  try {
    return new Database(filePath, { readonly: true, fileMustExist: true });
  } catch {
    throw new RestoreInputProblem(NOT_SQLITE);
  }
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

export type SqliteInspectRequest = { filePath: string; dictionary: readonly DdlTable[] };
export type SqliteInspectMessage = { kind: "plan"; plan: SqliteExportPlan } | { kind: "refused"; message: string } | { kind: "crash"; message: string };

/** better-sqlite3 reads the file outside the JavaScript heap: the worker's own stays small. */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

/**
 * inspectSqliteExport on a worker thread (sqlite-inspect-worker.ts): a refusal is the same
 * RestoreInputProblem, anything else an error here, never the data API's crash.
 */
export function inspectSqliteExportInWorker(filePath: string, dictionary: readonly DdlTable[]): Promise<SqliteExportPlan> {
  const worker = startWorker(
    { source: new URL("./sqlite-inspect-worker.ts", import.meta.url), bundle: "sqlite-inspect-worker" },
    { workerData: { filePath, dictionary } satisfies SqliteInspectRequest, resourceLimits: WORKER_LIMITS },
  );
  return answerOf<SqliteInspectMessage, SqliteExportPlan>(worker, "The SQLite export could not be checked", (message) =>
    message.kind === "plan"
      ? message.plan
      : message.kind === "refused"
        ? new RestoreInputProblem(message.message)
        : new Error(`The SQLite export could not be checked: ${message.message.split("\n")[0]}`),
  );
}

/** Opens the export read-only, checks it, and matches its tables and columns to the dictionary's. */
export function inspectSqliteExport(filePath: string, dictionary: readonly DdlTable[]): SqliteExportPlan {
  const db = open(filePath);
  try {
    let names: string[];
    try {
      const check = db.pragma("quick_check", { simple: true });
      if (check !== "ok") throw new RestoreInputProblem(SQLITE_DAMAGED_MESSAGE);
      names = (db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").all() as { name: string }[]).map(
        (r) => r.name,
      );
    } catch (err) {
      if (err instanceof RestoreInputProblem) throw err;
      throw new RestoreInputProblem(SQLITE_DAMAGED_MESSAGE);
    }
    const byName = new Map(dictionary.map((t) => [t.name.toLowerCase(), t]));
    const plan: SqliteExportPlan = { tables: [], leftOutTables: [], leftOutColumns: [], emptyTables: [] };
    for (const name of names) {
      const table = byName.get(name.toLowerCase());
      if (!table || plan.tables.some((t) => t.table === table.name)) {
        plan.leftOutTables.push(name);
        continue;
      }
      const columnOf = new Map(table.columns.map((c) => [c.name.toLowerCase(), c.name]));
      const columns: SqliteExportPlan["tables"][number]["columns"] = [];
      for (const { name: column } of db.pragma(`table_info(${quoted(name)})`) as { name: string }[]) {
        const match = columnOf.get(column.toLowerCase());
        if (match) columns.push({ sqlite: column, column: match });
        else plan.leftOutColumns.push({ table: table.name, column });
      }
      const rows = Number((db.prepare(`select count(*) as n from ${quoted(name)}`).get() as { n: number }).n);
      plan.tables.push({ sqliteTable: name, table: table.name, columns, rows });
    }
    if (plan.tables.length === 0) {
      const listed = names.length ? `(${names.slice(0, 10).join(", ")}${names.length > 10 ? ", …" : ""})` : "(it has none)";
      throw new RestoreInputProblem(`None of the SQLite database's tables ${listed} matches a table of the data dictionary.`);
    }
    plan.emptyTables = dictionary.filter((t) => !plan.tables.some((m) => m.table === t.name)).map((t) => t.name);
    return plan;
  } finally {
    db.close();
  }
}

/** A CSV field as PostgreSQL reads it: NULL unquoted and empty, an empty string `""`, quotes when needed. */
function field(value: unknown, table: string, column: string): string {
  if (value === null || value === undefined) return "";
  if (Buffer.isBuffer(value)) throw new RestoreInputProblem(`Table "${table}", column ${column}: BLOB values cannot be restored.`);
  const text = String(value);
  return text === "" || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Each matched table of the export, as CSV in batches of rows. */
export async function* sqliteTableInputs(
  filePath: string,
  plan: SqliteExportPlan,
  options: { signal?: AbortSignal; batchRows?: number } = {},
): AsyncGenerator<TableInput> {
  const batchRows = options.batchRows ?? 2000;
  const db = open(filePath);
  try {
    for (const t of plan.tables) {
      async function* csv(): AsyncGenerator<Buffer> {
        yield Buffer.from(`${t.columns.map((c) => field(c.column, t.table, c.column)).join(",")}\n`);
        if (t.columns.length === 0) return;
        const statement = db
          .prepare(`select ${t.columns.map((c) => quoted(c.sqlite)).join(", ")} from ${quoted(t.sqliteTable)}`)
          .raw(true)
          .safeIntegers(true);
        let lines: string[] = [];
        for (const row of statement.iterate() as Iterable<unknown[]>) {
          lines.push(row.map((v, i) => field(typeof v === "bigint" ? v.toString() : v, t.table, t.columns[i]!.column)).join(","));
          if (lines.length >= batchRows) {
            options.signal?.throwIfAborted();
            yield Buffer.from(`${lines.join("\n")}\n`);
            lines = [];
            // Not held by the iterator across the wait: better-sqlite3 allows other work between rows of one statement.
            await new Promise((resolve) => setImmediate(resolve));
          }
        }
        if (lines.length) yield Buffer.from(`${lines.join("\n")}\n`);
      }
      // Each iteration reads the table again (a refused value's row is looked for so).
      yield { table: t.table, columns: t.columns.map((c) => ({ name: c.column, type: null })), csv: { [Symbol.asyncIterator]: csv }, bytes: null };
    }
  } finally {
    db.close();
  }
}
