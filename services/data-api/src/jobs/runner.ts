/**
 * Where a job's steps run: in the background of this process, after the request that started the
 * job has answered. See start-job.ts for how this becomes a PostgreSQL-backed queue at scale.
 */

/** Where a step is about to run: what a test hook sees. */
export type StepCheckpoint = { jobId: string; projectId: string; kind: string; name: string; position: number };

/**
 * Test seams, set on the runner the app is built with (never from the environment, so nothing in
 * production can trip them): `beforeStep` may await (a job held running) or throw (a failed step).
 */
export type JobHooks = {
  beforeStep?: (step: StepCheckpoint) => void | Promise<void>;
};

export type JobRunner = {
  /** Mutable, so a test can hold or fail one job and then let the next run normally. */
  hooks: JobHooks;
  /** How often a running job records that it is alive (jobs.heartbeat_at). */
  heartbeatMs: number;
  /** Runs `work` on a later turn of the event loop; `work` reports its own failures. */
  launch(work: () => Promise<void>): void;
  /** Resolves when no launched work is left running (tests; a graceful stop). */
  idle(): Promise<void>;
  /** The abort signal of a job running here, registered while it runs (runSteps). */
  track(jobId: string): { signal: AbortSignal; done(): void };
  /** Stops a job running in this process at once; answers whether it runs here. */
  cancel(jobId: string, reason: Error): boolean;
};

export const DEFAULT_HEARTBEAT_MS = 10_000;

export function createJobRunner(options: { hooks?: JobHooks; heartbeatMs?: number } = {}): JobRunner {
  const running = new Set<Promise<void>>();
  const controllers = new Map<string, AbortController>();
  return {
    track(jobId) {
      const controller = new AbortController();
      controllers.set(jobId, controller);
      return { signal: controller.signal, done: () => controllers.delete(jobId) };
    },
    cancel(jobId, reason) {
      const controller = controllers.get(jobId);
      controller?.abort(reason);
      return controller !== undefined;
    },
    hooks: options.hooks ?? {},
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    launch(work) {
      const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(work)
        // startJob records every failure on the job itself; this only keeps a bug from becoming
        // an unhandled rejection that would take the whole process (and every other job) down.
        .catch(() => undefined)
        .finally(() => running.delete(task));
      running.add(task);
    },
    async idle() {
      while (running.size) await Promise.allSettled([...running]);
    },
  };
}

let shared: JobRunner | undefined;

/** The runner of apps built without one of their own (AppDeps.jobs unset): one per process. */
export function sharedJobRunner(): JobRunner {
  return (shared ??= createJobRunner());
}
