import type { JobRunner } from "../jobs/runner.ts";

/**
 * Holds every step of `projectId`'s jobs on `runner` before it runs (the job stays running, its
 * project locked) until the returned function is called. The hook stays set: tests reset
 * `runner.hooks` themselves.
 */
export function holdJobsOf(runner: JobRunner, projectId: string): () => void {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  runner.hooks.beforeStep = (step) => (step.projectId === projectId ? held : undefined);
  return release;
}

/** After a test of jobs: the hooks it set on `runner` are gone and its jobs have ended, so the next test starts clean. */
export async function settleJobs(runner: JobRunner): Promise<void> {
  runner.hooks = {};
  await runner.idle();
}
