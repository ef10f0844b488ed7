/**
 * A flat file's records as its project's parameters describe it (spec §5; contracts/projects.ts
 * FlatFileParameters): the encoding, the delimiter (or detected from the first line), the text
 * qualifier. Streams: the file is read in chunks from disk.
 */
import fs from "node:fs";
import type { FlatFileParameters } from "../../../../../contracts/projects.ts";
import { readDelimitedRecords, type DelimitedRecord } from "./read-delimited.ts";

/** Refused before anything is loaded: the load fails with this message and changes nothing. */
export class FlatFileProblem extends Error {
  override name = "FlatFileProblem";
}

export const DELIMITER_CHARACTERS = { Comma: ",", Tab: "\t", Pipe: "|", Semicolon: ";", Tilde: "~", Apostrophe: "'", Caret: "^" } as const;
const QUOTES = { DoubleQuote: '"', SingleQuote: "'", None: null } as const;
const DECODERS = { "UTF-8": "utf-8", "UTF-16LE": "utf-16le", "Windows-1252": "windows-1252", "ISO-8859-1": "iso-8859-1" } as const;

/** How much of the file's start decides the delimiter and shows a binary file for what it is. */
const SNIFF_BYTES = 64 * 1024;

export type FlatFileReading = {
  /** The encoding the file is read in. */
  encoding: string;
  delimiter: string;
  records: AsyncGenerator<DelimitedRecord>;
};

/** The records of the file at `path`; `onBytes` hears how many bytes have been read so far (progress). */
export async function readFlatFile(path: string, parameters: FlatFileParameters, onBytes: (read: number) => void = () => {}): Promise<FlatFileReading> {
  if (parameters.delimiter === "FixedLength" || parameters.delimiter === "Excel" || parameters.extension === ".xlsx") {
    throw new FlatFileProblem("Fixed-length and .xlsx files cannot be loaded yet: save the file as delimited text (CSV) and choose its delimiter");
  }
  const start = await readStart(path);
  if (parameters.encoding !== "UTF-16LE" && start.includes(0)) {
    throw new FlatFileProblem("The file is not text: it holds binary data. Choose a delimited text file (.csv, .txt, .dta)");
  }
  const quote = QUOTES[parameters.textQualifier];
  const encoding = DECODERS[parameters.encoding];
  const delimiter =
    parameters.delimiter === "AutoDetect" ? detectDelimiter(new TextDecoder(encoding).decode(start), quote) : DELIMITER_CHARACTERS[parameters.delimiter];
  return {
    encoding: parameters.encoding,
    delimiter,
    records: readDelimitedRecords(decode(path, encoding, parameters.encoding, onBytes), { delimiter, quote }),
  };
}

async function readStart(path: string): Promise<Uint8Array> {
  const handle = await fs.promises.open(path, "r");
  try {
    const buffer = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The file's text; a file that is not valid in its encoding is refused rather than read with replacement characters. */
async function* decode(path: string, encoding: string, label: string, onBytes: (read: number) => void): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding, { fatal: true });
  let read = 0;
  const wrong = () => new FlatFileProblem(`The file is not ${label} text: choose the encoding it was saved in`);
  for await (const chunk of fs.createReadStream(path, { highWaterMark: 256 * 1024 })) {
    read += (chunk as Buffer).length;
    onBytes(read);
    try {
      yield decoder.decode(chunk as Buffer, { stream: true });
    } catch {
      throw wrong();
    }
  }
  try {
    yield decoder.decode();
  } catch {
    throw wrong();
  }
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
