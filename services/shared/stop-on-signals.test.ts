import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Logger } from "./logger.ts";
import { stopOnSignals, type StopOptions } from "./stop-on-signals.ts";

/** What a stop did, in order, with the time since the signal: log lines, cleanup, exit. */
type Event = { what: string; atMs: number };

const handlers: ((signal: NodeJS.Signals) => Promise<void>)[] = [];
const servers: http.Server[] = [];
afterEach(() => {
  for (const stop of handlers.splice(0)) {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  for (const server of servers.splice(0)) server.closeAllConnections();
});

/**
 * A real server whose /slow requests answer after `slowMs`, stopped by stopOnSignals with `options`;
 * `signal` calls the handler it registered, as the signal would. Nothing ends vitest's process: exit is recorded.
 */
async function stoppable(options: Partial<StopOptions> & { slowMs?: number } = {}) {
  const { slowMs = 60_000, ...rest } = options;
  const events: Event[] = [];
  let signalledAt = 0;
  const record = (what: string) => events.push({ what, atMs: Date.now() - signalledAt });
  const log = (level: string) => (msg: string) => void record(`${level}: ${msg}`);
  const logger: Logger = { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
  const server = http.createServer((req, res) => {
    if (req.url === "/slow") setTimeout(() => res.end("late"), slowMs);
    else res.end("ok");
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  let exited: (code: number) => void;
  const exit = new Promise<number>((resolve) => (exited = resolve));
  const stop = stopOnSignals(server, {
    graceMs: 5_000,
    logger,
    exit: (code) => {
      record(`exit ${code}`);
      exited(code);
    },
    ...rest,
  });
  handlers.push(stop);
  const signal = (name: NodeJS.Signals) => {
    signalledAt ||= Date.now();
    return stop(name);
  };
  return { server, port, events, exit, signal, record };
}

/** A GET on a keep-alive connection: the body, or how the connection ended. */
function get(port: number, path: string, agent: http.Agent): Promise<string> {
  return new Promise((resolve) => {
    http
      .get({ port, host: "127.0.0.1", path, agent }, (res) => {
        let body = "";
        res.on("data", (c: Buffer) => (body += c.toString()));
        res.on("end", () => resolve(body));
        res.on("error", (err) => resolve(`ended: ${err.message}`));
      })
      .on("error", (err) => resolve(`ended: ${err.message}`));
  });
}

describe("stopping a server on SIGINT or SIGTERM", () => {
  it("is not held by an idle keep-alive connection: closed, cleaned up and exited 0 at once", async () => {
    const s = await stoppable({ cleanup: async () => void s.record("cleanup") });
    const agent = new http.Agent({ keepAlive: true });
    expect(await get(s.port, "/", agent)).toBe("ok");
    await s.signal("SIGTERM");
    expect(await s.exit).toBe(0);
    expect(s.events.map((e) => e.what)).toEqual(["info: stopping", "cleanup", "exit 0"]);
    expect(s.events.at(-1)!.atMs).toBeLessThan(1_000);
    agent.destroy();
  });

  it("gives a request under way the grace period, then cuts it, then cleans up after the close and exits 0", async () => {
    const s = await stoppable({ graceMs: 600, cleanup: async () => void s.record(`cleanup, listening: ${s.server.listening}`) });
    const agent = new http.Agent({ keepAlive: true });
    const slow = get(s.port, "/slow", agent).then((body) => (s.record(`request: ${body}`), body));
    await new Promise((resolve) => setTimeout(resolve, 100));
    void s.signal("SIGINT");
    expect(await s.exit).toBe(0);
    expect(await slow).toMatch(/^ended: /);
    const at = (what: string) => s.events.find((e) => e.what === what)?.atMs;
    expect(at("request: ended: socket hang up")).toBeGreaterThanOrEqual(550);
    expect(at("request: ended: socket hang up")).toBeLessThan(2_000);
    // The client hears of the cut a moment after the server's close: their order is the network's.
    expect(s.events.map((e) => e.what).filter((what) => !what.startsWith("request"))).toEqual(["info: stopping", "cleanup, listening: false", "exit 0"]);
    expect(at("cleanup, listening: false")).toBeGreaterThanOrEqual(550);
    agent.destroy();
  });

  it("lets a request that ends within the grace period answer, and stops once it has, not at the grace's end", async () => {
    const s = await stoppable({ graceMs: 3_000, slowMs: 300 });
    const agent = new http.Agent({ keepAlive: true });
    const slow = get(s.port, "/slow", agent);
    await new Promise((resolve) => setTimeout(resolve, 50));
    void s.signal("SIGTERM");
    expect(await slow).toBe("late");
    expect(await s.exit).toBe(0);
    expect(s.events.at(-1)!.atMs).toBeLessThan(1_000);
    agent.destroy();
  });

  it("runs beforeClose first, and with afterGrace exit ends the process with 1 when the grace ends before the cleanup", async () => {
    const s = await stoppable({
      graceMs: 300,
      afterGrace: "exit",
      beforeClose: () => void s.record("beforeClose"),
      cleanup: () => new Promise(() => s.record("cleanup, never done")),
    });
    void s.signal("SIGTERM");
    expect(await s.exit).toBe(1);
    expect(s.events.map((e) => e.what)).toEqual([
      "info: stopping",
      "beforeClose",
      "cleanup, never done",
      "warn: requests still open after the grace period; exiting anyway",
      "exit 1",
    ]);
    expect(s.events.at(-1)!.atMs).toBeGreaterThanOrEqual(250);
  });

  it("does nothing on a second signal: one stop, one cleanup, one exit", async () => {
    const s = await stoppable({ cleanup: async () => void s.record("cleanup") });
    // The handler the signals call (called here directly: vitest's own handlers would hear an emitted signal too).
    expect(process.listeners("SIGINT")).toContain(handlers.at(-1));
    expect(process.listeners("SIGTERM")).toContain(handlers.at(-1));
    await Promise.all([s.signal("SIGINT"), s.signal("SIGTERM"), s.signal("SIGINT")]);
    expect(await s.exit).toBe(0);
    expect(s.events.map((e) => e.what)).toEqual(["info: stopping", "cleanup", "exit 0"]);
  });

  it("exits 1 with the error logged when the cleanup fails", async () => {
    const s = await stoppable({ cleanup: () => Promise.reject(new Error("the database would not close")) });
    await s.signal("SIGTERM");
    expect(await s.exit).toBe(1);
    expect(s.events.map((e) => e.what)).toEqual(["info: stopping", "error: stop failed", "exit 1"]);
  });
});
