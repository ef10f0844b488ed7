import { describe, expect, it } from "vitest";
import { createMemorySignInLimiter } from "./rate-limit.ts";

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const MINUTE = 60_000;

describe("sign-in limiter (in memory)", () => {
  it("refuses an account after 5 failures within 15 minutes, whatever the address", async () => {
    const c = clock();
    const limiter = createMemorySignInLimiter({ now: c.now });
    for (let i = 0; i < 5; i++) {
      expect(await limiter.check({ account: "ann@demo.test", address: `10.0.0.${i}` })).toEqual({ allowed: true });
      await limiter.recordFailure({ account: "ann@demo.test", address: `10.0.0.${i}` });
    }
    expect(await limiter.check({ account: "ANN@demo.test", address: "10.0.0.99" })).toEqual({ allowed: false, retryAfterSeconds: 900 });
    expect(await limiter.check({ account: "bob@demo.test", address: "10.0.0.99" })).toEqual({ allowed: true });
  });

  it("opens again when the oldest failures leave the window", async () => {
    const c = clock();
    const limiter = createMemorySignInLimiter({ now: c.now });
    const key = { account: "ann@demo.test", address: "10.0.0.1" };
    for (let i = 0; i < 5; i++) {
      await limiter.recordFailure(key);
      c.advance(MINUTE);
    }
    const refused = await limiter.check(key);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 10 * 60 });
    c.advance(10 * MINUTE);
    expect(await limiter.check(key)).toEqual({ allowed: true });
  });

  it("refuses an address after 20 failures spread over many accounts", async () => {
    const limiter = createMemorySignInLimiter({ now: clock().now });
    for (let i = 0; i < 20; i++) await limiter.recordFailure({ account: `user${i}@demo.test`, address: "192.0.2.7" });
    expect((await limiter.check({ account: "fresh@demo.test", address: "192.0.2.7" })).allowed).toBe(false);
    expect((await limiter.check({ account: "fresh@demo.test", address: "192.0.2.8" })).allowed).toBe(true);
  });

  it("slows each further failure down, up to a ceiling", async () => {
    const limiter = createMemorySignInLimiter({ now: clock().now, baseDelayMs: 250, maxDelayMs: 1_000 });
    const key = { account: "ann@demo.test", address: "10.0.0.1" };
    const delays = [];
    for (let i = 0; i < 4; i++) delays.push((await limiter.recordFailure(key)).delayMs);
    expect(delays).toEqual([250, 500, 1_000, 1_000]);
  });

  it("forgets an account's failures after a successful sign-in", async () => {
    const limiter = createMemorySignInLimiter({ now: clock().now });
    const key = { account: "ann@demo.test", address: "10.0.0.1" };
    for (let i = 0; i < 4; i++) await limiter.recordFailure(key);
    await limiter.recordSuccess(key);
    for (let i = 0; i < 4; i++) await limiter.recordFailure(key);
    expect(await limiter.check(key)).toEqual({ allowed: true });
  });
});
