/**
 * A table described from a sample file (issue 12, a mapping project's file data structure): its
 * columns named by the header (or column_1, column_2… by position), each type suggested from the
 * first rows: int, bigint, decimal, date, else nvarchar as long as the longest value; a column with a
 * number written with a leading zero ("007") holds codes, so text. Suggestions only: the table is the
 * user's to change afterwards.
 */
import type { ColumnInput, TableInput } from "../../../../contracts/dictionary.ts";
import { IDENTIFIER_MAX } from "../../../../contracts/common.ts";
import { NVARCHAR_MAX_LENGTH, isSystemColumnName } from "../../../../contracts/values/dictionary.ts";
import { DEFAULT_FLAT_FILE_PARAMETERS } from "../../../../contracts/values/flat-files.ts";
import { isBlankRecord, readFlatFile } from "../data-plane/flat-file/read-flat-file.ts";

/** Rows read to suggest the types: enough to see a file's codes, fast on any file. */
export const TYPE_SAMPLE_ROWS = 10_000;
const MAX_COLUMNS = 200;

type Seen = { ints: boolean; big: boolean; decimals: boolean; dates: boolean; any: boolean; empty: boolean; longest: number; scale: number; digits: number };

const INT = /^-?\d+$/;
const DECIMAL = /^-?(\d+)(?:\.(\d+))?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A number written with a leading zero ("007", "-01"): a code, whose zeros a number type would drop. */
const LEADING_ZERO = /^-?0\d/;

/**
 * A header cell as a column name the dictionary takes: letters, digits, underscores, starting with a letter or
 * underscore; an accented letter as its base letter ("été" is ete; a letter with none, as ø, is cleaned away).
 */
export function columnName(header: string, index: number): string {
  return columnNameBefore(header.normalize("NFKD").replace(/\p{M}+/gu, ""), index);
}

/**
 * How columnName read a header before accented letters were kept ("été" was t, every letter outside A-Z dropped):
 * a table described then still matches its file by it (header-problem.ts).
 */
export function columnNameBefore(header: string, index: number): string {
  const cleaned = header
    .trim()
    .replace(/[^A-Za-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, IDENTIFIER_MAX);
  if (!cleaned) return `column_${index + 1}`;
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `c_${cleaned}`.slice(0, IDENTIFIER_MAX);
}

/**
 * The columns' names of a table described from a file whose first row is `header` (null: none), `count` columns: each
 * cell's columnName, column_1, column_2… past the header; two that clean up alike, the second with its position, as a
 * name PostgreSQL keeps for itself. A translation matches a file's header by them too (header-problem.ts), and by
 * those `nameOf` columnNameBefore gives, as tables described before were named.
 */
export function describedColumnNames(header: readonly string[] | null, count: number, nameOf = columnName): string[] {
  const taken = new Set<string>();
  return Array.from({ length: count }, (_, i) => {
    let name = header && i < header.length ? nameOf(header[i]!, i) : `column_${i + 1}`;
    if (taken.has(name.toLowerCase()) || isSystemColumnName(name)) name = `${name.slice(0, IDENTIFIER_MAX - `_${i + 1}`.length)}_${i + 1}`;
    taken.add(name.toLowerCase());
    return name;
  });
}

export async function describeSample(path: string, fileName: string, tableName: string, hasHeaderRow: boolean): Promise<TableInput> {
  const extension = /\.xlsx$/i.test(fileName) ? ".xlsx" : ".csv";
  const parameters = {
    ...DEFAULT_FLAT_FILE_PARAMETERS,
    extension,
    delimiter: extension === ".xlsx" ? "Excel" : "AutoDetect",
    hasHeaderRow,
    columnWidths: {},
  } as const;
  const reading = await readFlatFile(path, parameters, { name: tableName, columns: [] });
  let header: string[] | null = null;
  const seen: Seen[] = [];
  let rows = 0;
  try {
    for await (const record of reading.records) {
      if (hasHeaderRow && header === null) {
        header = [...record.cells];
        continue;
      }
      if (isBlankRecord(record)) continue;
      record.cells.forEach((cell, i) => {
        const s = (seen[i] ??= { ints: true, big: false, decimals: true, dates: true, any: false, empty: rows > 0, longest: 0, scale: 0, digits: 0 });
        if (cell === "") {
          s.empty = true;
          return;
        }
        s.any = true;
        s.longest = Math.max(s.longest, [...cell].length);
        const value = cell.trim();
        if (LEADING_ZERO.test(value)) s.ints = s.decimals = false;
        if (s.ints && !INT.test(value)) s.ints = false;
        if (s.ints && Math.abs(Number(value)) > 2147483647) s.big = true;
        const decimal = s.decimals ? DECIMAL.exec(value) : null;
        if (!decimal) s.decimals = false;
        else {
          s.scale = Math.max(s.scale, decimal[2]?.length ?? 0);
          s.digits = Math.max(s.digits, decimal[1]!.length);
        }
        if (s.dates && !DATE.test(value)) s.dates = false;
      });
      for (let i = record.cells.length; i < seen.length; i++) seen[i]!.empty = true;
      if (++rows >= TYPE_SAMPLE_ROWS) break;
    }
  } finally {
    await reading.records.return(undefined);
  }
  const count = Math.min(MAX_COLUMNS, Math.max(header?.length ?? 0, seen.length));
  const columns: ColumnInput[] = describedColumnNames(header, count).map((name, i) => ({ name, ...suggestedType(seen[i]), isKey: false, description: null }));
  return { name: tableName, description: `Described from the sample ${fileName}`.slice(0, 1000), columns };
}

function suggestedType(s: Seen | undefined): Omit<ColumnInput, "name" | "isKey" | "description"> {
  const text = (length: number) => ({ type: "nvarchar" as const, length, precision: null, scale: null, nullable: true });
  if (!s || !s.any) return text(50);
  const nullable = s.empty;
  if (s.ints) return { type: s.big ? "bigint" : "int", length: null, precision: null, scale: null, nullable };
  if (s.decimals && s.digits + s.scale <= 38) return { type: "decimal", length: null, precision: Math.max(s.digits + s.scale, 1), scale: s.scale, nullable };
  if (s.dates) return { type: "date", length: null, precision: null, scale: null, nullable };
  // Room to grow: the longest value seen, rounded up to ten.
  return { ...text(Math.min(NVARCHAR_MAX_LENGTH, Math.max(10, Math.ceil(s.longest / 10) * 10))), nullable: true };
}
