/**
 * How fast a load reads an .xlsx, without the stack (no ports, no PostgreSQL): a generated workbook of
 * ROWS rows (1,000,000 by default) of the bench's 7-column legacy table, read through the load's
 * reader (readFlatFile: the streaming .xlsx reader) and each cell checked and written as COPY text
 * (values.ts), as the load worker does, minus PostgreSQL. Prints rows/s and the peak RSS.
 *
 *   node --import tsx scripts/measure-xlsx-load.ts [rows]
 *
 * The workbook is written by a child process (exceljs's writer would count in this one's RSS).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { flatFileParametersSchema } from "../contracts/projects.ts";
import { readFlatFile } from "../services/data-api/src/data-plane/flat-file/read-flat-file.ts";
import { cellProblem, copyValue } from "../services/data-api/src/data-plane/flat-file/values.ts";
import type { DdlTable } from "../services/data-api/src/data-plane/postgres-ddl.ts";
import { LEGACY_COLUMNS, legacyXlsx } from "./bench/legacy-file.ts";

if (process.argv[2] === "--write") {
  await legacyXlsx(process.argv[3]!, Number(process.argv[4]));
  process.exit(0);
}
const ROWS = Number(process.argv[2] ?? 1_000_000);
const MB = 1024 * 1024;
const table: DdlTable = { name: "Legacy", columns: LEGACY_COLUMNS.map(({ sql: _sql, ...c }) => c) };
const parameters = flatFileParametersSchema.parse({ extension: ".xlsx", delimiter: "Excel", hasHeaderRow: true });

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-measure-xlsx-"));
try {
  const file = path.join(dir, "legacy.xlsx");
  let started = performance.now();
  execFileSync(process.execPath, ["--import", "tsx", import.meta.filename, "--write", file, String(ROWS)], { stdio: "inherit" });
  console.log(
    `wrote ${ROWS.toLocaleString("en")} rows: ${(fs.statSync(file).size / MB).toFixed(1)} MB in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  for (const pass of ["read, check and write as COPY text", "read"] as const) {
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    started = performance.now();
    let rows = 0;
    let rejected = 0;
    let bytes = 0;
    const reading = await readFlatFile(file, parameters, table);
    for await (const record of reading.records) {
      if (rows++ === 0) continue; // the header
      if (pass === "read") continue;
      let line = "";
      for (let c = 0; c < table.columns.length; c++) {
        const column = table.columns[c]!;
        const cell = record.cells[c] ?? "";
        if (cellProblem(column, cell) !== null) {
          rejected++;
          break;
        }
        line += `${copyValue(column, cell)}\t`;
      }
      bytes += line.length;
    }
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const seconds = (performance.now() - started) / 1000;
    const rate = Math.round((rows - 1) / seconds);
    console.log(
      `${pass}: ${(rows - 1).toLocaleString("en")} rows in ${seconds.toFixed(1)} s = ${rate.toLocaleString("en")} rows/s` +
        `${pass === "read" ? "" : ` (${rejected} rejected, ${(bytes / MB).toFixed(0)} MB of COPY text)`}; RSS ${(rssBefore / MB).toFixed(0)} → peak ${(peak / MB).toFixed(0)} MB` +
        ` (goal: ≥ 100,000 rows/s, ≤ 300 MB)`,
    );
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
