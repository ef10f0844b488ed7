/**
 * The worker thread that parses an uploaded dictionary file (parse-in-worker.ts starts it): reads
 * the file from disk as a stream, checks its rows, and posts what it found in batches of at most
 * BATCH_ITEMS, waiting for the main thread's ack after each one, so neither thread ever holds more
 * than a batch and the main thread's event loop only ever stores rows.
 */
import { parentPort, workerData } from "node:worker_threads";
import { acknowledgedPost } from "../worker-entry.ts";
import { ApiProblem } from "../api-problem.ts";
import { parseDictionaryPath, type CheckedItem } from "./parse-file.ts";
import { CsvFormatError } from "./read-csv.ts";
import type { WorkerMessage, WorkerRequest } from "./parse-in-worker.ts";

/** Items per message: some 1–2 MB of structured clone at most. */
const BATCH_ITEMS = 2000;

const port = parentPort!;
const { filePath, fileName } = workerData as WorkerRequest;
const post = acknowledgedPost<WorkerMessage>(port);

async function run() {
  const counter = { rows: 0 };
  let batch: CheckedItem[] = [];
  try {
    for await (const item of parseDictionaryPath(filePath, fileName, counter)) {
      batch.push(item);
      if (batch.length >= BATCH_ITEMS) {
        await post({ kind: "batch", items: batch });
        batch = [];
      }
    }
    if (batch.length > 0) await post({ kind: "batch", items: batch });
    port.postMessage({ kind: "end", rowCount: counter.rows } satisfies WorkerMessage);
  } catch (err) {
    if (err instanceof CsvFormatError) port.postMessage({ kind: "csv-error", rowError: err.rowError } satisfies WorkerMessage);
    else if (err instanceof ApiProblem) {
      port.postMessage({ kind: "file-problem", status: err.statusCode as 400 | 413, message: err.message } satisfies WorkerMessage);
    } else port.postMessage({ kind: "crash", message: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies WorkerMessage);
  }
}

void run();
