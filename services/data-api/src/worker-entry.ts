/**
 * How the data API starts a worker thread (dictionary parsing, flat-file loads, previews, checks) and hears a one-off answer. Built
 * (scripts/build-services.ts), the data API is one bundle and each worker's bundle lies beside it,
 * plain JavaScript. From source (tests, `tsx`), the worker's TypeScript is loaded by tsx, registered
 * inside the worker before its entry is imported: on Node 20, `execArgv: ["--import", "tsx"]` leaves
 * the entry itself to the default loader, which refuses ".ts".
 */
import { Worker, type MessagePort, type WorkerOptions } from "node:worker_threads";

const FROM_SOURCE = import.meta.url.endsWith(".ts");

/** `source`: the worker's .ts file; `bundle`: the name build-services.ts gives its bundle. */
export function startWorker(entry: { source: URL; bundle: string }, options: Omit<WorkerOptions, "eval">): Worker {
  if (!FROM_SOURCE) return new Worker(new URL(`./${entry.bundle}.mjs`, import.meta.url), options);
  const code = `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))}).then(({ register }) => { register(); return import(${JSON.stringify(entry.source.href)}); })`;
  return new Worker(code, { ...options, eval: true });
}

/**
 * Inside a worker: posts a message and resolves once the data API's thread answers "ack", so the
 * worker never runs ahead of what has been stored (one batch in flight at a time).
 */
export function acknowledgedPost<M>(port: MessagePort): (message: M) => Promise<void> {
  let acked: (() => void) | undefined;
  port.on("message", (message: unknown) => {
    if (message === "ack") acked?.();
  });
  return (message) =>
    new Promise((resolve) => {
      acked = resolve;
      port.postMessage(message);
    });
}

/**
 * The one answer of a worker that posts a single message and is done (a preview, a check): `settle`
 * makes the message a result or an Error; the worker's own failure or exit before it is an Error
 * prefixed with `failed` ("The preview failed"). The worker is terminated either way.
 */
export function answerOf<M, T>(worker: Worker, failed: string, settle: (message: M) => T | Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: T | Error) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    worker.on("message", (message: M) => finish(settle(message)));
    worker.on("error", (err) => finish(new Error(`${failed}: ${err.message}`)));
    worker.on("exit", () => finish(new Error(`${failed}: its worker stopped`)));
  });
}
