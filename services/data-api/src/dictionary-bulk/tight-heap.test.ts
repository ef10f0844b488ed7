import v8 from "node:v8";
import { afterEach, describe, expect, it, vi } from "vitest";
import { withTightHeap } from "./tight-heap.ts";

describe("withTightHeap", () => {
  afterEach(() => vi.restoreAllMocks());

  it("tightens the heap once for overlapping reviews and gives V8 its own choice back when the last ends", async () => {
    const set = vi.spyOn(v8, "setFlagsFromString");
    let endFirst!: () => void;
    const first = withTightHeap(() => new Promise<void>((resolve) => (endFirst = resolve)));
    const second = withTightHeap(async () => "stored");
    expect(await second).toBe("stored");
    // The first still runs: the heap stays tight.
    expect(set.mock.calls).toEqual([["--heap-growing-percent=50"]]);
    endFirst();
    await first;
    expect(set.mock.calls).toEqual([["--heap-growing-percent=50"], ["--heap-growing-percent=0"]]);
  });

  it("gives the default back when the review fails", async () => {
    const set = vi.spyOn(v8, "setFlagsFromString");
    await expect(withTightHeap(() => Promise.reject(new Error("unreadable")))).rejects.toThrow("unreadable");
    expect(set.mock.calls.at(-1)).toEqual(["--heap-growing-percent=0"]);
    // A review after it tightens the heap again.
    await withTightHeap(async () => undefined);
    expect(set.mock.calls).toHaveLength(4);
  });
});
