import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { flatFileParametersSchema } from "../../../../../contracts/projects.ts";
import { column } from "../../testing/project-fixtures.ts";
import { ArrivingFile, UPLOAD_STOPPED_MESSAGE, arrivalOf } from "./arriving-file.ts";
import { FlatFileProblem, readFlatFile, type FlatFileRecord } from "./read-flat-file.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-arriving-file-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const TABLE = { name: "Customers", columns: [column("Code", "nvarchar", { length: 10 }), column("Name", "nvarchar", { length: 40 })] };
const CSV = flatFileParametersSchema.parse({ extension: ".csv", delimiter: "Comma", hasHeaderRow: true });

/** 99 KB of text, more than the encoding's sniff reads (64 KB), with a character of two bytes on every line. */
const TEXT = "Code,Name\n" + Array.from({ length: 5_000 }, (_, i) => `C${i},Zoë ${"x".repeat(i % 17)}\n`).join("");
const BYTES = Buffer.from(TEXT);

/** An empty file an upload is about to write, and its records read as it arrives, collected as they come. */
function follow(name: string) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, "");
  const arriving = new ArrivingFile();
  const records: FlatFileRecord[] = [];
  const done = (async () => {
    const reading = await readFlatFile(file, CSV, TABLE, () => {}, arrivalOf(arriving.shared));
    for await (const record of reading.records) records.push(record);
    return records;
  })();
  done.catch(() => undefined);
  return { file, arriving, records, done };
}

/** The records of `bytes` read from a file already whole: what reading one as it arrives must give. */
async function wholeRecords(bytes: Uint8Array) {
  const file = path.join(dir, `whole-${bytes.length}.csv`);
  fs.writeFileSync(file, bytes);
  const records: FlatFileRecord[] = [];
  for await (const record of (await readFlatFile(file, CSV, TABLE)).records) records.push(record);
  return records;
}

/** Written at once, and `grew` told when it is on disk, as the upload's receiver does. */
function append(file: string, arriving: ArrivingFile, from: number, to: number) {
  fs.appendFileSync(file, BYTES.subarray(from, to));
  arriving.grew(to);
}

const until = (what: () => boolean) => vi.waitFor(() => expect(what()).toBe(true), { timeout: 2_000, interval: 10 });

describe("a file read as its upload writes it", () => {
  it("is read as far as it has come, and whole once it is complete, cut anywhere (mid-line, mid-character)", async () => {
    const { file, arriving, records, done } = follow("growing.csv");
    // Cut inside the "ë" of a line past the sniff's 64 KB: lines before it are read before the rest comes.
    const cut = BYTES.indexOf("ë", 70_000) + 1;
    append(file, arriving, 0, cut);
    await until(() => records.length > 2_000);
    const before = records.length;
    expect(before).toBeLessThan(5_000);
    append(file, arriving, cut, BYTES.length - 5);
    append(file, arriving, BYTES.length - 5, BYTES.length);
    arriving.complete(BYTES.length);
    const all = await done;
    expect(all).toHaveLength(5_001);
    expect(all).toEqual(await wholeRecords(BYTES));
  });

  it("a file smaller than the sniff is read once complete", async () => {
    const { file, arriving, records, done } = follow("small.csv");
    append(file, arriving, 0, 30);
    await new Promise((r) => setTimeout(r, 50));
    expect(records).toEqual([]);
    arriving.complete(30);
    expect(await done).toEqual(await wholeRecords(BYTES.subarray(0, 30)));
  });

  it("an upload that stops fails the reading with a problem a user reads", async () => {
    const { file, arriving, records, done } = follow("stopped.csv");
    append(file, arriving, 0, 90_000);
    await until(() => records.length > 0);
    arriving.stop();
    const problem = await done.then(
      () => "read without a problem",
      (err: unknown) => (err instanceof FlatFileProblem ? err.message : err),
    );
    expect(problem).toBe(UPLOAD_STOPPED_MESSAGE);
    // Once ended, nothing changes it: a stop after completion is no stop.
    const complete = new ArrivingFile();
    complete.complete(10);
    complete.stop();
    await expect(arrivalOf(complete.shared).whole()).resolves.toBe(10);
  });
});
