import { type ColumnMatch, headerProblem } from "../data-plane/flat-file/column-match.ts";

/**
 * Why a translation cannot match its file's header to the table, in a load's words (headerProblem)
 * about the file data structure; null when it can. Unlike a load, a column without a name (a header
 * ending in a delimiter, as many exports write every line) is no problem: nothing is translated
 * under it, and it is written back as it came, so the file keeps its shape.
 */
export function translationHeaderProblem(header: readonly string[], match: ColumnMatch, tableName: string): string | null {
  const seen = new Set<string>();
  let duplicate: string | null = null;
  for (const cell of header) {
    const name = cell.trim().toLowerCase();
    if (!name) continue;
    if (seen.has(name)) duplicate ??= cell.trim();
    seen.add(name);
  }
  const extra = header.filter((cell, i) => cell.trim() !== "" && !match.positions[i]).map((cell) => cell.trim());
  return headerProblem({ ...match, duplicate, extra }, tableName, "file data structure", "tick “The file has no header row”");
}
