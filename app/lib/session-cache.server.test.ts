import { afterEach, describe, expect, it, vi } from "vitest";
import { dropSessionCache, SESSION_CACHE_TTL_MS, sessionCached } from "./session-cache.server";
import { serviceTiming, traceServiceCall } from "./service-trace.server";

const ann = { sessionId: "s1", userId: "ann" };

afterEach(() => {
  vi.useRealTimers();
  dropSessionCache("s1");
});

describe("sessionCached", () => {
  it("answers from the cache within the TTL, and asks again after it", async () => {
    vi.useFakeTimers();
    const load = vi.fn(async () => "companies");
    await sessionCached(ann, load);
    await sessionCached(ann, load);
    expect(load).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(SESSION_CACHE_TTL_MS);
    await sessionCached(ann, load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("never answers one user's value to another, even for the same session id", async () => {
    await sessionCached(ann, async () => "ann's");
    expect(await sessionCached({ sessionId: "s1", userId: "bob" }, async () => "bob's")).toBe("bob's");
  });

  it("forgets a session that was dropped (logout, a 401 or 403)", async () => {
    await sessionCached(ann, async () => "before");
    dropSessionCache("s1");
    expect(await sessionCached(ann, async () => "after")).toBe("after");
  });

  it("keeps neither a failure nor a value `keep` refuses", async () => {
    await expect(sessionCached(ann, async () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await sessionCached(ann, async () => "up")).toBe("up");
    dropSessionCache("s1");
    await sessionCached(ann, async () => null, (v) => v !== null);
    await Promise.resolve();
    expect(await sessionCached(ann, async () => "roles")).toBe("roles");
  });
});

describe("service trace", () => {
  it("counts the calls, the wall time waited and the sequential depth", () => {
    let now = 0;
    const clock = vi.spyOn(performance, "now").mockImplementation(() => now);
    try {
      const request = new Request("http://portal.test/");
      // Two calls side by side (0–20 ms and 5–20 ms), then one after both ended (30–40 ms).
      const a = traceServiceCall(request);
      now = 5;
      const b = traceServiceCall(request);
      now = 20;
      a();
      b();
      expect(serviceTiming(request)).toEqual({ calls: 2, waitedMs: 20, depth: 1 });
      now = 30;
      const c = traceServiceCall(request);
      now = 40;
      c();
      // The parallel pair counts once: 20 + 10 ms, not 45.
      expect(serviceTiming(request)).toEqual({ calls: 3, waitedMs: 30, depth: 2 });
      expect(serviceTiming(new Request("http://portal.test/other"))).toEqual({ calls: 0, waitedMs: 0, depth: 0 });
    } finally {
      clock.mockRestore();
    }
  });
});
