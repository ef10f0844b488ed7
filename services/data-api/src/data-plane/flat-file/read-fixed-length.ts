/**
 * The records of a fixed-length text file: each line (CRLF, LF or CR) cut into fields by the column
 * widths, in characters (code points, as PostgreSQL counts them); the spaces that pad a field on
 * either side are not part of its value. A line shorter than the widths' sum reads its missing
 * trailing fields as blank: editors trim trailing spaces, so a record whose last fields are blank
 * arrives short. A longer line is still cut (so its cells can be shown) but carries the reason it
 * cannot be a row. Streams: only the current chunk and an unfinished line are held; a line far longer
 * than a record is cut short as it goes.
 */
import type { FlatFileRecord } from "./flat-file-problem.ts";

const BATCH_RECORDS = 1000;
const LINE_END = /\r\n?|\n/g;
const SURROGATE = /[\uD800-\uDFFF]/;

/** In batches, the lines each chunk of text completes (see readDelimitedBatches). */
export async function* readFixedLengthBatches(texts: AsyncIterable<string> | Iterable<string>, widths: readonly number[]): AsyncGenerator<FlatFileRecord[]> {
  const total = widths.reduce((a, b) => a + b, 0);
  // Past this, a line is no record of this file: what follows until its end is counted, not kept.
  const longest = total * 2 + 64 * 1024;
  let row = 0;
  let rest = "";
  let overflow = 0;

  const record = (line: string): FlatFileRecord => {
    row++;
    const chars = SURROGATE.test(line) ? Array.from(line) : undefined;
    const length = (chars?.length ?? line.length) + overflow;
    const cells: string[] = [];
    let at = 0;
    for (const width of widths) {
      cells.push(unpad(chars ? chars.slice(at, at + width).join("") : line.slice(at, at + width)));
      at += width;
    }
    overflow = 0;
    // Short: its missing fields are blank (sliced past its end, they are ""). A blank line is no row
    // at all (the reader of records skips it), whatever its length.
    if (length <= total) return { row, cells };
    return { row, cells, problem: `${length.toLocaleString("en-US")} characters where the column widths add up to ${total.toLocaleString("en-US")}` };
  };

  for await (const chunk of texts) {
    const text = rest === "" ? chunk : rest + chunk;
    let at = 0;
    let batch: FlatFileRecord[] = [];
    LINE_END.lastIndex = 0;
    for (let end = LINE_END.exec(text); end; end = LINE_END.exec(text)) {
      // A CR at the chunk's end may be the first half of a CRLF.
      if (end[0] === "\r" && end.index === text.length - 1) break;
      batch.push(record(text.slice(at, end.index)));
      at = end.index + end[0].length;
      // Few enough to hold whatever a chunk holds (a chunk of line breaks is many thousands).
      if (batch.length === BATCH_RECORDS) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
    rest = text.slice(at);
    if (rest.length > longest && !rest.endsWith("\r")) {
      overflow += rest.length - total;
      rest = rest.slice(0, total);
    }
  }
  if (rest !== "" || overflow > 0) yield [record(rest.replace(/\r$/, ""))];
}

/** The field without the spaces padding it (tabs and other characters are values). */
function unpad(field: string): string {
  let start = 0;
  let end = field.length;
  while (start < end && field.charCodeAt(start) === 32) start++;
  while (end > start && field.charCodeAt(end - 1) === 32) end--;
  return start === 0 && end === field.length ? field : field.slice(start, end);
}
