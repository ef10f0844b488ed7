/**
 * Measures the dictionary upload's parse path in process: a worker thread parses a generated file
 * (a ~50 MB CSV of ~750,000 rows, and a 125,000-row XLSX) while this thread takes its batches as
 * the data API does, yielding between them. Prints time, peak RSS (both threads) and the worst
 * event-loop delay seen meanwhile. Usage: npx tsx scripts/measure-uploads.ts [dir]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import ExcelJS from "exceljs";
import { parseInWorker } from "../services/data-api/src/dictionary-bulk/parse-in-worker.ts";

const dir = process.argv[2] ?? fs.mkdtempSync(path.join(os.tmpdir(), "measure-uploads-"));
const TYPES = ["int", "nvarchar,100", "decimal,,18,2", "datetime", "bigint"];
const row = (i: number) => {
  const [type, length = "", precision = "", scale = ""] = TYPES[i % TYPES.length]!.split(",");
  return [`Table${Math.floor(i / 40)}`, `Column_${i % 40}`, type!, length, precision, scale, i % 40 === 0 ? "no" : "yes", i % 40 === 0 ? "yes" : "", `Column ${i} of the legacy system`];
};
const HEADER = ["table", "column", "type", "length", "precision", "scale", "nullable", "key", "description"];

async function writeCsv(file: string, rows: number) {
  const out = fs.createWriteStream(file);
  out.write(HEADER.join(",") + "\n");
  for (let i = 0; i < rows; i++) if (!out.write(row(i).join(",") + "\n")) await new Promise<void>((r) => out.once("drain", () => r()));
  await new Promise<void>((r) => out.end(() => r()));
}

async function writeXlsx(file: string, rows: number) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
  const sheet = workbook.addWorksheet("Columns");
  sheet.addRow(HEADER).commit();
  for (let i = 0; i < rows; i++) sheet.addRow(row(i)).commit();
  sheet.commit();
  await workbook.commit();
}

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
if (!fs.existsSync(csv)) await writeCsv(csv, 750_000);
if (!fs.existsSync(xlsx)) await writeXlsx(xlsx, 125_000);
await measure(csv);
await measure(xlsx);
