/**
 * A flat file's records as its workspace's parameters describe it (spec §5; contracts/projects.ts
 * FlatFileParameters): an .xlsx worksheet (read-worksheet.ts), or text in its encoding
 * (text-encoding.ts, chosen or detected) cut by a delimiter (read-delimited.ts; chosen or detected
 * from the first line) or by column widths (read-fixed-length.ts; saved per table, or the
 * dictionary's). Streams: the file is read in chunks from disk.
 */
import { defaultColumnWidth, type FlatFileParameters } from "../../../../../contracts/projects.ts";
import type { DdlTable } from "../postgres-ddl.ts";
import type { Arrival } from "./arriving-file.ts";
import { FlatFileProblem, type FlatFileRecord } from "./flat-file-problem.ts";
import { readDelimitedBatches } from "./read-delimited.ts";
import { readFixedLengthBatches } from "./read-fixed-length.ts";
import { readWorksheetBatches } from "./read-worksheet.ts";
import { readFileText, type TextEncoding } from "./text-encoding.ts";

export { FlatFileProblem, isBlankRecord, type FlatFileRecord } from "./flat-file-problem.ts";

export const DELIMITER_CHARACTERS = { Comma: ",", Tab: "\t", Pipe: "|", Semicolon: ";", Tilde: "~", Apostrophe: "'", Caret: "^" } as const;
export const QUOTES = { DoubleQuote: '"', SingleQuote: "'", None: null } as const;

export type FlatFileReading = {
  /** How the file is read, for a preview to show: the text's encoding (as detected so far) and the delimiter; null for an .xlsx. */
  readonly encoding: TextEncoding | null;
  /** The byte-order mark the text starts with (left out of its records); null for an .xlsx or a text without one. */
  byteOrderMark: TextEncoding | null;
  /** The delimiter character, "fixed length" or "excel". */
  delimiter: string;
  /** The records in batches: what a load reads (read-delimited.ts says why). */
  batches: AsyncGenerator<FlatFileRecord[]>;
  /** The same records one by one, for a reader of a few (a preview, a sample): read either, not both. */
  records: AsyncGenerator<FlatFileRecord>;
};

async function* oneByOne(batches: AsyncGenerator<FlatFileRecord[]>): AsyncGenerator<FlatFileRecord> {
  try {
    for await (const batch of batches) yield* batch;
  } finally {
    // A reader that stops early (return()) closes the file's reading too.
    await batches.return(undefined);
  }
}

/**
 * The records of the file at `path`, to load into `table`; `onBytes` hears how many bytes have been
 * read so far (progress). With `arrival`, the file is still being uploaded: text is read as it comes,
 * a workbook once it is all there (its directory is at its end).
 */
export async function readFlatFile(
  path: string,
  parameters: FlatFileParameters,
  table: DdlTable,
  onBytes: (read: number) => void = () => {},
  arrival?: Arrival,
): Promise<FlatFileReading> {
  if (parameters.extension === ".xlsx") {
    await arrival?.whole();
    const width = parameters.hasHeaderRow ? "first row" : table.columns.length;
    const batches = readWorksheetBatches(path, parameters.worksheet, { width, onBytes });
    return { encoding: null, byteOrderMark: null, delimiter: "excel", batches, records: oneByOne(batches) };
  }
  const text = await readFileText(path, parameters.encoding, onBytes, arrival);
  const reading = (delimiter: string, batches: AsyncGenerator<FlatFileRecord[]>): FlatFileReading => ({
    get encoding() {
      return text.detected.encoding;
    },
    byteOrderMark: text.byteOrderMark,
    delimiter,
    batches,
    records: oneByOne(batches),
  });
  if (parameters.delimiter === "FixedLength") return reading("fixed length", readFixedLengthBatches(text.texts, columnWidthsOf(parameters, table)));
  const quote = QUOTES[parameters.textQualifier];
  const delimiter =
    parameters.delimiter === "AutoDetect" || parameters.delimiter === "Excel" ? detectDelimiter(text.start, quote) : DELIMITER_CHARACTERS[parameters.delimiter];
  return reading(delimiter, readDelimitedBatches(text.texts, { delimiter, quote }));
}

/** The table's fixed-length widths: as saved for it (any case), else from its dictionary columns. */
export function columnWidthsOf(parameters: Pick<FlatFileParameters, "columnWidths">, table: DdlTable): number[] {
  const saved = Object.entries(parameters.columnWidths).find(([name]) => name.toLowerCase() === table.name.toLowerCase())?.[1];
  if (!saved) return table.columns.map(defaultColumnWidth);
  // Saved for the dictionary as it was: reading a changed table with them would cut every line wrong.
  if (saved.length !== table.columns.length) {
    throw new FlatFileProblem(
      `The column widths saved for ${table.name} are ${saved.length}, but the table has ${table.columns.length} columns: save the flat-file parameters with ${table.columns.length} widths`,
    );
  }
  return saved;
}

/** The candidate delimiter found most often in the first line, outside qualified text; a comma when none is. */
export function detectDelimiter(start: string, quote: string | null): string {
  const candidates: string[] = Object.values(DELIMITER_CHARACTERS).filter((d) => d !== quote);
  const counts = new Map(candidates.map((d) => [d, 0]));
  let inQuotes = false;
  for (const c of start.replace(/^\uFEFF/, "")) {
    if (c === quote) inQuotes = !inQuotes;
    else if (!inQuotes && (c === "\n" || c === "\r")) break;
    else if (!inQuotes && counts.has(c)) counts.set(c, counts.get(c)! + 1);
  }
  const [best, count] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  return count > 0 ? best : ",";
}
