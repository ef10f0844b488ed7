/**
 * The thread of the progress connection (progress-db.ts): runs each statement it is sent on a
 * SQLite connection of its own and answers with the result, one statement at a time, in order.
 */
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import type { ProgressDbAnswer, ProgressDbStatement } from "./progress-db.ts";

const sqlite = new Database((workerData as { file: string }).file);
// Waits as long as the data API's connection holds the write lock (a big review applied in one
// transaction can take seconds): waiting here holds no request, and the job's progress then simply
// lands late, as it did when it queued behind that transaction on the one connection.
sqlite.pragma("busy_timeout = 120000");
sqlite.pragma("foreign_keys = ON");
// A commit here waits for no disk sync (the write-ahead log stays safe from corruption; what a power
// cut may lose is the last progress figures). The data API's own connection keeps FULL: its next
// commit syncs the whole log, these frames included.
sqlite.pragma("synchronous = NORMAL");

// Statements by their SQL: a job writes the same few shapes a few times a second for hours.
const statements = new Map<string, Database.Statement>();
const MAX_STATEMENTS = 50;

function statementOf(sql: string) {
  let statement = statements.get(sql);
  if (!statement) {
    if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
    statement = sqlite.prepare(sql);
    statements.set(sql, statement);
  }
  return statement;
}

parentPort!.on("message", ({ id, sql, parameters }: ProgressDbStatement) => {
  let answer: ProgressDbAnswer;
  try {
    const statement = statementOf(sql);
    if (statement.reader) answer = { id, rows: statement.all(parameters) as Record<string, unknown>[] };
    else {
      const { changes, lastInsertRowid } = statement.run(parameters);
      answer = { id, changes, lastInsertRowid: BigInt(lastInsertRowid) };
    }
  } catch (err) {
    answer = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(answer);
});
