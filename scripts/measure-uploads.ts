/**
 * Measures the dictionary upload's parse path in process: a worker thread parses a generated file
 * (the bench's 50 MB CSV of ~737,000 rows, and its 125,000-row XLSX) while this thread takes its batches as
 * the data API does, yielding between them. Prints time, peak RSS (both threads) and the worst
 * event-loop delay seen meanwhile. Usage: npx tsx scripts/measure-uploads.ts [dir]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { parseInWorker } from "../services/data-api/src/dictionary-bulk/parse-in-worker.ts";
import { dictionaryCsv, dictionaryXlsx } from "./bench/files.ts";

const dir = process.argv[2] ?? fs.mkdtempSync(path.join(os.tmpdir(), "measure-uploads-"));
async function measure(file: string) {
  if (global.gc) global.gc();
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  let worstLag = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    worstLag = Math.max(worstLag, now - last - 10);
    last = now;
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const started = performance.now();
  let items = 0;
  let rowCount = 0;
  for await (const outcome of parseInWorker(file, path.basename(file))) {
    if (outcome.kind === "batch") {
      items += outcome.items.length;
      await nextTurn();
    } else if (outcome.kind === "end") rowCount = outcome.rowCount;
  }
  const ms = performance.now() - started;
  clearInterval(timer);
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  console.log(
    `${path.basename(file)} (${mb(fs.statSync(file).size)}): ${rowCount.toLocaleString("en-US")} rows, ${items.toLocaleString("en-US")} items in ${(ms / 1000).toFixed(2)} s; ` +
      `RSS ${mb(rssBefore)} before, peak ${mb(peak)}; worst event-loop delay ${worstLag.toFixed(0)} ms`,
  );
}

const csv = path.join(dir, "dictionary-50mb.csv");
const xlsx = path.join(dir, "dictionary-125k.xlsx");
// The bench's files (scripts/bench/files.ts): the same upload, without the served product around it.
if (!fs.existsSync(csv)) await dictionaryCsv(csv, 50 * 1024 * 1024);
if (!fs.existsSync(xlsx)) await dictionaryXlsx(xlsx, 125_000);
await measure(csv);
await measure(xlsx);
