/**
 * The records of a delimited text file (CSV and its kin: any one-character delimiter, a double or
 * single quote as text qualifier or none), read from a stream of decoded text: a record is handed on
 * once it is complete, so only the current chunk and an unfinished record are held. RFC 4180
 * quoting: a qualified field may hold delimiters and line breaks, and a doubled qualifier is one.
 * CRLF, LF or CR line ends. Blank lines are records with one empty cell, so record numbers are the
 * rows a spreadsheet shows. Broken quoting throws DelimitedFormatError naming the record.
 *
 * Shared by dictionary uploads (read-csv.ts: comma and double quote, with their limits) and
 * flat-file loads (read-flat-file.ts).
 */

export type DelimitedOptions = {
  /** The delimiter, one character. */
  delimiter: string;
  /** The text qualifier, one character, or null: fields are never qualified. */
  quote: string | null;
};

/**
 * The longest record read (in characters): a quote never closed, or a file without line breaks,
 * would otherwise make the rest of a file of gigabytes one record held in memory.
 */
export const MAX_RECORD_CHARS = 8 * 1024 * 1024;

export type DelimitedRecord = {
  row: number;
  cells: string[];
  /** The record's text without its line end, when it is one line with no qualifier: its cells are this cut at each delimiter. */
  line?: string;
};

/** The file breaks the quoting rules at `row`. */
export class DelimitedFormatError extends Error {
  override name = "DelimitedFormatError";
  constructor(
    readonly row: number,
    readonly problem: string,
  ) {
    super(`on row ${row}, ${problem}`);
  }
}

/**
 * What a load or its preview says of a file whose quoting is broken: a legacy export often writes a
 * quote inside a field without quoting it (`Bob "Bobby" Brown`), which reads as it is once the text
 * qualifier is None, a choice of the load page's "Change how files are read".
 */
export function unreadableFileMessage(err: DelimitedFormatError): string {
  return `The file could not be read: ${err.message}. If the file does not quote its fields, read it with the text qualifier None`;
}

/** Records per batch: enough to pay a promise per thousand rows, few enough to hold whatever a chunk holds (a chunk of line breaks is millions). */
const BATCH_RECORDS = 1000;

const CR = 13;
const LF = 10;

/** The records one by one (a reader of modest files: a dictionary, a value map). */
export async function* readDelimitedRecords(texts: AsyncIterable<string> | Iterable<string>, options: DelimitedOptions): AsyncGenerator<DelimitedRecord> {
  for await (const batch of readDelimitedBatches(texts, options)) yield* batch;
}

/**
 * The records in batches, those each chunk of text completes: a load's reader. An async generator
 * pays a promise per value it hands on, which for a file of millions of rows costs more than
 * reading them; a batch pays it once per chunk.
 */
export async function* readDelimitedBatches(texts: AsyncIterable<string> | Iterable<string>, options: DelimitedOptions): AsyncGenerator<DelimitedRecord[]> {
  const delimiter = options.delimiter.charCodeAt(0);
  const quote = options.quote === null ? -1 : options.quote.charCodeAt(0);
  const quoteText = options.quote ?? "";
  const delimiterText = options.delimiter;
  // How messages name them: as a person would say it.
  const quoteName = options.quote === "'" ? "single quote" : "quote";
  const delimiterName = { ",": "a comma", "\t": "a tab", ";": "a semicolon", "|": "a pipe" }[options.delimiter] ?? `the delimiter (${options.delimiter})`;
  let text = "";
  let row = 0;
  // A record cut by the chunk's end is read again once more text came; waiting until the text has
  // doubled keeps a record of millions of cells linear.
  let needLength = 0;

  // Where the unread text starts: the text is cut once per chunk, not once per batch.
  let pos = 0;
  /**
   * A record that cannot be read, met after others of its batch: those are handed on first, then it
   * is thrown, so that a load counts (and checks) the rows read before it ("1 read", not "0 read").
   */
  let unreadable: DelimitedFormatError | undefined;
  /** Up to BATCH_RECORDS records from `pos`; fewer when the text (or its last complete record) ends. */
  const take = (final: boolean): DelimitedRecord[] => {
    const batch: DelimitedRecord[] = [];
    while (pos < text.length && batch.length < BATCH_RECORDS) {
      let read: ReturnType<typeof readRecord>;
      try {
        read = readRecord(pos, row + 1, final);
      } catch (err) {
        if (batch.length === 0 || !(err instanceof DelimitedFormatError)) throw err;
        unreadable = err;
        break;
      }
      if (read === undefined) {
        needLength = (text.length - pos) * 2;
        break;
      }
      row++;
      pos = read.next;
      batch.push({ row, cells: read.cells, line: read.line });
    }
    return batch;
  };
  /** Every batch the text holds now, then the text left unread kept for the next chunk. */
  const takeAll = function* (final: boolean): Generator<DelimitedRecord[]> {
    for (;;) {
      const batch = take(final);
      if (batch.length) yield batch;
      if (unreadable) throw unreadable;
      if (batch.length < BATCH_RECORDS) break;
    }
    text = text.slice(pos);
    nextQuote = nextCr = -2;
    pos = 0;
  };

  // Where the next qualifier and the next CR are, found once and used by every line before them
  // (-2: not looked for since the text changed; -1 found as Infinity: none in the text).
  let nextQuote = -2;
  let nextCr = -2;
  const after = (found: number) => (found < 0 ? Infinity : found);

  /**
   * A line with no qualifier and no CR but the one before its LF (most lines of most files): its
   * cells are the line cut at each delimiter, which the engine's split does many times faster than a
   * scan character by character. Undefined for any other line: readRecord reads it.
   */
  function readPlainLine(start: number): { cells: string[]; next: number; line: string } | undefined {
    const lf = text.indexOf("\n", start);
    if (lf < 0) return undefined;
    if (quote >= 0) {
      if (nextQuote < start && nextQuote !== Infinity) nextQuote = after(text.indexOf(quoteText, start));
      if (nextQuote < lf) return undefined;
    }
    if (nextCr < start && nextCr !== Infinity) nextCr = after(text.indexOf("\r", start));
    const end = nextCr === lf - 1 ? lf - 1 : lf;
    if (nextCr < end) return undefined;
    const line = text.slice(start, end);
    return { cells: line.split(delimiterText), next: lf + 1, line };
  }

  /** One record from `start`: its cells and where the next starts, or undefined when it may go on in the next chunk. */
  function readRecord(start: number, record: number, final: boolean): { cells: string[]; next: number; line?: string } | undefined {
    const plain = readPlainLine(start);
    if (plain) return plain;
    const length = text.length;
    let at = start;
    const cells: string[] = [];
    for (;;) {
      let value: string;
      if (quote >= 0 && text.charCodeAt(at) === quote) {
        const parts: string[] = [];
        let from = at + 1;
        for (;;) {
          const closing = text.indexOf(quoteText, from);
          if (closing < 0) {
            if (!final) return undefined;
            throw new DelimitedFormatError(record, "a quoted field is never closed");
          }
          parts.push(text.slice(from, closing));
          if (closing + 1 === length && !final) return undefined;
          if (text.charCodeAt(closing + 1) === quote) {
            parts.push(quoteText);
            from = closing + 2;
            continue;
          }
          at = closing + 1;
          break;
        }
        const next = text.charCodeAt(at);
        if (at < length && next !== delimiter && next !== CR && next !== LF) {
          throw new DelimitedFormatError(
            record,
            `a ${quoteName} inside a quoted field must be doubled (${quoteText}${quoteText}), and a closing ${quoteName} followed by ${delimiterName} or the end of the line`,
          );
        }
        value = parts.join("");
      } else {
        const from = at;
        while (at < length) {
          const c = text.charCodeAt(at);
          if (c === delimiter || c === CR || c === LF) break;
          if (c === quote)
            throw new DelimitedFormatError(
              record,
              `a field with a ${quoteName} in it must be quoted, with the ${quoteName} doubled (${quoteText}${quoteText})`,
            );
          at++;
        }
        value = text.slice(from, at);
      }
      // The record's end (or a CR that a LF may follow) must be in this chunk.
      if (!final && (at >= length || (text.charCodeAt(at) === CR && at + 1 >= length))) return undefined;
      cells.push(value);
      const c = text.charCodeAt(at);
      if (c === delimiter) {
        at++;
        // A delimiter at the very end of the file still opens one more (empty) cell.
        if (at === length) {
          if (!final) return undefined;
          cells.push("");
          return { cells, next: at };
        }
      } else {
        if (c === CR) at += text.charCodeAt(at + 1) === LF ? 2 : 1;
        else if (c === LF) at++;
        return { cells, next: at };
      }
    }
  }

  try {
    for await (const chunk of texts) {
      text += chunk;
      nextQuote = nextCr = -2;
      if (text.length > MAX_RECORD_CHARS && needLength > 0) {
        throw new DelimitedFormatError(row + 1, `the row is longer than ${MAX_RECORD_CHARS.toLocaleString("en-US")} characters (is a quote never closed?)`);
      }
      if (text.length < needLength) continue;
      needLength = 0;
      yield* takeAll(false);
    }
  } catch (err) {
    // The text stopped (not valid in its encoding, an upload cut short): the records it completed,
    // kept while a long one waited for the text to double, are handed on first.
    if (err instanceof DelimitedFormatError || needLength === 0) throw err;
    needLength = 0;
    yield* takeAll(false);
    throw err;
  }
  yield* takeAll(true);
}
