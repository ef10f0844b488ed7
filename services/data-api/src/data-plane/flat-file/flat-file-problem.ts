/** Refused before anything is loaded: the load fails with this message and changes nothing. */
export class FlatFileProblem extends Error {
  override name = "FlatFileProblem";
}

/**
 * One record of a flat file: its row as a person counts them, its cells, why it cannot be a row (a
 * fixed-length line longer than its widths), and for a delimited file's plain line (read-delimited.ts)
 * its text, which a load may hand to COPY as it is.
 */
export type FlatFileRecord = { row: number; cells: string[]; problem?: string; line?: string };

/** A blank line, or one of only delimiters (`,,`): no row. A load, its preview, a translation and a sample's description skip it, and count it nowhere. */
export const isBlankRecord = (record: FlatFileRecord): boolean => record.cells.every((cell) => cell === "");
