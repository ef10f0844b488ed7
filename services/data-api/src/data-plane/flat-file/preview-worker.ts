/**
 * The worker thread of a preview (preview-in-worker.ts starts it): the first rows of each file, read
 * as the load will read them, and its columns matched to its table's. Off the request thread: an
 * .xlsx must read its shared strings before its first row, which for a big workbook takes a while.
 */
import { parentPort, workerData } from "node:worker_threads";
import { PREVIEW_ROWS, type PreviewFile } from "../../../../../contracts/loads.ts";
import { headerProblem, matchColumns, rowWidthProblem } from "./column-match.ts";
import { cellProblem, rowReason } from "./values.ts";
import type { PreviewRequest, PreviewWorkerMessage } from "./preview-messages.ts";
import { noRowsProblem } from "./flat-file-problem.ts";
import { DelimitedFormatError, unreadableFileMessage } from "./read-delimited.ts";
import { DELIMITER_CHARACTERS, FlatFileProblem, isBlankRecord, readFlatFile } from "./read-flat-file.ts";

const request = workerData as PreviewRequest;

async function previewFile(file: PreviewRequest["files"][number]): Promise<PreviewFile> {
  const preview: PreviewFile = {
    name: file.name,
    bytes: file.size,
    table: file.table?.name ?? null,
    encoding: null,
    delimiter: null,
    header: null,
    rows: [],
    columns: [],
    missingColumns: [],
    extraColumns: [],
    problem: null,
  };
  const { hasHeaderRow } = request.parameters;
  try {
    // A file that matches no table is read as a table without columns would be: its rows, as cells.
    const reading = await readFlatFile(file.path, request.parameters, file.table ?? { name: file.name, columns: [] });
    preview.encoding = reading.encoding;
    // By its parameter's name (Comma, Tab…), as the parameters form names it.
    preview.delimiter = Object.entries(DELIMITER_CHARACTERS).find(([, c]) => c === reading.delimiter)?.[0] ?? reading.delimiter;
    for await (const record of reading.records) {
      if (hasHeaderRow && preview.header === null) {
        preview.header = record.cells;
        continue;
      }
      if (isBlankRecord(record)) continue;
      preview.rows.push({ line: record.row, cells: record.cells });
      if (preview.rows.length >= PREVIEW_ROWS) break;
    }
    await reading.records.return(undefined);
  } catch (err) {
    if (err instanceof FlatFileProblem) preview.problem = err.message;
    else if (err instanceof DelimitedFormatError) preview.problem = unreadableFileMessage(err);
    else throw err;
    return preview;
  }
  if (hasHeaderRow && preview.header === null) return { ...preview, problem: "The file is empty" };
  if (!file.table) return preview;
  const cellCount = preview.header?.length ?? Math.max(0, ...preview.rows.map((r) => r.cells.length));
  const match = matchColumns(preview.header, file.table.columns, cellCount);
  preview.columns = match.positions.map((column, i) => ({ file: preview.header?.[i]?.trim() ?? `column ${i + 1}`, table: column?.name ?? null }));
  preview.missingColumns = match.missing;
  preview.extraColumns = match.extra;
  // Each row as the load would judge it: the first cell that does not fit its column, the others named in its reason (a column the file lacks is empty).
  const cellOf = (cells: string[], column: (typeof file.table.columns)[number]) => {
    const at = match.positions.indexOf(column);
    return at < 0 ? "" : (cells[at] ?? "");
  };
  for (const row of preview.rows) {
    const width = rowWidthProblem(row.cells.length, match.positions.length, hasHeaderRow ? "header" : "table");
    if (width !== null) {
      row.rejected = { column: null, value: null, reason: width };
      continue;
    }
    let first: { column: string; value: string; reason: string } | undefined;
    const others: string[] = [];
    for (const column of file.table.columns) {
      const cell = cellOf(row.cells, column);
      const reason = cellProblem(column, cell, request.parameters.dateOrder);
      if (!reason) continue;
      if (first) others.push(`${column.name}: ${reason}`);
      else first = { column: column.name, value: cell, reason };
    }
    if (first) row.rejected = { ...first, reason: rowReason(first.reason, others) };
  }
  // A file without rows can only empty its table: said before the load refuses a Replace of it.
  preview.problem = (hasHeaderRow ? headerProblem(match, file.table.name) : null) ?? (preview.rows.length === 0 ? noRowsProblem(file.table.name) : null);
  return preview;
}

async function run(): Promise<PreviewFile[]> {
  const files: PreviewFile[] = [];
  for (const file of request.files) files.push(await previewFile(file));
  return files;
}

run().then(
  (files) => parentPort!.postMessage({ kind: "end", files } satisfies PreviewWorkerMessage),
  (err: unknown) =>
    parentPort!.postMessage({ kind: "crash", message: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies PreviewWorkerMessage),
);
