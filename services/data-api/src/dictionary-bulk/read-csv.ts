import { setImmediate as nextTurn } from "node:timers/promises";
import { BULK_UPLOAD_MAX_COLUMNS, BULK_UPLOAD_MAX_ROWS, type RowError } from "../../../../contracts/dictionary.ts";
import { columnBeyondLimitMessage, EMPTY_FILE_MESSAGE, fileProblem, TOO_MANY_ROWS_MESSAGE, type SheetRow } from "./sheet-rows.ts";

/** Rows read between two turns of the event loop. */
const ROWS_PER_TURN = 2000;

const COMMA = 44;
const QUOTE = 34;
const CR = 13;
const LF = 10;

/**
 * The rows of a comma-separated, UTF-8 file (with or without BOM; RFC 4180 quoting; CRLF, LF or
 * CR line ends). Blank lines stay as blank rows, so row numbers are the ones a spreadsheet shows.
 * Broken quoting is a row error, not a 400: the user sees it in the review like any other mistake
 * in the file.
 *
 * Read by hand rather than with csv-parse, whose relaxed column count builds an Error (stack trace
 * and all) for every row shorter or longer than the first: some 50 µs a row, so a 5 MB file of
 * line breaks under a header held the event loop for minutes. This reader holds the file to the
 * limits of contracts/dictionary.ts as it goes (more rows than the limit, or a value beyond the
 * column limit, refuses it; empty cells beyond the limit are dropped) and gives the event loop a
 * turn every ROWS_PER_TURN rows.
 */
export async function readCsv(bytes: Uint8Array): Promise<{ rows: SheetRow[]; error?: RowError }> {
  let text: string;
  try {
    // fatal: a file in another encoding is refused rather than read with replacement characters.
    // The decoder drops a leading BOM.
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw fileProblem(400, "The file is not UTF-8 text: save it as CSV UTF-8 (comma delimited)");
  }
  if (text.trim() === "") throw fileProblem(400, EMPTY_FILE_MESSAGE);

  const rows: SheetRow[] = [];
  const length = text.length;
  let at = 0;
  while (at < length) {
    const row = rows.length + 1;
    if (row > BULK_UPLOAD_MAX_ROWS) throw fileProblem(413, TOO_MANY_ROWS_MESSAGE);
    if (row % ROWS_PER_TURN === 0) await nextTurn();
    const cells: string[] = [];
    let column = 0;
    let endOfRow = false;
    while (!endOfRow) {
      let value: string;
      if (text.charCodeAt(at) === QUOTE) {
        // A quoted field: "" is a quote; it may hold commas and line breaks.
        const parts: string[] = [];
        let from = at + 1;
        for (;;) {
          const quote = text.indexOf('"', from);
          if (quote < 0) return invalid(row, "a quoted field is never closed");
          parts.push(text.slice(from, quote));
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
          return invalid(row, "a quote inside a quoted field must be doubled (\"\"), and a closing quote followed by a comma or the end of the line");
        }
        value = parts.join("");
      } else {
        const start = at;
        while (at < length) {
          const c = text.charCodeAt(at);
          if (c === COMMA || c === CR || c === LF) break;
          if (c === QUOTE) return invalid(row, "a field with a quote in it must be quoted, with the quote doubled (\"\")");
          at++;
        }
        value = text.slice(start, at);
      }

      // Cells beyond the column limit are not kept: refused when they hold a value, else dropped.
      column++;
      if (column <= BULK_UPLOAD_MAX_COLUMNS) cells.push(value);
      else if (value.trim() !== "") throw fileProblem(400, columnBeyondLimitMessage(row, column.toLocaleString("en-US")));

      const c = text.charCodeAt(at);
      if (c === COMMA) {
        at++;
        // A comma at the very end of the file still opens one more (empty) cell.
        if (at === length && ++column <= BULK_UPLOAD_MAX_COLUMNS) cells.push("");
      } else {
        endOfRow = true;
        if (c === CR) at += text.charCodeAt(at + 1) === LF ? 2 : 1;
        else if (c === LF) at++;
      }
    }
    rows.push({ row, cells });
  }
  return { rows };
}

function invalid(row: number, problem: string): { rows: SheetRow[]; error: RowError } {
  return { rows: [], error: { row, column: null, message: `The file is not valid CSV: on row ${row}, ${problem}` } };
}

/** A header read as one field holding another separator: the file was saved with the wrong delimiter. */
export function wrongDelimiter(header: readonly string[]): string | undefined {
  if (header.length !== 1) return undefined;
  const found = [";", "\t", "|"].find((d) => header[0]!.includes(d));
  if (!found) return undefined;
  const name = found === "\t" ? "tabs" : `'${found}'`;
  return `The file is not comma-separated: its header row is one field separated by ${name}. Save it as CSV (comma delimited)`;
}
