import { setImmediate as nextTurn } from "node:timers/promises";
import { BULK_UPLOAD_MAX_COLUMNS, BULK_UPLOAD_MAX_ROWS, type RowError } from "../../../../contracts/dictionary.ts";
import { columnBeyondLimitMessage, EMPTY_FILE_MESSAGE, fileProblem, TOO_MANY_ROWS_MESSAGE, type SheetRow } from "./sheet-rows.ts";

/** Rows read between two turns of the event loop. */
const ROWS_PER_TURN = 2000;

const COMMA = 44;
const QUOTE = 34;
const CR = 13;
const LF = 10;

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
 * CR line ends), read from a stream of chunks: a row is handed on once it is complete, so only the
 * current chunk and an unfinished row are held. Blank lines stay as blank rows, so row numbers are
 * the ones a spreadsheet shows. Broken quoting throws CsvFormatError (a row error in the review, not
 * a 400): the user sees it like any other mistake in the file.
 *
 * Read by hand rather than with csv-parse, whose relaxed column count builds an Error (stack trace
 * and all) for every row shorter or longer than the first: some 50 µs a row, so a 5 MB file of
 * line breaks under a header held the event loop for minutes. This reader holds the file to the
 * limits of contracts/dictionary.ts as it goes (more rows than the limit, or a value beyond the
 * column limit, refuses it; empty cells beyond the limit are dropped) and gives the event loop a
 * turn every ROWS_PER_TURN rows.
 */
export async function* readCsvRows(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<SheetRow> {
  // fatal: a file in another encoding is refused rather than read with replacement characters.
  // The decoder drops a leading BOM.
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const decode = (chunk?: Uint8Array) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw fileProblem(400, "The file is not UTF-8 text: save it as CSV UTF-8 (comma delimited)");
    }
  };
  let text = "";
  let row = 0;
  let anyText = false;
  // A row cut by the chunk's end is read again once more text came; waiting until the text has
  // doubled keeps a row of millions of cells linear.
  let needLength = 0;
  const take = function* (final: boolean): Generator<SheetRow> {
    let at = 0;
    while (at < text.length) {
      const read = readRow(text, at, row + 1, final);
      if (read === undefined) {
        needLength = (text.length - at) * 2;
        break;
      }
      row++;
      if (row > BULK_UPLOAD_MAX_ROWS) throw fileProblem(413, TOO_MANY_ROWS_MESSAGE);
      at = read.next;
      yield { row, cells: read.cells };
    }
    text = text.slice(at);
  };
  for await (const chunk of chunks) {
    const decoded = decode(chunk);
    if (!anyText && decoded.trim() !== "") anyText = true;
    text += decoded;
    if (text.length < needLength) continue;
    needLength = 0;
    let count = 0;
    for (const r of take(false)) {
      yield r;
      if (++count % ROWS_PER_TURN === 0) await nextTurn();
    }
  }
  const rest = decode();
  if (!anyText && rest.trim() === "") throw fileProblem(400, EMPTY_FILE_MESSAGE);
  text += rest;
  let count = 0;
  for (const r of take(true)) {
    yield r;
    if (++count % ROWS_PER_TURN === 0) await nextTurn();
  }
}

/** One row from `at`: its cells and where the next starts, or undefined when it may go on in the next chunk. */
function readRow(text: string, start: number, row: number, final: boolean): { cells: string[]; next: number } | undefined {
  const length = text.length;
  let at = start;
  const cells: string[] = [];
  let column = 0;
  for (;;) {
    let value: string;
    if (text.charCodeAt(at) === QUOTE) {
      // A quoted field: "" is a quote; it may hold commas and line breaks.
      const parts: string[] = [];
      let from = at + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote < 0) {
          if (!final) return undefined;
          throw invalid(row, "a quoted field is never closed");
        }
        parts.push(text.slice(from, quote));
        if (quote + 1 === length && !final) return undefined;
        if (text.charCodeAt(quote + 1) === QUOTE) {
          parts.push('"');
          from = quote + 2;
          continue;
        }
        at = quote + 1;
        break;
      }
      const next = text.charCodeAt(at);
      if (at < length && next !== COMMA && next !== CR && next !== LF) {
        throw invalid(row, "a quote inside a quoted field must be doubled (\"\"), and a closing quote followed by a comma or the end of the line");
      }
      value = parts.join("");
    } else {
      const from = at;
      while (at < length) {
        const c = text.charCodeAt(at);
        if (c === COMMA || c === CR || c === LF) break;
        if (c === QUOTE) throw invalid(row, "a field with a quote in it must be quoted, with the quote doubled (\"\")");
        at++;
      }
      value = text.slice(from, at);
    }
    // The row's end (or a CR that a LF may follow) must be in this chunk.
    if (!final && (at >= length || (text.charCodeAt(at) === CR && at + 1 >= length))) return undefined;

    // Cells beyond the column limit are not kept: refused when they hold a value, else dropped.
    column++;
    if (column <= BULK_UPLOAD_MAX_COLUMNS) cells.push(value);
    else if (value.trim() !== "") throw fileProblem(400, columnBeyondLimitMessage(row, column.toLocaleString("en-US")));

    const c = text.charCodeAt(at);
    if (c === COMMA) {
      at++;
      // A comma at the very end of the file still opens one more (empty) cell.
      if (at === length) {
        if (!final) return undefined;
        if (++column <= BULK_UPLOAD_MAX_COLUMNS) cells.push("");
        return { cells, next: at };
      }
    } else {
      if (c === CR) at += text.charCodeAt(at + 1) === LF ? 2 : 1;
      else if (c === LF) at++;
      return { cells, next: at };
    }
  }
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
