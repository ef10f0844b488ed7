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
/**
 * Characters of the file's rows per message, whatever their number: the items keep the text they
 * were cut from until they are posted, and rows of 10 KB (cells padded with spaces, trimmed away)
 * made 2,000 items hold 20 MB, past the worker's heap (a 400 for a valid file).
 */
const BATCH_CHARS = 4 * 1024 * 1024;

const port = parentPort!;
const { filePath, fileName } = workerData as WorkerRequest;
const post = acknowledgedPost<WorkerMessage>(port);

async function run() {
  const counter = { rows: 0, chars: 0 };
  let batch: CheckedItem[] = [];
  let charsPosted = 0;
  try {
    for await (const item of parseDictionaryPath(filePath, fileName, counter)) {
      batch.push(item);
      if (batch.length >= BATCH_ITEMS || counter.chars - charsPosted >= BATCH_CHARS) {
        await post({ kind: "batch", items: batch, rowsRead: counter.rows });
        batch = [];
        charsPosted = counter.chars;
      }
    }
    if (batch.length > 0) await post({ kind: "batch", items: batch, rowsRead: counter.rows });
    port.postMessage({ kind: "end", rowCount: counter.rows } satisfies WorkerMessage);
  } catch (err) {
    if (err instanceof CsvFormatError) port.postMessage({ kind: "csv-error", rowError: err.rowError } satisfies WorkerMessage);
    else if (err instanceof ApiProblem) {
      port.postMessage({ kind: "file-problem", status: err.statusCode as 400 | 413, message: err.message } satisfies WorkerMessage);
    } else port.postMessage({ kind: "crash", message: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies WorkerMessage);
  }
}

void run();
