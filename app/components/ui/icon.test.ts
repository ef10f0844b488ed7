import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ICON_NAMES } from "./icon-names";

describe("the icon sprite", () => {
  it("draws every icon the pages may name (else run scripts/icon-sprite.ts)", () => {
    const sprite = fs.readFileSync(path.join(import.meta.dirname, "icons.svg"), "utf8");
    const drawn = [...sprite.matchAll(/<symbol id="([^"]+)"/g)].map((m) => m[1]);
    expect(drawn).toEqual([...ICON_NAMES]);
  });
});
