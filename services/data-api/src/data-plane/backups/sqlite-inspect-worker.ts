/**
 * The worker thread that checks a client's SQLite export before a restore (sqlite-export.ts
 * inspectSqliteExportInWorker starts it): its integrity check and row counts read the whole file,
 * which for an export of gigabytes takes seconds that the data API's thread must not wait through.
 */
import { parentPort, workerData } from "node:worker_threads";
import { inspectSqliteExport, type SqliteInspectMessage, type SqliteInspectRequest } from "./sqlite-export.ts";
import { RestoreInputProblem } from "./table-input.ts";

const { filePath, dictionary } = workerData as SqliteInspectRequest;
const post = (message: SqliteInspectMessage) => parentPort!.postMessage(message);
try {
  post({ kind: "plan", plan: inspectSqliteExport(filePath, dictionary) });
} catch (err) {
  if (err instanceof RestoreInputProblem) post({ kind: "refused", message: err.message });
  else post({ kind: "crash", message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
