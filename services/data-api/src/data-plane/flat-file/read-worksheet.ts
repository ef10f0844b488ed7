/**
 * The rows of an .xlsx file's worksheet for a load, through the dictionary upload's streaming reader
 * (dictionary-bulk/read-xlsx.ts, with its zip-bomb and sparse-sheet checks) under a load's limits:
 * cells as stored (numbers as written, text as typed with its leading zeros, date-styled numbers
 * as ISO dates), rows handed on as the sheet unpacks. A sheet leaves a row's empty cells at its end
 * out: each row gets them back, up to the width of the first row (the header) or of the table.
 */
import fs from "node:fs/promises";
import { ApiProblem } from "../../api-problem.ts";
import { readXlsxBatches, type XlsxLimits } from "../../dictionary-bulk/read-xlsx.ts";
import { beginsAsZip, fileSource } from "../../dictionary-bulk/zip-directory.ts";
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

/**
 * A file that is not even a zip archive (every .xlsx is one) read under the Excel parameters: most often
 * a CSV loaded after the parameters were set for a workbook. Said with what to do, as a workbook read
 * under a text file's parameters is (ZIP_NOT_TEXT_MESSAGE).
 */
export const TEXT_NOT_WORKBOOK_MESSAGE =
  "The file is not an .xlsx workbook: to load a delimited or fixed-length text file (.csv, .txt, .dta), save the parameters with its extension and its delimiter";

/** Whether the file begins as a zip archive does (a local file header, "PK\x03\x04"). */
async function startsAsZip(path: string): Promise<boolean> {
  const file = await fs.open(path, "r");
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(4), 0, 4, 0);
    return beginsAsZip(buffer.subarray(0, bytesRead));
  } finally {
    await file.close();
  }
}

export async function* readWorksheetBatches(
  path: string,
  worksheet: string,
  options: { width: number | "first row"; onBytes: (read: number) => void },
): AsyncGenerator<FlatFileRecord[]> {
  if (!(await startsAsZip(path))) throw new FlatFileProblem(TEXT_NOT_WORKBOOK_MESSAGE);
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
