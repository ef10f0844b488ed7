import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeLeftUploads } from "./receive-upload.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-uploads-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("uploads a dead process left", () => {
  it("are all removed at a start, or with several processes only those untouched since the cut-off; other files stay", async () => {
    const file = (name: string, ageMs: number) => {
      const p = path.join(dir, name);
      fs.writeFileSync(p, "x");
      const at = new Date(Date.now() - ageMs);
      fs.utimesSync(p, at, at);
      return p;
    };
    const old = file("1-old.upload", 48 * 3600_000);
    const fresh = file("2-fresh.upload", 1000);
    const other = file("keep.txt", 48 * 3600_000);
    expect(await removeLeftUploads(dir, new Date(Date.now() - 24 * 3600_000))).toBe(1);
    expect([fs.existsSync(old), fs.existsSync(fresh), fs.existsSync(other)]).toEqual([false, true, true]);
    expect(await removeLeftUploads(dir)).toBe(1);
    expect(fs.existsSync(fresh)).toBe(false);
    expect(await removeLeftUploads(path.join(dir, "missing"))).toBe(0);
  });
});
