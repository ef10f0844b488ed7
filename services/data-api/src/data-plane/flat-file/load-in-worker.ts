/**
 * Runs a flat-file load in a worker thread (load-worker.ts), off the data API's request thread: this
 * side stores what the worker reports (the header, rejected rows in acknowledged batches, progress)
 * and answers the outcome.
 */
import { startWorker } from "../../worker-entry.ts";
import type { LoadResult, LoadRequest, LoadWorkerMessage, Rejection } from "./load-messages.ts";

export type LoadHooks = {
  /**
   * Resolves when the load may begin: a worker started before its step (while the job backs up) has
   * its thread up and its connection open by then, and waits. At once when not given.
   */
  ready?(): Promise<void>;
  onHeader(file: number, cells: string[]): Promise<void>;
  onRejected(file: number, rows: Rejection[]): Promise<void>;
  /** The rejected rows reported so far no longer count: the file is being read again. */
  onReset(file: number): Promise<void>;
  onProgress(file: number, bytes: number, rows: number): Promise<void>;
  /** The file is read and in its table, uncommitted: the next one starts. */
  onFileRead(file: number): void;
  /** Before the load commits: throws when it must not (the worker is then stopped and nothing is kept). */
  beforeCommit(): Promise<void>;
};

/**
 * The worker holds a chunk of the file, a batch of rows and of rejections, and for an .xlsx the
 * workbook's shared strings (read-worksheet.ts allows 96 MB of them: a million distinct codes is
 * 25 MB). A 64 MB heap made such a sheet a garbage collection per few rows (the bench's 1,000,000-row
 * workbook: 18 s, against 6 s to read it outside the worker) and a bigger one a crash; the young
 * generation is where a million rows' short-lived strings come and go.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 };

/** Stopped when `signal` aborts (a cancel): the worker is terminated, its connection closes, PostgreSQL rolls its transaction back. */
export function loadInWorker(request: LoadRequest, hooks: LoadHooks, signal?: AbortSignal): Promise<LoadResult> {
  const worker = startWorker(
    { source: new URL("./load-worker.ts", import.meta.url), bundle: "load-worker" },
    { workerData: request, resourceLimits: WORKER_LIMITS },
  );
  return new Promise<LoadResult>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, outcome?: LoadResult) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      if (error) reject(error);
      else resolve(outcome!);
    };
    // Messages are handled one at a time, in order: a batch is stored before the next is read.
    let queue = Promise.resolve();
    worker.on("message", (message: LoadWorkerMessage) => {
      queue = queue.then(async () => {
        try {
          switch (message.kind) {
            case "ready":
              await hooks.ready?.();
              worker.postMessage("ack");
              break;
            case "header":
              await hooks.onHeader(message.file, message.cells);
              worker.postMessage("ack");
              break;
            case "rejected":
              await hooks.onRejected(message.file, message.rows);
              worker.postMessage("ack");
              break;
            case "reset":
              await hooks.onReset(message.file);
              worker.postMessage("ack");
              break;
            case "progress":
              await hooks.onProgress(message.file, message.bytes, message.rows);
              break;
            case "commit":
              // A cancel or a force-unlock in another process, not heard yet: asked now, before anything is kept.
              await hooks.beforeCommit();
              worker.postMessage("ack");
              break;
            case "file-read":
              hooks.onFileRead(message.file);
              break;
            case "end":
              finish(null, message.result);
              break;
            case "crash":
              finish(new Error(`The load failed: ${message.message.split("\n")[0]}`));
              break;
          }
        } catch (err) {
          finish(err as Error);
        }
      });
    });
    const onAbort = () => finish(signal!.reason instanceof Error ? signal!.reason : new Error("Cancelled"));
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.on("error", (err) => finish(new Error(`The load failed: ${err.message}`)));
    worker.on("exit", () => finish(new Error("The load failed: its worker stopped")));
  });
}
