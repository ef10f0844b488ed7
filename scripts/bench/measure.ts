/** What the bench measures with: a load run with CPU per request, a process started for an anchor, sampling. */
import { spawn } from "node:child_process";
import autocannon from "autocannon";
import { cpuMs, rssMiB } from "./stack.ts";

export type LoadResult = { rps: number; p99: number; cpuMsPerRequest: number; requests: number; errors: number; bytesPerResponse: number };

/**
 * `connections` clients hammer `url` for `seconds` after a short warm-up; CPU per request is the CPU the
 * given processes used meanwhile (all of them: a page costs the portal and the services it calls),
 * divided by the requests answered. A response that is not 2xx counts as an error.
 */
export async function load(
  url: string,
  options: { pids: number[]; headers?: Record<string, string>; connections?: number; seconds?: number },
): Promise<LoadResult> {
  const { pids, headers = {}, connections = 50, seconds = 10 } = options;
  await run({ url, headers, connections, duration: 2 });
  const before = pids.map(cpuMs);
  const result = await run({ url, headers, connections, duration: seconds });
  const used = pids.map(cpuMs).reduce((sum, ms, i) => sum + ms - before[i]!, 0);
  const requests = result.requests.total;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    cpuMsPerRequest: used / Math.max(1, requests),
    requests,
    errors: result.non2xx + result.errors + result.timeouts,
    bytesPerResponse: result.throughput.total / Math.max(1, requests),
  };
}

function run(opts: autocannon.Options) {
  return new Promise<autocannon.Result>((resolve, reject) => autocannon(opts, (err, result) => (err ? reject(err) : resolve(result))));
}

/** A process for an anchor: started, waited for until `url` answers, stopped by the returned function. */
export async function startProcess(args: string[], options: { cwd: string; env: Record<string, string>; url: string }) {
  const child = spawn(process.execPath, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ["ignore", "ignore", "inherit"] });
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(" ")} stopped before ${options.url} answered`);
    if (
      await fetch(options.url).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > until) throw new Error(`${options.url} did not answer`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    pid: child.pid!,
    async stop() {
      child.kill("SIGTERM");
      if (child.exitCode === null) await new Promise((r) => child.once("exit", r));
    },
  };
}

/**
 * While `work` runs: the peak resident memory of `pid` (sampled every 20 ms) and the slowest answer of
 * `healthUrl` (asked every 50 ms, one at a time): a blocked event loop shows as a slow /healthz.
 */
export async function watch<T>(pid: number, healthUrl: string, work: () => Promise<T>) {
  let peakRss = rssMiB(pid);
  let slowestHealthMs = 0;
  let done = false;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMiB(pid))), 20);
  const prober = (async () => {
    while (!done) {
      const start = performance.now();
      await fetch(healthUrl).then(
        (r) => r.body?.cancel(),
        () => undefined,
      );
      slowestHealthMs = Math.max(slowestHealthMs, performance.now() - start);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const start = performance.now();
  try {
    const result = await work();
    return { result, ms: performance.now() - start, peakRss, slowestHealthMs };
  } finally {
    done = true;
    clearInterval(sampler);
    await prober;
  }
}

/** The middle of an odd number of figures (of an even number, the upper middle one): always one of them. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
