import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { backupFilePath, removeLeftBackupWork } from "./backup-jobs.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-left-backups-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Writes `file` (and its folders), last written `hoursAgo`. */
function leave(file: string, hoursAgo = 0) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, "x");
  const at = new Date(Date.now() - hoursAgo * 3600_000);
  fs.utimesSync(file, at, at);
  fs.utimesSync(path.dirname(file), at, at);
}

describe("what a killed backup leaves", () => {
  it("goes at the next start: its table files and its half-written archive; finished backups stay", async () => {
    const finished = backupFilePath(dataDir, "p1", "b1");
    const partial = `${backupFilePath(dataDir, "p1", "b2")}.partial`;
    const work = path.join(dataDir, "tmp", "backup-0d6f", "source.Customers.csv.gz");
    const upload = path.join(dataDir, "tmp", "uploads", "1-ab.upload");
    leave(finished, 48);
    leave(partial, 48);
    leave(work, 48);
    leave(upload, 48);
    // A backup another process is writing now, beside a shared data folder: kept when only old leftovers go.
    const recent = `${backupFilePath(dataDir, "p2", "b3")}.partial`;
    leave(recent);

    expect(await removeLeftBackupWork(dataDir, new Date(Date.now() - 24 * 3600_000))).toBe(2);
    expect([finished, partial, work, recent, upload].map((f) => fs.existsSync(f))).toEqual([true, false, false, true, true]);
    expect(fs.existsSync(path.dirname(work))).toBe(false);
    // The only process: all of them.
    expect(await removeLeftBackupWork(dataDir)).toBe(1);
    expect(fs.existsSync(recent)).toBe(false);
    expect(fs.existsSync(finished)).toBe(true);
    expect(await removeLeftBackupWork(path.join(dataDir, "nothing-here"))).toBe(0);
  });
});
