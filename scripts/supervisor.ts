/**
 * Keeps a few long-running child processes alive (scripts/start-all.ts, `npm start`).
 *
 * - All are started at once, in the given order; `start()` resolves once each has answered its health
 *   check, in that order.
 * - A process that dies unexpectedly is started again after an exponential backoff (1 s, 2 s, 4 s …
 *   capped at 30 s by default). The backoff starts over once a process has stayed healthy for a minute.
 * - A process that never became healthy since the first start (port in use, bad configuration) is
 *   given `startAttempts` attempts; then everything is stopped and `start()` rejects, so a
 *   misconfiguration ends with a message instead of looping for ever.
 * - `stop()` sends SIGTERM to all (SIGKILL after `stopTimeoutMs`) and restarts nothing.
 *
 * Every death, restart and give-up is reported through `log` (the terminal) and `onEvent` (tests).
 */
import { spawn, type ChildProcess } from "node:child_process";

export type ServiceSpec = {
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** True once the process serves (e.g. its GET /healthz answers 2xx). Should not hang: use a timeout. */
  isHealthy: () => Promise<boolean>;
};

export type SupervisorOptions = {
  /** First restart delay; doubles with each further death. */
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** A process that has been healthy this long before dying starts over at `initialBackoffMs`. */
  resetBackoffAfterMs: number;
  /** Attempts a process gets to become healthy for the first time before everything is stopped. */
  startAttempts: number;
  /** How long one attempt may take to become healthy. At first start, longer means giving up. */
  healthTimeoutMs: number;
  healthIntervalMs: number;
  /** After SIGTERM, how long a process gets before SIGKILL. */
  stopTimeoutMs: number;
  /** Where children's stdout and stderr go, each line prefixed with `[name] `; "ignore" drops them. */
  output: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } | "ignore";
  log: (line: string) => void;
  onEvent?: (event: SupervisorEvent) => void;
};

export type SupervisorEvent =
  | { type: "spawn"; name: string; pid: number | undefined; attempt: number }
  | { type: "healthy"; name: string; pid: number | undefined }
  | { type: "exit"; name: string; pid: number | undefined; code: number | null; signal: NodeJS.Signals | null; expected: boolean }
  | { type: "restart-scheduled"; name: string; delayMs: number }
  | { type: "give-up"; name: string; reason: string }
  | { type: "stopped" };

export const defaultSupervisorOptions: SupervisorOptions = {
  initialBackoffMs: 1_000,
  maxBackoffMs: 30_000,
  resetBackoffAfterMs: 60_000,
  startAttempts: 3,
  healthTimeoutMs: 120_000,
  healthIntervalMs: 250,
  stopTimeoutMs: 12_000,
  output: { stdout: process.stdout, stderr: process.stderr },
  log: (line) => console.error(`[start] ${line}`),
};

/** The delay before restart number `failures + 1`: initial · 2^failures, at most max. */
export function backoffDelay(failures: number, initialMs: number, maxMs: number): number {
  return Math.min(initialMs * 2 ** Math.min(failures, 30), maxMs);
}

export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `signal ${signal}`;
  if (code === null) return "failed to start";
  return `exit code ${code}`;
}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(1))} s` : `${ms} ms`;
}

type ServiceState = {
  spec: ServiceSpec;
  child: ChildProcess | undefined;
  exited: Promise<void> | undefined;
  attempts: number;
  /** Deaths since the backoff last started over. */
  failures: number;
  everHealthy: boolean;
  healthySince: number | undefined;
  restartTimer: NodeJS.Timeout | undefined;
};

export class Supervisor {
  private readonly opts: SupervisorOptions;
  private readonly states: ServiceState[];
  private stopping = false;
  private stopPromise: Promise<void> | undefined;
  private failure: Error | undefined;
  private startSettled = false;
  private resolveStart!: (ready: boolean) => void;
  private rejectStart!: (err: Error) => void;
  private readonly startPromise: Promise<boolean>;

  constructor(specs: ServiceSpec[], options: Partial<SupervisorOptions> = {}) {
    this.opts = { ...defaultSupervisorOptions, ...options };
    this.states = specs.map((spec) => ({
      spec,
      child: undefined,
      exited: undefined,
      attempts: 0,
      failures: 0,
      everHealthy: false,
      healthySince: undefined,
      restartTimer: undefined,
    }));
    this.startPromise = new Promise<boolean>((resolve, reject) => {
      this.resolveStart = resolve;
      this.rejectStart = reject;
    });
    // A caller that only awaits stop() must not see an unhandled rejection.
    this.startPromise.catch(() => undefined);
  }

  /**
   * Starts every process. Resolves true once all have been healthy, false if stop() came first;
   * rejects (after stopping everything) when a process could not be started.
   */
  start(): Promise<boolean> {
    if (this.states.every((s) => s.attempts === 0)) for (const s of this.states) this.spawn(s);
    return this.startPromise;
  }

  /** The current process id of a service, when it is running. */
  pid(name: string): number | undefined {
    const child = this.states.find((s) => s.spec.name === name)?.child;
    return child && child.exitCode === null && child.signalCode === null ? child.pid : undefined;
  }

  /** Stops all and restarts nothing; resolves once every process has exited. */
  stop(): Promise<void> {
    if (this.stopPromise) return this.stopPromise;
    this.stopping = true;
    const running: Promise<void>[] = [];
    for (const s of this.states) {
      clearTimeout(s.restartTimer);
      s.restartTimer = undefined;
      if (s.child && s.exited && s.child.exitCode === null && s.child.signalCode === null) {
        s.child.kill("SIGTERM");
        running.push(s.exited);
      }
    }
    const all = Promise.all(running).then(() => undefined);
    const force = setTimeout(() => {
      for (const s of this.states) {
        if (s.child && s.child.exitCode === null && s.child.signalCode === null) {
          this.opts.log(`${s.spec.name} did not stop within ${seconds(this.opts.stopTimeoutMs)}; killing it.`);
          s.child.kill("SIGKILL");
        }
      }
    }, this.opts.stopTimeoutMs);
    force.unref();
    this.stopPromise = all.then(() => {
      clearTimeout(force);
      this.opts.onEvent?.({ type: "stopped" });
      if (!this.startSettled) {
        this.startSettled = true;
        if (this.failure) this.rejectStart(this.failure);
        else this.resolveStart(false);
      }
    });
    return this.stopPromise;
  }

  private emit(event: SupervisorEvent) {
    this.opts.onEvent?.(event);
  }

  private spawn(state: ServiceState) {
    const { spec } = state;
    state.attempts += 1;
    state.healthySince = undefined;
    const output = this.opts.output;
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env: spec.env,
      stdio: output === "ignore" ? "ignore" : ["ignore", "pipe", "pipe"],
    });
    state.child = child;
    if (output !== "ignore") {
      prefixLines(spec.name, child.stdout!, output.stdout);
      prefixLines(spec.name, child.stderr!, output.stderr);
    }
    state.exited = new Promise<void>((resolve) => {
      let done = false;
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        if (done) return;
        done = true;
        resolve();
        this.onExit(state, child, code, signal);
      };
      child.on("exit", onExit);
      // Spawning itself failed (e.g. the command does not exist): there is no "exit" then.
      child.on("error", (err) => {
        if (child.pid !== undefined) return;
        this.opts.log(`${spec.name} could not be started: ${err.message}`);
        onExit(null, null);
      });
    });
    this.emit({ type: "spawn", name: spec.name, pid: child.pid, attempt: state.attempts });
    if (child.pid !== undefined) {
      this.opts.log(
        state.attempts > 1
          ? `${spec.name} restarted (pid ${child.pid}, attempt ${state.attempts}).`
          : `${spec.name} started (pid ${child.pid}).`,
      );
    }
    void this.watchHealth(state, child);
  }

  private alive(state: ServiceState, child: ChildProcess) {
    return !this.stopping && state.child === child && child.exitCode === null && child.signalCode === null;
  }

  private async watchHealth(state: ServiceState, child: ChildProcess) {
    const deadline = Date.now() + this.opts.healthTimeoutMs;
    while (this.alive(state, child)) {
      const ok = await state.spec.isHealthy().catch(() => false);
      if (!this.alive(state, child)) return;
      if (ok) {
        state.healthySince = Date.now();
        const again = state.everHealthy;
        state.everHealthy = true;
        this.emit({ type: "healthy", name: state.spec.name, pid: child.pid });
        if (again) this.opts.log(`${state.spec.name} is healthy again.`);
        this.checkAllHealthy();
        return;
      }
      if (Date.now() >= deadline) {
        const message = `${state.spec.name} did not become healthy within ${seconds(this.opts.healthTimeoutMs)}`;
        if (state.everHealthy) this.opts.log(`${message} of its restart; still waiting for it to exit or recover.`);
        else this.giveUp(state, message);
        return;
      }
      await new Promise((r) => setTimeout(r, this.opts.healthIntervalMs));
    }
  }

  private checkAllHealthy() {
    if (this.startSettled || this.stopping) return;
    if (this.states.every((s) => s.everHealthy)) {
      this.startSettled = true;
      this.resolveStart(true);
    }
  }

  private onExit(state: ServiceState, child: ChildProcess, code: number | null, signal: NodeJS.Signals | null) {
    const { name } = state.spec;
    const expected = this.stopping;
    this.emit({ type: "exit", name, pid: child.pid, code, signal, expected });
    if (expected || state.child !== child) return;

    const how = describeExit(code, signal);
    if (state.healthySince !== undefined && Date.now() - state.healthySince >= this.opts.resetBackoffAfterMs) {
      state.failures = 0;
    }
    if (!state.everHealthy && state.attempts >= this.opts.startAttempts) {
      this.giveUp(
        state,
        `${name} stopped (${how}) ${state.attempts} times without becoming healthy; ` +
          `see its output above (port in use? bad configuration?)`,
      );
      return;
    }
    const delayMs = backoffDelay(state.failures, this.opts.initialBackoffMs, this.opts.maxBackoffMs);
    state.failures += 1;
    this.emit({ type: "restart-scheduled", name, delayMs });
    this.opts.log(`${name} (pid ${child.pid}) stopped unexpectedly (${how}); restarting in ${seconds(delayMs)}.`);
    state.restartTimer = setTimeout(() => {
      state.restartTimer = undefined;
      if (!this.stopping) this.spawn(state);
    }, delayMs);
  }

  private giveUp(state: ServiceState, reason: string) {
    if (this.stopping) return;
    this.failure = new Error(reason);
    this.emit({ type: "give-up", name: state.spec.name, reason });
    this.opts.log(`${reason}. Giving up: stopping everything.`);
    void this.stop();
  }
}

function prefixLines(name: string, stream: NodeJS.ReadableStream, out: NodeJS.WritableStream) {
  let buffer = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) out.write(`[${name}] ${line}\n`);
  });
  stream.on("end", () => buffer && out.write(`[${name}] ${buffer}\n`));
}
