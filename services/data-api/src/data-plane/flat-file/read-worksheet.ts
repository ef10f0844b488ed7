/**
 * The rows of an .xlsx file's worksheet for a load, through the dictionary upload's streaming reader
 * (dictionary-bulk/read-xlsx.ts, with its zip-bomb and sparse-sheet checks) under a load's limits:
 * cells as stored (numbers as written, text as typed with its leading zeros, date-styled numbers
 * as ISO dates), rows handed on as the sheet unpacks. A sheet leaves a row's empty cells at its end
 * out: each row gets them back, up to the width of the first row (the header) or of the table.
 */
import { ApiProblem } from "../../api-problem.ts";
import { readXlsxBatches, type XlsxLimits } from "../../dictionary-bulk/read-xlsx.ts";
import { fileSource } from "../../dictionary-bulk/zip-directory.ts";
import { FlatFileProblem, type FlatFileRecord } from "./flat-file-problem.ts";

/** Excel's own sheet holds 1,048,576 rows; PostgreSQL's table at most 1,600 columns. */
export const LOAD_XLSX_LIMITS: XlsxLimits = {
  what: "a load",
  maxRows: 1_048_576,
  maxColumns: 1_600,
  maxUnpackedBytes: 8 * 1024 ** 3,
  // Held in memory while the sheet is read: the load's memory stays within bounds.
  maxSharedStringsBytes: 96 * 1024 ** 2,
  // Rows are handed on, not kept: no limit on the sheet's text as a whole.
  maxTextChars: Number.POSITIVE_INFINITY,
  maxCellChars: 1024 ** 2,
};

export async function* readWorksheetBatches(
  path: string,
  worksheet: string,
  options: { width: number | "first row"; onBytes: (read: number) => void },
): AsyncGenerator<FlatFileRecord[]> {
  const file = fileSource(path);
  // Progress: how far into the file the sheet's packed bytes have been read.
  const source = {
    ...file,
    stream(start: number, end: number) {
      const stream = file.stream(start, end);
      let at = start;
      stream.on("data", (chunk: Buffer) => options.onBytes((at += chunk.length)));
      return stream;
    },
  };
  let width = options.width === "first row" ? undefined : options.width;
  try {
    for await (const rows of readXlsxBatches(source, "", { worksheet, cells: "stored", limits: LOAD_XLSX_LIMITS })) {
      for (const { cells } of rows) {
        width ??= cells.length;
        while (cells.length < width) cells.push("");
      }
      yield rows;
    }
  } catch (err) {
    if (err instanceof ApiProblem) throw new FlatFileProblem(err.message.replace(/\.$/, ""));
    throw err;
  } finally {
    file.close();
  }
}
