import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

/** `npm start` as the README runs it (tsx scripts/start-all.ts), with these variables; nothing else of the stack is needed. */
function startAll(vars: Record<string, string>) {
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dt-start-all-")), "data");
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/start-all.ts"], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, ...vars },
    encoding: "utf8",
    timeout: 30_000,
  });
  const wroteData = fs.existsSync(dataDir);
  fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  return { status: run.status, stderr: run.stderr, wroteData };
}

describe("npm start's own variables", () => {
  it("refuses a bad port by its variable's name, with no stack trace, before it writes anything", () => {
    for (const [name, value] of [
      ["PORTAL_PORT", "abc"],
      ["DATA_API_PORT", ""],
      ["CLIENT_PORTAL_PORT", "70000"],
    ] as const) {
      const { status, stderr, wroteData } = startAll({ [name]: value });
      expect(status, stderr).toBe(1);
      expect(stderr).toContain("npm start: invalid environment");
      expect(stderr).toMatch(new RegExp(`^  ${name}: `, "m"));
      expect(stderr).not.toMatch(/RangeError|ERR_SOCKET_BAD_PORT|\n\s+at /);
      expect(wroteData).toBe(false);
    }
  });
});
