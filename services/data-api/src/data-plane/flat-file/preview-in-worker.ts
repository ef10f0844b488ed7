/** Runs a preview in a worker thread (preview-worker.ts): small heaps, and a crash is an error here, never the API's. */
import type { PreviewFile } from "../../../../../contracts/loads.ts";
import { answerOf, startWorker } from "../../worker-entry.ts";
import type { PreviewRequest, PreviewWorkerMessage } from "./preview-messages.ts";

const WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 };

export function previewInWorker(request: PreviewRequest): Promise<PreviewFile[]> {
  const worker = startWorker(
    { source: new URL("./preview-worker.ts", import.meta.url), bundle: "preview-worker" },
    { workerData: request, resourceLimits: WORKER_LIMITS },
  );
  return answerOf<PreviewWorkerMessage, PreviewFile[]>(worker, "The preview failed", (message) =>
    message.kind === "end" ? message.files : new Error(`The preview failed: ${message.message.split("\n")[0]}`),
  );
}
