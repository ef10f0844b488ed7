import { BULK_UPLOAD_EXTENSIONS, BULK_UPLOAD_MAX_BYTES, BULK_UPLOAD_MAX_COLUMNS, BULK_UPLOAD_MAX_ROWS } from "../../../../contracts/dictionary.ts";
import { ApiProblem } from "../api-problem.ts";

/**
 * One row of the uploaded sheet: its number as a spreadsheet shows it (header = 1) and its cells' text. The first
 * row read from a workbook of several worksheets also names them (the one read, then all in tab order): a header
 * that names nothing then says which worksheet was read.
 */
export type SheetRow = { row: number; cells: string[]; worksheets?: { read: string; all: string[] } };

export type BulkFileKind = "csv" | "xlsx";

export const FILE_TOO_LARGE_MESSAGE = `The file is larger than ${BULK_UPLOAD_MAX_BYTES / (1024 * 1024)} MB`;
export const EMPTY_FILE_MESSAGE = "The file is empty";
export const WRONG_EXTENSION_MESSAGE = `Upload a ${BULK_UPLOAD_EXTENSIONS.join(" or ")} file`;
export const TOO_MANY_ROWS_MESSAGE = `The file has more than ${BULK_UPLOAD_MAX_ROWS.toLocaleString("en-US")} rows; a dictionary file has at most ${BULK_UPLOAD_MAX_ROWS.toLocaleString("en-US")}`;

/** A value beyond the column limit; `column` as the file names it ("51", or "XFD (column 16,384)"). */
export function columnBeyondLimitMessage(row: number, column: string) {
  return `Row ${row.toLocaleString("en-US")} has a value in column ${column}; a dictionary file has at most ${BULK_UPLOAD_MAX_COLUMNS} columns`;
}

/**
 * The file-level checks: a file that fails one cannot be reviewed at all, so it answers 400 or
 * 413 with one message on `file` instead of a review (row errors go into the review).
 */
export function checkBulkFile(fileName: string, size: number): BulkFileKind {
  const lower = fileName.toLowerCase();
  const kind = lower.endsWith(".csv") ? "csv" : lower.endsWith(".xlsx") ? "xlsx" : undefined;
  if (!kind) throw fileProblem(400, WRONG_EXTENSION_MESSAGE);
  if (size > BULK_UPLOAD_MAX_BYTES) throw fileProblem(413, FILE_TOO_LARGE_MESSAGE);
  if (size === 0) throw fileProblem(400, EMPTY_FILE_MESSAGE);
  return kind;
}

export function fileProblem(status: 400 | 413, message: string) {
  return new ApiProblem(status, status === 413 ? "payload_too_large" : "invalid_file", message, { file: [message] });
}

export function isBlankRow(cells: readonly string[]) {
  return cells.every((c) => c.trim() === "");
}
