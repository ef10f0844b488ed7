/**
 * The thread of the progress connection (progress-db.ts): runs each statement it is sent on a
 * SQLite connection of its own and answers with the result, one statement at a time, in order.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openSqlite, withStatementCache } from "../../../shared/sqlite.ts";
import type { ProgressDbAnswer, ProgressDbStatement } from "./progress-db.ts";

const sqlite = openSqlite((workerData as { file: string }).file);
// Waits as long as the data API's connection holds the write lock (a big review applied in one
// transaction can take seconds): waiting here holds no request, and the job's progress then simply
// lands late, as it did when it queued behind that transaction on the one connection.
sqlite.pragma("busy_timeout = 120000");
// A commit here waits for no disk sync (the write-ahead log stays safe from corruption; what a power
// cut may lose is the last progress figures). The data API's own connection keeps FULL: its next
// commit syncs the whole log, these frames included.
sqlite.pragma("synchronous = NORMAL");

// Prepared once per SQL text: a job writes the same few shapes a few times a second for hours.
const statements = withStatementCache(sqlite);

parentPort!.on("message", ({ id, sql, parameters }: ProgressDbStatement) => {
  let answer: ProgressDbAnswer;
  try {
    const statement = statements.prepare(sql);
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
