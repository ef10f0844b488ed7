/**
 * Which table column each of a file's columns fills (issue 9 §2): by header name, any case, or by
 * position when the file has no header row. The preview shows the match; the load refuses a file
 * whose header names a column twice or one the table lacks, with the same words.
 */
import type { DdlColumn } from "../postgres-ddl.ts";

export type ColumnMatch = {
  /** Per file column, the table column it fills (undefined: none). */
  positions: (DdlColumn | undefined)[];
  /** Table columns no file column fills. */
  missing: string[];
  /** File columns the table lacks, as the header names them. */
  extra: string[];
  /** A header naming the same column twice: the file cannot be matched. */
  duplicate: string | null;
};

/**
 * The two columns a table's rejected-rows download adds after the file's own (history.ts): which row
 * of the file it was, and why it was rejected. A load leaves them out, so the download, corrected, loads
 * again as it is; no table column can be named so (dictionary names have no spaces).
 */
export const REJECTED_ROWS_COLUMNS = ["Rejected row", "Rejection reason"] as const;
const LEFT_OUT = new Set(REJECTED_ROWS_COLUMNS.map((name) => name.toLowerCase()));

export function matchColumns(header: string[] | null, columns: readonly DdlColumn[], cellCount: number): ColumnMatch {
  if (!header) {
    const positions = Array.from({ length: cellCount }, (_, i) => columns[i]);
    return {
      positions,
      missing: columns.slice(cellCount).map((c) => c.name),
      extra: Array.from({ length: Math.max(0, cellCount - columns.length) }, (_, i) => `column ${columns.length + i + 1}`),
      duplicate: null,
    };
  }
  const byName = new Map(columns.map((c) => [c.name.toLowerCase(), c]));
  const seen = new Set<string>();
  let duplicate: string | null = null;
  const extra: string[] = [];
  const positions = header.map((cell) => {
    const name = cell.trim().toLowerCase();
    if (seen.has(name)) duplicate ??= cell.trim();
    seen.add(name);
    const column = byName.get(name);
    if (!column && !LEFT_OUT.has(name)) extra.push(cell.trim() || "(a column without a name)");
    return column;
  });
  return { positions, missing: columns.filter((c) => !positions.includes(c)).map((c) => c.name), extra, duplicate };
}

/** Cells of a first row shown in a refusal, at most. */
const FIRST_ROW_SHOWN = 5;

/**
 * Why a load cannot match the file's header to the table, in the words both the preview and the load use; null when it can.
 * `dictionary` is where the table's columns are added: a project's or configuration's data dictionary, a mapping project's file data structure.
 * `noHeaderRow` is how the user says the file has no header row, for a first row that names none of the table's columns (a row of data).
 */
export function headerProblem(
  match: ColumnMatch,
  tableName: string,
  dictionary = "data dictionary",
  noHeaderRow = "untick Header row in the flat-file parameters",
): string | null {
  const unknown = match.extra;
  // Not one cell names a column: the first row is most likely data, the file having no header row.
  if (match.positions.length > 1 && match.positions.every((column) => column === undefined) && unknown.length === match.positions.length) {
    const shown = unknown.slice(0, FIRST_ROW_SHOWN).join(", ") + (unknown.length > FIRST_ROW_SHOWN ? ", …" : "");
    return `The first row (row 1, the header) names none of the columns of the table '${tableName}': it reads ${shown}. If the file has no header row, ${noHeaderRow}: its columns are then read by position`;
  }
  if (match.duplicate !== null) return `The header names the column '${match.duplicate}' twice`;
  if (unknown.length === 0) return null;
  // One cell naming nothing, where the table has several columns: the delimiter is not the file's.
  if (match.positions.length === 1 && unknown.length === 1 && match.missing.length > 1) {
    return `The header is one single column ('${unknown[0]!.slice(0, 60)}'): the delimiter matches nothing in it. Choose the delimiter the file uses in the flat-file parameters`;
  }
  const one = unknown.length === 1;
  return `The file has ${one ? "a column" : "columns"} the table '${tableName}' lacks: ${unknown.join(", ")}. Add ${one ? "it" : "them"} to the ${dictionary}, or leave ${one ? "it" : "them"} out of the file`;
}

/** "1 value", "3 values". */
const countOf = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/**
 * Why a row whose number of values is not the file's is rejected as a whole, in the words the load and
 * the translation share; null when it fits. The file's width is its header's, else the table's (a load
 * without a header) or the first row's (a translation without one: its file may leave columns out).
 */
export function rowWidthProblem(values: number, width: number, widthOf: "header" | "table" | "first row"): string | null {
  if (values === width) return null;
  const what = widthOf === "table" ? `the table has ${countOf(width, "column")}` : `the ${widthOf} has ${width}`;
  return `${countOf(values, "value")} where ${what}`;
}
