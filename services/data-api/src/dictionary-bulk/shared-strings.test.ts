import { describe, expect, it } from "vitest";
import { SharedStrings } from "./shared-strings.ts";

describe("a workbook's shared strings", () => {
  it("answers each string by its index, across the parts it joins them into, and nothing past the end", () => {
    const strings = new SharedStrings();
    const texts = Array.from({ length: 10_000 }, (_, i) => (i % 7 === 0 ? "" : `text ${i} é ${"x".repeat(i % 20)}`));
    texts.forEach((text) => strings.push(text));
    expect(strings.length).toBe(10_000);
    for (const i of [0, 1, 4095, 4096, 4097, 8191, 8192, 9999]) expect(strings.at(i)).toBe(texts[i]);
    expect(texts.every((text, i) => strings.at(i) === text)).toBe(true);
    for (const i of [-1, 10_000, 2 ** 32 + 5, 0.5]) expect(strings.at(i)).toBeUndefined();
  });
});
