import { CsvError, parse } from "csv-parse/sync";
import type { RowError } from "../../../../contracts/dictionary.ts";
import { EMPTY_FILE_MESSAGE, fileProblem, type SheetRow } from "./sheet-rows.ts";

/**
 * The rows of a comma-separated, UTF-8 file (with or without BOM). Blank lines stay as blank rows,
 * so row numbers are the ones a spreadsheet shows. Broken quoting is a row error, not a 400: the
 * user sees it in the review like any other mistake in the file.
 */
export function readCsv(bytes: Uint8Array): { rows: SheetRow[]; error?: RowError } {
  let text: string;
  try {
    // fatal: a file in another encoding is refused rather than read with replacement characters.
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw fileProblem(400, "The file is not UTF-8 text: save it as CSV UTF-8 (comma delimited)");
  }
  if (text.trim() === "") throw fileProblem(400, EMPTY_FILE_MESSAGE);
  try {
    const records: string[][] = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false });
    return { rows: records.map((cells, index) => ({ row: index + 1, cells })) };
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const line = (err as CsvError & { lines?: number }).lines;
    return { rows: [], error: { row: line ?? null, column: null, message: `The file is not valid CSV: ${err.message}` } };
  }
}

/** A header read as one field holding another separator: the file was saved with the wrong delimiter. */
export function wrongDelimiter(header: readonly string[]): string | undefined {
  if (header.length !== 1) return undefined;
  const found = [";", "\t", "|"].find((d) => header[0]!.includes(d));
  if (!found) return undefined;
  const name = found === "\t" ? "tabs" : `'${found}'`;
  return `The file is not comma-separated: its header row is one field separated by ${name}. Save it as CSV (comma delimited)`;
}
