import { describe, expect, it, vi } from "vitest";
import { totalOf } from "./db-helpers.ts";

describe("totalOf", () => {
  const page = (n: number) => ({ page: n, pageSize: 25 });

  it("tells the total from a page that is neither empty nor full, without counting", async () => {
    const count = vi.fn(async () => ({ n: 999 }));
    expect(await totalOf(3, page(1), count)).toBe(3);
    expect(await totalOf(10, page(3), count)).toBe(60);
    expect(await totalOf(0, page(1), count)).toBe(0);
    expect(count).not.toHaveBeenCalled();
  });

  it("counts in SQL after a full page, and after an empty page past the first", async () => {
    expect(await totalOf(25, page(1), async () => ({ n: "80" }))).toBe(80);
    expect(await totalOf(0, page(9), async () => ({ n: 80 }))).toBe(80);
  });
});
