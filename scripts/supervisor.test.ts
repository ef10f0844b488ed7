import { afterEach, describe, expect, it } from "vitest";
import { Supervisor, backoffDelay, describeExit, type ServiceSpec, type SupervisorEvent, type SupervisorOptions } from "./supervisor.ts";
import { freePort } from "../services/shared/testing/free-port.ts";

/** A tiny child: `node -e <code>`, healthy when it answers HTTP on `port` (if given). */
function nodeService(name: string, code: string, port?: number): ServiceSpec {
  return {
    name,
    command: process.execPath,
    args: ["-e", code],
    env: { ...process.env, PORT: String(port ?? 0) },
    isHealthy: async () => {
      if (port === undefined) return false;
      const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(500) }).catch(() => null);
      return res?.ok ?? false;
    },
  };
}

const serve = `require("http").createServer((q, s) => s.end("ok")).listen(+process.env.PORT, "127.0.0.1");`;
/** Serves, and exits with `code` `ms` after its first request (its first health check): healthy, then dies. */
const serveThenExit = (ms: number, code: number) =>
  `let once = false; require("http").createServer((q, s) => { s.end("ok"); if (!once) { once = true; setTimeout(() => process.exit(${code}), ${ms}); } }).listen(+process.env.PORT, "127.0.0.1");`;

function isRunning(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const running: Supervisor[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

function supervise(specs: ServiceSpec[], options: Partial<SupervisorOptions> = {}) {
  const events: SupervisorEvent[] = [];
  const lines: string[] = [];
  const supervisor = new Supervisor(specs, {
    initialBackoffMs: 100,
    maxBackoffMs: 400,
    resetBackoffAfterMs: 60_000,
    startAttempts: 3,
    healthTimeoutMs: 10_000,
    healthIntervalMs: 25,
    stopTimeoutMs: 2_000,
    output: "ignore",
    log: (line) => lines.push(line),
    onEvent: (e) => events.push(e),
    ...options,
  });
  running.push(supervisor);
  const of = <T extends SupervisorEvent["type"]>(type: T, name?: string) =>
    events.filter((e): e is Extract<SupervisorEvent, { type: T }> => e.type === type && (!name || !("name" in e) || e.name === name));
  return { supervisor, events, lines, of };
}

describe("backoffDelay", () => {
  it("doubles from the initial delay and stops at the cap", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 50].map((n) => backoffDelay(n, 1000, 30_000))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
});

describe("describeExit", () => {
  it("names the exit code or the signal", () => {
    expect(describeExit(3, null)).toBe("exit code 3");
    expect(describeExit(null, "SIGKILL")).toBe("signal SIGKILL");
  });
});

describe("Supervisor", () => {
  it("restarts a process that dies, with exponential backoff up to the cap, and logs each death", async () => {
    const port = await freePort();
    // Healthy, then dies with exit code 3, every time.
    const { supervisor, lines, of } = supervise([nodeService("flaky", serveThenExit(100, 3), port)]);
    await expect(supervisor.start()).resolves.toBe(true);
    await until(() => of("restart-scheduled").length >= 4);
    expect(of("restart-scheduled").slice(0, 4).map((e) => e.delayMs)).toEqual([100, 200, 400, 400]);
    expect(of("exit").slice(0, 4).every((e) => e.code === 3 && e.signal === null && !e.expected)).toBe(true);
    expect(of("spawn").map((e) => e.attempt).slice(0, 4)).toEqual([1, 2, 3, 4]);
    expect(of("healthy").length).toBeGreaterThanOrEqual(3); // each restart came back
    expect(lines).toContain("flaky (pid " + of("exit")[0]!.pid + ") stopped unexpectedly (exit code 3); restarting in 100 ms.");
    expect(lines.some((l) => /^flaky restarted \(pid \d+, attempt 2\)\.$/.test(l))).toBe(true);
    expect(of("give-up")).toEqual([]);
  });

  it("brings back a healthy process killed with SIGKILL", async () => {
    const port = await freePort();
    const { supervisor, of } = supervise([nodeService("api", serve, port)]);
    await supervisor.start();
    const first = supervisor.pid("api");
    process.kill(first!, "SIGKILL");
    await until(() => of("healthy").length === 2);
    const second = supervisor.pid("api");
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(of("exit")[0]).toMatchObject({ pid: first, code: null, signal: "SIGKILL", expected: false });
    expect(of("restart-scheduled")[0]!.delayMs).toBe(100);
  });

  it("starts the backoff over once a process has stayed healthy long enough", async () => {
    const port = await freePort();
    // Healthy for 500 ms each time, longer than resetBackoffAfterMs.
    const { supervisor, of } = supervise([nodeService("steady", serveThenExit(500, 1), port)], {
      resetBackoffAfterMs: 200,
    });
    await supervisor.start();
    await until(() => of("restart-scheduled").length >= 3);
    expect(of("restart-scheduled").slice(0, 3).map((e) => e.delayMs)).toEqual([100, 100, 100]);
  });

  it("stop() stops every process and restarts none", async () => {
    const [a, b] = [await freePort(), await freePort()];
    const { supervisor, of } = supervise([nodeService("a", serve, a), nodeService("b", serve, b)]);
    await supervisor.start();
    const pids = [supervisor.pid("a"), supervisor.pid("b")];
    expect(pids.every(isRunning)).toBe(true);
    await supervisor.stop();
    expect(pids.some(isRunning)).toBe(false);
    expect(of("exit").map((e) => e.expected)).toEqual([true, true]);
    await sleep(400); // longer than any backoff
    expect(of("spawn")).toHaveLength(2);
    expect(of("restart-scheduled")).toEqual([]);
    expect(supervisor.pid("a")).toBeUndefined();
  });

  it("stop() cancels a restart that is waiting for its backoff", async () => {
    const port = await freePort();
    const { supervisor, of } = supervise([nodeService("api", serve, port)], { initialBackoffMs: 300 });
    await supervisor.start();
    process.kill(supervisor.pid("api")!, "SIGKILL");
    await until(() => of("restart-scheduled").length === 1);
    await supervisor.stop();
    await sleep(500);
    expect(of("spawn")).toHaveLength(1);
  });

  it("stop() during the first start resolves start() with false", async () => {
    const port = await freePort();
    const { supervisor } = supervise([nodeService("slow", `setTimeout(() => { ${serve} }, 5000);`, port)]);
    const started = supervisor.start();
    await sleep(100);
    await supervisor.stop();
    await expect(started).resolves.toBe(false);
  });

  it("gives up, stopping everything, when a process keeps dying before it was ever healthy", async () => {
    const port = await freePort();
    const { supervisor, lines, of } = supervise([
      nodeService("ok", serve, port),
      nodeService("broken", `setTimeout(() => process.exit(1), 100);`),
    ]);
    await expect(supervisor.start()).rejects.toThrow("broken stopped (exit code 1) 3 times without becoming healthy");
    expect(of("spawn", "broken")).toHaveLength(3);
    expect(of("restart-scheduled", "broken").map((e) => e.delayMs)).toEqual([100, 200]);
    expect(of("give-up")).toHaveLength(1);
    // The healthy one was stopped with it, and nothing comes back.
    expect(supervisor.pid("ok")).toBeUndefined();
    expect(of("exit", "ok")).toMatchObject([{ expected: true }]);
    await sleep(400);
    expect(of("spawn")).toHaveLength(4);
    expect(lines.at(-1)).toMatch(/Giving up: stopping everything\.$/);
  });

  it("gives up when a process at first start never answers its health check", async () => {
    const { supervisor, of } = supervise([nodeService("mute", `setInterval(() => {}, 1000);`)], { healthTimeoutMs: 300 });
    await expect(supervisor.start()).rejects.toThrow("mute did not become healthy within 300 ms");
    expect(of("exit", "mute")).toMatchObject([{ expected: true, signal: "SIGTERM" }]);
  });

  it("gives up when the command cannot be started at all", async () => {
    const { supervisor, of } = supervise([
      { name: "missing", command: "/nonexistent/command", args: [], isHealthy: async () => false },
    ]);
    await expect(supervisor.start()).rejects.toThrow("missing stopped (failed to start) 3 times");
    expect(of("spawn")).toHaveLength(3);
  });
});
