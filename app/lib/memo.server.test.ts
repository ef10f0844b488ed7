import { describe, expect, it, vi } from "vitest";
import { memoize } from "./memo.server";

describe("memoize", () => {
  it("loads once within the time to live, again after it", async () => {
    vi.useFakeTimers();
    let calls = 0;
    const get = memoize(60_000, async () => ++calls);
    expect(await get()).toBe(1);
    expect(await get()).toBe(1);
    vi.advanceTimersByTime(60_001);
    expect(await get()).toBe(2);
    vi.useRealTimers();
  });

  it("does not remember a failure", async () => {
    let calls = 0;
    const get = memoize(60_000, async () => {
      calls++;
      if (calls === 1) throw new Error("down");
      return "up";
    });
    await expect(get()).rejects.toThrow("down");
    expect(await get()).toBe("up");
  });
});
