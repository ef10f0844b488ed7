/**
 * Parses an uploaded file off the request thread: a worker thread (parse-worker.ts) reads and
 * checks it, and this side receives its findings in batches, acknowledging each one only when
 * the caller asks for the next, so the worker never runs ahead of what is stored.
 */
import type { RowError } from "../../../../contracts/dictionary.ts";
import { ApiProblem } from "../api-problem.ts";
import { startWorker } from "../worker-entry.ts";
import type { CheckedItem } from "./parse-file.ts";
import { fileProblem } from "./sheet-rows.ts";

export type WorkerRequest = { filePath: string; fileName: string };

export type WorkerMessage =
  /** `rowsRead`: the file's data rows read so far (a row may yield a problem and its staged row, or several problems). */
  | { kind: "batch"; items: CheckedItem[]; rowsRead: number }
  | { kind: "end"; rowCount: number }
  /** The file is not valid CSV: its one problem, the review shows it (rows found so far are dropped). */
  | { kind: "csv-error"; rowError: RowError }
  | { kind: "file-problem"; status: 400 | 413; message: string }
  | { kind: "crash"; message: string };

export const PARSE_FAILED_MESSAGE = "The file could not be read: check that it is a dictionary file saved as CSV UTF-8 or .xlsx";

/** What the worker says, in order: batches, then the end (a file-level problem throws its ApiProblem). */
export type ParseOutcome =
  { kind: "batch"; items: CheckedItem[]; rowsRead: number } | { kind: "end"; rowCount: number } | { kind: "csv-error"; rowError: RowError };

/**
 * The worker holds a chunk, a batch and (for an .xlsx) the shared strings: small heaps make it
 * collect early instead of growing the process by hundreds of MB, and a file that would need more
 * fails the worker (a 400) rather than the API.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 };

/** `onCrash` hears what went wrong when the worker fails unexpectedly (the caller answers a 400 and logs it). */
export async function* parseInWorker(filePath: string, fileName: string, onCrash?: (message: string) => void): AsyncGenerator<ParseOutcome> {
  const worker = startWorker(
    { source: new URL("./parse-worker.ts", import.meta.url), bundle: "parse-worker" },
    { workerData: { filePath, fileName } satisfies WorkerRequest, resourceLimits: WORKER_LIMITS },
  );
  const queue: WorkerMessage[] = [];
  let wake: (() => void) | undefined;
  let failure: Error | undefined;
  let exited = false;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  worker.on("message", (message: WorkerMessage) => {
    queue.push(message);
    notify();
  });
  worker.on("error", (err) => {
    failure = err;
    notify();
  });
  worker.on("exit", () => {
    exited = true;
    notify();
  });
  try {
    for (;;) {
      while (queue.length === 0 && !failure && !exited) await new Promise<void>((resolve) => (wake = resolve));
      const message = queue.shift();
      if (!message) {
        // The worker died without a word (out of memory, a crash in its setup).
        onCrash?.(failure?.message ?? "the parse worker exited");
        throw new ApiProblem(400, "invalid_file", PARSE_FAILED_MESSAGE, { file: [PARSE_FAILED_MESSAGE] });
      }
      switch (message.kind) {
        case "batch":
          yield message;
          worker.postMessage("ack");
          break;
        case "end":
        case "csv-error":
          yield message;
          return;
        case "file-problem":
          throw fileProblem(message.status, message.message);
        case "crash":
          onCrash?.(message.message);
          throw new ApiProblem(400, "invalid_file", PARSE_FAILED_MESSAGE, { file: [PARSE_FAILED_MESSAGE] });
      }
    }
  } finally {
    await worker.terminate();
  }
}
