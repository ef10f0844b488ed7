/**
 * Runs "Translate a file" in a worker thread (translate-worker.ts), off the data API's thread, and
 * keeps its row (repositories/translations.ts) up to date: progress while it reads, then its counts
 * and report, or why it failed. A crash of the worker fails the translation, never the API.
 */
import type { AppDeps } from "../context.ts";
import { finishTranslation, recordProgress, touchTranslation } from "../repositories/translations.ts";
import { startWorker } from "../worker-entry.ts";
import type { TranslateRequest, TranslateWorkerMessage } from "./translate-messages.ts";

// The maps are in the worker's heap (at most a few hundred thousand pairs); the files stream.
const WORKER_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 16 };
// Well within recover.ts's STALE_JOB_MS: progress writes are one at a time, so a slow database never piles them up.
const HEARTBEAT_MS = 10_000;

export function translateInWorker(deps: Pick<AppDeps, "db" | "progressDb" | "logger">, id: string, request: TranslateRequest, done: () => void): Promise<void> {
  const worker = startWorker(
    { source: new URL("./translate-worker.ts", import.meta.url), bundle: "translate-worker" },
    { workerData: request, resourceLimits: WORKER_LIMITS },
  );
  const progressDb = deps.progressDb ?? deps.db;
  // A heartbeat besides the progress: a worker still reading a workbook's strings posts nothing for a while.
  const heartbeat = setInterval(() => {
    writing = writing.then(() => touchTranslation(progressDb, id)).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  let writing: Promise<unknown> = Promise.resolve();
  return new Promise<void>((resolve) => {
    let settled = false;
    const finish = (outcome: Parameters<typeof finishTranslation>[2]) => {
      if (settled) return;
      settled = true;
      clearInterval(heartbeat);
      void worker.terminate();
      writing
        .then(() => finishTranslation(deps.db, id, outcome))
        .catch((err: unknown) => deps.logger.error("could not record a translation's end", { err, translationId: id }))
        .finally(() => {
          done();
          resolve();
        });
    };
    worker.on("message", (message: TranslateWorkerMessage) => {
      if (message.kind === "progress") {
        writing = writing.then(() => recordProgress(progressDb, id, message)).catch(() => undefined);
      } else if (message.kind === "end") {
        finish({ status: "Completed", progress: message, report: message.report });
      } else if (message.kind === "problem") {
        finish({ status: "Failed", error: message.message });
      } else {
        deps.logger.error("a translation's worker failed", { translationId: id, message: message.message.split("\n")[0] });
        finish({ status: "Failed", error: "The translation failed unexpectedly. Try again; if it fails again, tell the support team." });
      }
    });
    worker.on("error", (err) => {
      deps.logger.error("a translation's worker failed", { translationId: id, err });
      finish({ status: "Failed", error: "The translation failed unexpectedly. Try again; if it fails again, tell the support team." });
    });
    worker.on("exit", () => finish({ status: "Failed", error: "The translation stopped before its end." }));
  });
}
