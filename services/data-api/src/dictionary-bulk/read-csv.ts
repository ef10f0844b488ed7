import { setImmediate as nextTurn } from "node:timers/promises";
import { BULK_UPLOAD_MAX_COLUMNS, BULK_UPLOAD_MAX_ROWS, type RowError } from "../../../../contracts/dictionary.ts";
import { DelimitedFormatError, readDelimitedRecords } from "../data-plane/flat-file/read-delimited.ts";
import { columnBeyondLimitMessage, EMPTY_FILE_MESSAGE, fileProblem, TOO_MANY_ROWS_MESSAGE, type SheetRow } from "./sheet-rows.ts";

/** Rows read between two turns of the event loop. */
const ROWS_PER_TURN = 2000;


/** The file is not valid CSV: one error for the whole file, shown in the review (rows read so far are dropped). */
export class CsvFormatError extends Error {
  override name = "CsvFormatError";
  constructor(readonly rowError: RowError) {
    super(rowError.message);
  }
}

/** The rows of a CSV file in memory (tests, small files): see readCsvRows. */
export async function readCsv(bytes: Uint8Array): Promise<{ rows: SheetRow[]; error?: RowError }> {
  const rows: SheetRow[] = [];
  try {
    for await (const row of readCsvRows([bytes])) rows.push(row);
  } catch (err) {
    if (err instanceof CsvFormatError) return { rows: [], error: err.rowError };
    throw err;
  }
  return { rows };
}

/**
 * The rows of a comma-separated, UTF-8 file (with or without BOM; RFC 4180 quoting; CRLF, LF or
 * CR line ends; data-plane/flat-file/read-delimited.ts reads them), from a stream of chunks: only the
 * current chunk and an unfinished row are held. Blank lines stay as blank rows, so row numbers are
 * the ones a spreadsheet shows. Broken quoting throws CsvFormatError (a row error in the review, not
 * a 400): the user sees it like any other mistake in the file.
 *
 * Read by hand rather than with csv-parse, whose relaxed column count builds an Error (stack trace
 * and all) for every row shorter or longer than the first: some 50 µs a row, so a 5 MB file of
 * line breaks under a header held the event loop for minutes. The file is held to the limits of
 * contracts/dictionary.ts as it goes (more rows than the limit, or a value beyond the column limit,
 * refuses it; empty cells beyond the limit are dropped), with a turn of the event loop every
 * ROWS_PER_TURN rows.
 */
export async function* readCsvRows(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<SheetRow> {
  let anyText = false;
  try {
    let count = 0;
    for await (const record of readDelimitedRecords(decodeUtf8(chunks, (text) => (anyText ||= text.trim() !== "")), { delimiter: ",", quote: '"' })) {
      if (record.row > BULK_UPLOAD_MAX_ROWS) throw fileProblem(413, TOO_MANY_ROWS_MESSAGE);
      const { cells } = record;
      if (cells.length > BULK_UPLOAD_MAX_COLUMNS) {
        const beyond = cells.findIndex((cell, i) => i >= BULK_UPLOAD_MAX_COLUMNS && cell.trim() !== "");
        if (beyond >= 0) throw fileProblem(400, columnBeyondLimitMessage(record.row, (beyond + 1).toLocaleString("en-US")));
        cells.length = BULK_UPLOAD_MAX_COLUMNS;
      }
      yield { row: record.row, cells };
      if (++count % ROWS_PER_TURN === 0) await nextTurn();
    }
  } catch (err) {
    if (err instanceof DelimitedFormatError) throw invalid(err.row, err.problem);
    throw err;
  }
  if (!anyText) throw fileProblem(400, EMPTY_FILE_MESSAGE);
}

/** The chunks as text; `seen` hears each piece. A file in another encoding is refused rather than read with replacement characters; a leading BOM is dropped. */
async function* decodeUtf8(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, seen: (text: string) => void): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const decode = (chunk?: Uint8Array) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw fileProblem(400, "The file is not UTF-8 text: save it as CSV UTF-8 (comma delimited)");
    }
  };
  for await (const chunk of chunks) {
    const text = decode(chunk);
    seen(text);
    yield text;
  }
  const rest = decode();
  seen(rest);
  yield rest;
}

function invalid(row: number, problem: string) {
  return new CsvFormatError({ row, column: null, message: `The file is not valid CSV: on row ${row}, ${problem}` });
}

/** A header read as one field holding another separator: the file was saved with the wrong delimiter. */
export function wrongDelimiter(header: readonly string[]): string | undefined {
  if (header.length !== 1) return undefined;
  const found = [";", "\t", "|"].find((d) => header[0]!.includes(d));
  if (!found) return undefined;
  const name = found === "\t" ? "tabs" : `'${found}'`;
  return `The file is not comma-separated: its header row is one field separated by ${name}. Save it as CSV (comma delimited)`;
}
