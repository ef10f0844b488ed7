/**
 * The worker thread of "Translate a file" (translate-in-worker.ts starts it): reads the client's file
 * as a flat-file load reads it, replaces each translated column's values by their targets, applies
 * the column's rule to a value its map lacks (keep it, put the default, or reject the row), rejects
 * a row whose number of values is not the file's and skips a blank line, as a load does, and writes
 * the result as UTF-8 CSV, a record at a time with backpressure: neither file is ever held whole.
 */
import fs from "node:fs";
import { once } from "node:events";
import { parentPort, workerData } from "node:worker_threads";
import { TRANSLATION_REPORT_SAMPLE } from "../../../../contracts/values/mappings.ts";
import type { TranslationReport } from "../../../../contracts/mappings.ts";
import { rowWidthProblem } from "../data-plane/flat-file/column-match.ts";
import { DelimitedFormatError } from "../data-plane/flat-file/read-delimited.ts";
import { FlatFileProblem, isBlankRecord, readFlatFile } from "../data-plane/flat-file/read-flat-file.ts";
import { csvLine } from "./csv-line.ts";
import { matchTranslationColumns, translationHeaderProblem } from "./header-problem.ts";
import type { TranslateProgress, TranslateRequest, TranslateWorkerMessage } from "./translate-messages.ts";

const request = workerData as TranslateRequest;
const post = (message: TranslateWorkerMessage) => parentPort!.postMessage(message);

/** Unmapped values kept per column for the report (the most frequent are listed); the rest only counted. */
const TRACKED_UNMAPPED = 10_000;
const PROGRESS_EVERY_MS = 250;
/** Lines written per write call: fewer, larger writes. */
const LINES_PER_WRITE = 256;
const SYNC_EVERY_BYTES = 32 * 1024 * 1024;
const BYTE_ORDER_MARK = "\uFEFF";

async function translate(): Promise<void> {
  const progress: TranslateProgress = { bytesRead: 0, rowsRead: 0, rowsWritten: 0, rowsRejected: 0 };
  const maps = request.translated.map((t) => ({ ...t, map: new Map(t.pairs), unmapped: new Map<string, number>(), cells: 0 }));
  const rejected: TranslationReport["rejected"] = [];
  // Lines queue up to 1 MiB before the translation waits for the disk (written together, with writev):
  // with the default 16 KiB it waited for nearly every write.
  const outFd = fs.openSync(request.outPath, "w");
  const out = fs.createWriteStream(request.outPath, { fd: outFd, highWaterMark: 1024 * 1024 });
  let lastPost = Date.now();
  const reading = await readFlatFile(request.path, request.parameters, request.table, (read) => {
    progress.bytesRead = read;
  });
  const { hasHeaderRow } = request.parameters;
  let positions: number[] | undefined;
  /** The file's number of values: its header's, else its first row's. */
  let width = 0;
  // The translated file is UTF-8. It starts with UTF-8's byte-order mark unless the client's file was UTF-8 (or,
  // as far as its start tells, ASCII) without one: a file that carried a mark keeps one, and a workbook's or a
  // code page's accents are read back as they were (a spreadsheet reads UTF-8 without the mark as its code page:
  // "ZoÃ«" for "Zoë").
  const marked = reading.byteOrderMark !== null || reading.encoding !== "UTF-8";
  let pending: string[] = marked ? [BYTE_ORDER_MARK] : [];
  // The output's written bytes go to the disk every SYNC_EVERY_BYTES, one flush at a time beside the
  // writing: left to the kernel, a gigabyte of dirty pages made every fsync of the process (SQLite's
  // commits, on the data API's thread) wait behind it, and /healthz with them (274–313 ms, measured).
  let unsynced = 0;
  let syncing: Promise<void> = Promise.resolve();
  const flush = async () => {
    if (!pending.length) return;
    const text = pending.join("");
    pending = [];
    unsynced += text.length;
    if (!out.write(text)) await once(out, "drain");
    if (unsynced >= SYNC_EVERY_BYTES) {
      unsynced = 0;
      await syncing;
      syncing = new Promise((resolve) => fs.fdatasync(outFd, () => resolve()));
    }
  };
  try {
    // In batches: a promise per row would cost more than the translation (read-delimited.ts).
    for await (const batch of reading.batches)
      for (const record of batch) {
        // A blank line or one of only delimiters is no row, as a load reads it: skipped, counted nowhere,
        // and without a header it is not the first row that gives the file its width.
        if ((positions || !hasHeaderRow) && isBlankRecord(record)) continue;
        if (!positions) {
          const match = matchTranslationColumns(hasHeaderRow ? record.cells : null, request.table.columns, record.cells.length);
          const problem = hasHeaderRow ? translationHeaderProblem(record.cells, match, request.table.name) : null;
          if (problem) throw new FlatFileProblem(problem);
          positions = maps.map((m) => match.positions.findIndex((p) => p?.name.toLowerCase() === m.name.toLowerCase()));
          width = record.cells.length;
          if (hasHeaderRow) {
            // The same columns as the file, under its own header.
            pending.push(csvLine(record.cells));
            continue;
          }
        }
        progress.rowsRead++;
        const cells = record.cells;
        // A row with more or fewer values than the file's is rejected whole, as a load rejects it: its
        // values are not under their columns' header, so none is translated.
        const misfit = rowWidthProblem(cells.length, width, hasHeaderRow ? "header" : "first row");
        let rejection: TranslationReport["rejected"][number] | null = misfit === null ? null : { row: record.row, column: null, reason: misfit };
        for (let i = 0; misfit === null && i < maps.length; i++) {
          const at = positions[i]!;
          if (at < 0 || at >= cells.length) continue;
          const value = cells[at]!;
          if (value === "") continue;
          const m = maps[i]!;
          const target = m.map.get(value);
          if (target !== undefined) {
            cells[at] = target;
            continue;
          }
          m.cells++;
          const seen = m.unmapped.get(value);
          if (seen !== undefined) m.unmapped.set(value, seen + 1);
          else if (m.unmapped.size < TRACKED_UNMAPPED) m.unmapped.set(value, 1);
          if (m.rule === "Default") cells[at] = m.defaultValue ?? "";
          else if (m.rule === "Reject") rejection ??= { row: record.row, column: m.name, value };
        }
        if (rejection) {
          progress.rowsRejected++;
          if (rejected.length < TRANSLATION_REPORT_SAMPLE) rejected.push(rejection);
        } else {
          pending.push(csvLine(cells));
          progress.rowsWritten++;
          if (pending.length >= LINES_PER_WRITE) await flush();
        }
        if (Date.now() - lastPost >= PROGRESS_EVERY_MS) {
          lastPost = Date.now();
          post({ kind: "progress", ...progress });
        }
      }
    await flush();
    await syncing;
  } catch (err) {
    // The output file's descriptor is the process's, not this thread's: closed here, not left open.
    out.destroy();
    throw err;
  }
  out.end();
  await once(out, "finish");
  if (!positions) throw new FlatFileProblem("The file is empty");
  const report: TranslationReport = {
    columns: maps.map((m) => ({
      name: m.name,
      rule: m.rule,
      unmappedCells: m.cells,
      unmappedDistinct: m.unmapped.size,
      unmappedValues: [...m.unmapped]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, TRANSLATION_REPORT_SAMPLE)
        .map(([value, count]) => ({ value, count })),
    })),
    rejected,
  };
  post({ kind: "end", report, ...progress });
}

translate().catch((err: unknown) => {
  if (err instanceof FlatFileProblem) post({ kind: "problem", message: err.message });
  else if (err instanceof DelimitedFormatError) post({ kind: "problem", message: `The file could not be read: ${err.message}` });
  else post({ kind: "crash", message: err instanceof Error ? (err.stack ?? err.message) : String(err) });
});
