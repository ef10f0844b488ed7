/** One CSV record (comma, double quotes where needed, CRLF), as RFC 4180 and spreadsheets read it. */
export function csvLine(cells: readonly string[]): string {
  let line = "";
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i]!;
    if (i > 0) line += ",";
    line += NEEDS_QUOTES.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
  }
  return `${line}\r\n`;
}

// A delimiter, a quote, a line break, or spaces at either end (kept exactly only when quoted).
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;
