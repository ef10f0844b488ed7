import { type ColumnMatch, headerProblem, matchColumns } from "../data-plane/flat-file/column-match.ts";
import type { DdlColumn } from "../data-plane/postgres-ddl.ts";
import { columnNameBefore, describedColumnNames } from "./describe-sample.ts";

/**
 * Which table column each of a translated file's columns fills: by its header as a load matches it
 * (matchColumns), else, for a cell naming no column or one an earlier cell already fills, by the name
 * a table described from this file gave it (describedColumnNames: "First Name" is First_Name, a
 * second "code" is code_2, "été" ete) or the name one described before accents were kept gave it ("été"
 * was t). So the file a table was described from translates, and reads as a sample of its value maps,
 * under the header the client wrote.
 */
export function matchTranslationColumns(header: readonly string[] | null, columns: readonly DdlColumn[], cellCount: number): ColumnMatch {
  const match = matchColumns(header && [...header], columns, cellCount);
  if (!header) return match;
  const byName = new Map(columns.map((c) => [c.name.toLowerCase(), c]));
  // As a table is described now ("été" is ete), and as one described before accents were kept was ("été" was t).
  const described = [describedColumnNames(header, header.length), describedColumnNames(header, header.length, columnNameBefore)];
  const filled = new Set<DdlColumn>();
  const positions = match.positions.map((exact, i) => {
    const alternative = described.map((names) => byName.get(names[i]!.toLowerCase())).find((c) => c && !filled.has(c));
    const column = exact && !filled.has(exact) ? exact : (alternative ?? exact);
    if (column) filled.add(column);
    return column;
  });
  return { ...match, positions, missing: columns.filter((c) => !positions.includes(c)).map((c) => c.name) };
}

/**
 * Why a translation cannot match its file's header to the table, in a load's words (headerProblem)
 * about the file data structure; null when it can. Unlike a load, a column without a name (a header
 * ending in a delimiter, as many exports write every line) is no problem: nothing is translated
 * under it, and it is written back as it came, so the file keeps its shape. A name written twice is
 * a problem only where the second cell fills no column of its own (matchTranslationColumns).
 */
export function translationHeaderProblem(header: readonly string[], match: ColumnMatch, tableName: string): string | null {
  const seen = new Set<string>();
  const filled = new Set<DdlColumn>();
  let duplicate: string | null = null;
  header.forEach((cell, i) => {
    const name = cell.trim().toLowerCase();
    const column = match.positions[i];
    if (name && seen.has(name) && (!column || filled.has(column))) duplicate ??= cell.trim();
    if (name) seen.add(name);
    if (column) filled.add(column);
  });
  const extra = header.filter((cell, i) => cell.trim() !== "" && !match.positions[i]).map((cell) => cell.trim());
  return headerProblem({ ...match, duplicate, extra }, tableName, "file data structure", "tick “The file has no header row”");
}
