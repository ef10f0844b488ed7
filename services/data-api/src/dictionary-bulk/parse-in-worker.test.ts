import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ApiProblem } from "../api-problem.ts";
import { parseInWorker, PARSE_FAILED_MESSAGE, type ParseOutcome } from "./parse-in-worker.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-parse-worker-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function outcomes(filePath: string, fileName: string) {
  const seen: ParseOutcome[] = [];
  for await (const outcome of parseInWorker(filePath, fileName)) seen.push(outcome);
  return seen;
}

describe("parseInWorker", () => {
  it("parses a file in a worker thread and hands its rows on in bounded batches", async () => {
    const file = path.join(dir, "rows.csv");
    fs.writeFileSync(file, ["table,column,type", ...Array.from({ length: 5000 }, (_, i) => `Orders,C${i},int`)].join("\n"));
    const seen = await outcomes(file, "rows.csv");
    const batches = seen.filter((o) => o.kind === "batch");
    expect(batches.length).toBeGreaterThan(1);
    expect(Math.max(...batches.map((b) => b.items.length))).toBeLessThanOrEqual(2000);
    expect(batches.reduce((n, b) => n + b.items.length, 0)).toBe(5000);
    expect(seen.at(-1)).toEqual({ kind: "end", rowCount: 5000 });
  });

  it("says with each batch how many of the file's rows it has read, not how many items it found: a row in error yields more than one", async () => {
    // Every row has a type no column may have: its problem, and its staged row (duplicates are still looked for).
    const file = path.join(dir, "bad-types.csv");
    fs.writeFileSync(file, ["table,column,type", ...Array.from({ length: 5000 }, (_, i) => `Orders,C${i},money`)].join("\n"));
    const seen = await outcomes(file, "bad-types.csv");
    const batches = seen.flatMap((o) => (o.kind === "batch" ? [o] : []));
    expect(batches.reduce((n, b) => n + b.items.length, 0)).toBe(10_000);
    const rowsRead = batches.map((b) => b.rowsRead);
    expect(rowsRead.every((rows, i) => rows > 0 && rows <= 5000 && rows >= (rowsRead[i - 1] ?? 0))).toBe(true);
    expect(rowsRead.at(-1)).toBe(5000);
    expect(seen.at(-1)).toEqual({ kind: "end", rowCount: 5000 });
  });

  it("reads a valid file of long rows whole: 64 MB whose descriptions are padded with spaces", async () => {
    // Each row is 10 KB as written and 1 KB once trimmed: 2,000 of them once made the worker hold
    // 20 MB of text and run out of its heap, answering "could not be read" for a valid file.
    const file = path.join(dir, "padded.csv");
    const row = (i: number) => `T${i % 80},Column${i},int,,,,,,${"d".repeat(990)}${" ".repeat(9000)}`;
    fs.writeFileSync(file, ["table,column,type,length,precision,scale,nullable,key,description", ...Array.from({ length: 6400 }, (_, i) => row(i))].join("\n"));
    const seen = await outcomes(file, "padded.csv");
    const items = seen.flatMap((o) => (o.kind === "batch" ? o.items : []));
    expect(items.filter((item) => "problem" in item)).toEqual([]);
    expect(items).toHaveLength(6400);
    expect(items[6399]).toMatchObject({ staged: { tableName: "T79", columnName: "Column6399", column: { description: "d".repeat(990) } } });
    expect(seen.at(-1)).toEqual({ kind: "end", rowCount: 6400 });
  }, 60_000);

  it("answers a file-level problem found in the worker as its ApiProblem", async () => {
    const file = path.join(dir, "empty.csv");
    fs.writeFileSync(file, "\n\n");
    const err = await outcomes(file, "empty.csv").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiProblem);
    expect(err).toMatchObject({ statusCode: 400, message: "The file is empty", fieldErrors: { file: ["The file is empty"] } });
  });

  it("turns an unexpected failure in the worker into a clear 400 on `file`", async () => {
    const err = await outcomes(path.join(dir, "gone.csv"), "gone.csv").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiProblem);
    expect(err).toMatchObject({ statusCode: 400, message: PARSE_FAILED_MESSAGE, fieldErrors: { file: [PARSE_FAILED_MESSAGE] } });
  });
});
