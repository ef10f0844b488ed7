/** Refused before anything is loaded: the load fails with this message and changes nothing. */
export class FlatFileProblem extends Error {
  override name = "FlatFileProblem";
}

/**
 * A Replace that would leave its table without a row (a file with a header and no rows, or whose
 * every row was rejected): the whole load is refused with this message, and every table stays as it
 * was. A Replace empties a table only with a file that brings rows in its place.
 */
export class ReplaceWouldEmptyTable extends Error {
  override name = "ReplaceWouldEmptyTable";
}

/** Why a Replace with a file without rows is refused; the preview says it before the load (noRowsProblem). */
export const noRowsMessage = (fileName: string, table: string) =>
  `${fileName}: the file has no rows, so Replace would have emptied ${table}. Nothing was loaded.`;

/** Why a Replace whose every row was rejected ("Load the other rows" had none to load) is refused. */
export const everyRowRejectedMessage = (fileName: string, table: string, rejected: number) =>
  `${fileName}: ${rejected === 1 ? "its only row was" : `all ${rejected.toLocaleString("en-US")} rows were`} rejected, so Replace would have emptied ${table}. Nothing was loaded.`;

/** A preview's word on a file without rows: a Replace of its table is refused (noRowsMessage); an Append adds nothing. */
export const noRowsProblem = (table: string) => `The file has no rows: loading it with Replace is refused, as it would empty ${table}`;

/**
 * One record of a flat file: its row as a person counts them, its cells, why it cannot be a row (a
 * fixed-length line longer than its widths), and for a delimited file's plain line (read-delimited.ts)
 * its text, which a load may hand to COPY as it is.
 */
export type FlatFileRecord = { row: number; cells: string[]; problem?: string; line?: string };

/** A blank line, or one of only delimiters (`,,`): no row. A load, its preview, a translation and a sample's description skip it, and count it nowhere. */
export const isBlankRecord = (record: FlatFileRecord): boolean => record.cells.every((cell) => cell === "");
