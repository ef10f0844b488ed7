import { describe, expect, it } from "vitest";
import { ConnectionsBusyError, createServerConnections } from "./server-connections.ts";

describe("the connections' budget of a server", () => {
  it("is asked of the server again when the server did not answer (starting again), rather than refusing every later work", async () => {
    let asked = 0;
    const connections = createServerConnections({
      budget: async () => {
        asked++;
        if (asked === 1) throw new Error("the database system is starting up");
        return 0;
      },
      perKey: 1,
      idleMs: 1000,
      waitMs: 30_000,
    });
    await expect(connections.acquire("k", "postgres://127.0.0.1:1/x")).rejects.toThrow(/starting up/);
    // Asked again: with a budget of 0 and nothing to release, the work waits (it is not refused with the old error).
    const second = connections.acquire("k", "postgres://127.0.0.1:1/x");
    const outcome = await Promise.race([
      second.then(
        () => "connected",
        (err: Error) => err.message,
      ),
      new Promise((r) => setTimeout(() => r("waiting"), 100)),
    ]);
    expect(outcome).toBe("waiting");
    expect(asked).toBe(2);
  });

  it("refuses work that waited its time for a connection while the budget stayed spent, rather than letting it wait for ever", async () => {
    const connections = createServerConnections({ budget: 0, perKey: 1, idleMs: 1000, waitMs: 150 });
    const started = Date.now();
    await expect(connections.acquire("k", "postgres://127.0.0.1:1/x")).rejects.toBeInstanceOf(ConnectionsBusyError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });
});
