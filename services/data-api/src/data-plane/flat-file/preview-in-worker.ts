/** Runs a preview in a worker thread (preview-worker.ts): small heaps, and a crash is an error here, never the API's. */
import type { PreviewFile } from "../../../../../contracts/loads.ts";
import { startWorker } from "../../worker-entry.ts";
import type { PreviewRequest, PreviewWorkerMessage } from "./preview-messages.ts";

const WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

export function previewInWorker(request: PreviewRequest): Promise<PreviewFile[]> {
  const worker = startWorker(
    { source: new URL("./preview-worker.ts", import.meta.url), bundle: "preview-worker" },
    { workerData: request, resourceLimits: WORKER_LIMITS },
  );
  return new Promise<PreviewFile[]>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, files?: PreviewFile[]) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (error) reject(error);
      else resolve(files!);
    };
    worker.on("message", (message: PreviewWorkerMessage) => {
      if (message.kind === "end") finish(null, message.files);
      else finish(new Error(`The preview failed: ${message.message.split("\n")[0]}`));
    });
    worker.on("error", (err) => finish(new Error(`The preview failed: ${err.message}`)));
    worker.on("exit", () => finish(new Error("The preview failed: its worker stopped")));
  });
}
