import fs from "node:fs";
import { setImmediate as nextTurn } from "node:timers/promises";
import {
  BULK_COLUMNS,
  BULK_REQUIRED_COLUMNS,
  COLUMN_TYPES,
  columnInputSchema,
  columnNameSchema,
  MAX_COLUMNS_PER_TABLE,
  type ColumnInput,
  type RowError,
} from "../../../../contracts/dictionary.ts";
import { identifierSchema } from "../../../../contracts/common.ts";
import type { DesiredTable } from "../repositories/dictionary-tables.ts";
import { TEXT_CHUNK_BYTES } from "../data-plane/flat-file/text-encoding.ts";
import { CsvFormatError, readCsvRows, wrongDelimiter } from "./read-csv.ts";
import { readXlsxRows, type XlsxReadOptions } from "./read-xlsx.ts";
import { checkBulkFile, isBlankRow, type SheetRow } from "./sheet-rows.ts";
import { bytesSource, fileSource } from "./zip-directory.ts";

/** How a dictionary .xlsx is read: its first worksheet, whose first row names the workbook's worksheets (a header problem says them). */
const DICTIONARY_XLSX: XlsxReadOptions = { nameWorksheets: true };

/** What a file says: the tables it describes, how many rows it has, and every mistake in it. */
export type ParsedFile = { rowCount: number; errors: RowError[]; tables: DesiredTable[] };

type BulkColumn = (typeof BULK_COLUMNS)[number];

/**
 * A row of the file whose table and column names are valid identifiers: what the whole-table
 * checks (duplicates, too many columns) and apply need. `column` is set when the row is a valid
 * column definition.
 */
export type StagedRow = { line: number; tableName: string; columnName: string; column: ColumnInput | null };

/** What checking the rows hands on, one at a time: a staged row or a problem. */
export type CheckedItem = { staged: StagedRow } | { problem: RowError };

/**
 * Counted while checking: the file's data rows (non-blank, header left out), and the characters of
 * their cells as read (before trimming). What a row yields is cut from the text it was read from and
 * keeps that text alive until it is let go, so `chars` is what the items yielded so far may hold.
 */
export type RowCounter = { rows: number; chars: number };

/**
 * The rows of the dictionary file at `filePath` (.csv or .xlsx by `fileName`), as they are read from
 * disk: only the current chunk is in memory. File-level problems (extension, size, empty, not a
 * workbook, not UTF-8, limits) throw an ApiProblem; broken CSV quoting throws CsvFormatError.
 */
export async function* readDictionaryFile(filePath: string, fileName: string): AsyncGenerator<SheetRow> {
  const kind = checkBulkFile(fileName, fs.statSync(filePath).size);
  if (kind === "csv") {
    yield* readCsvRows(fs.createReadStream(filePath, { highWaterMark: TEXT_CHUNK_BYTES }));
    return;
  }
  const source = fileSource(filePath);
  try {
    yield* readXlsxRows(source, fileName, DICTIONARY_XLSX);
  } finally {
    source.close();
  }
}

/**
 * Parses the file at `filePath` into checked items, in process (the upload route runs the same in a
 * worker thread: parse-worker.ts). For the benchmark and tools: `for await (const item of …)`.
 */
export function parseDictionaryPath(filePath: string, fileName: string, counter: RowCounter = { rows: 0, chars: 0 }): AsyncGenerator<CheckedItem> {
  return checkRows(readDictionaryFile(filePath, fileName), counter);
}

/**
 * Reads a dictionary file in memory into tables, collecting every row error with its row number
 * and column rather than stopping at the first: the same checks as an upload, for tests and small
 * files. File-level problems (extension, size, empty, not a workbook, not UTF-8) throw an ApiProblem.
 */
export async function parseDictionaryFile(bytes: Uint8Array, fileName: string): Promise<ParsedFile> {
  const kind = checkBulkFile(fileName, bytes.byteLength);
  const rows = kind === "csv" ? readCsvRows([bytes]) : readXlsxRows(bytesSource(bytes), fileName, DICTIONARY_XLSX);
  return collectParsed(rows);
}

/** The sheet's rows (header first) into tables and row errors, all in memory. */
export async function parseRows(rows: readonly SheetRow[]): Promise<ParsedFile> {
  return collectParsed(rows);
}

async function collectParsed(rows: AsyncIterable<SheetRow> | Iterable<SheetRow>): Promise<ParsedFile> {
  const counter = { rows: 0, chars: 0 };
  const problems: RowError[] = [];
  const tables = new Map<string, StagedRow[]>();
  try {
    for await (const item of checkRows(rows, counter)) {
      if ("problem" in item) problems.push(item.problem);
      else {
        const key = item.staged.tableName.toLowerCase();
        const table = tables.get(key) ?? [];
        table.push(item.staged);
        tables.set(key, table);
      }
    }
  } catch (err) {
    if (err instanceof CsvFormatError) return { rowCount: 0, errors: [err.rowError], tables: [] };
    throw err;
  }
  const desired: DesiredTable[] = [];
  for (const staged of tables.values()) {
    const check = new TableCheck();
    for (const row of staged) problems.push(...check.add(row));
    desired.push({ name: check.name!, columns: check.columns });
  }
  return { rowCount: counter.rows, errors: sortProblems(problems), tables: desired };
}

/** Problems by row (those of the whole file last), in the order found within a row. */
export function sortProblems(problems: RowError[]): RowError[] {
  return problems
    .map((problem, seq) => ({ problem, seq }))
    .sort((a, b) => sortLine(a.problem) - sortLine(b.problem) || a.seq - b.seq)
    .map((p) => p.problem);
}

/** Where a problem sorts: its row, or after every row for one about the whole file. */
export function sortLine(problem: RowError): number {
  return problem.row ?? 2_147_483_647;
}

/** Rows checked between two turns of the event loop (a row takes some 10–30 µs). */
const ROWS_PER_TURN = 1000;

/**
 * The sheet's rows (header first) checked one by one: each row's own problems, and the rows with
 * valid table and column names staged for the whole-table checks (TableCheck), which need every
 * row of a table and so run afterwards, table by table. A turn of the event loop every
 * ROWS_PER_TURN rows. Counts the data rows into `counter`.
 */
export async function* checkRows(rows: AsyncIterable<SheetRow> | Iterable<SheetRow>, counter: RowCounter): AsyncGenerator<CheckedItem> {
  let header: ReturnType<typeof readHeader> | undefined;
  let headerFailed = false;
  for await (const row of rows) {
    if (isBlankRow(row.cells)) continue;
    if (!header) {
      header = readHeader(row);
      headerFailed = header.errors.length > 0;
      for (const problem of header.errors) yield { problem };
      continue;
    }
    counter.rows++;
    for (const text of row.cells) counter.chars += text.length;
    // A header in error says nothing about the columns: the rows are counted, not read.
    if (headerFailed) continue;
    if (counter.rows % ROWS_PER_TURN === 0) await nextTurn();
    const indexOf = header.indexOf;
    const cell = (column: BulkColumn) => {
      const index = indexOf.get(column);
      return index === undefined ? "" : (row.cells[index] ?? "").trim();
    };
    const result = readColumnRow(cell);
    for (const e of result.errors) yield { problem: { row: row.row, ...e } };
    // Duplicates are found by name even when the row has other errors, so one upload shows them all.
    if (result.tableName !== undefined && result.columnName !== undefined) {
      yield { staged: { line: row.row, tableName: result.tableName, columnName: result.columnName, column: result.errors.length === 0 ? (result.column ?? null) : null } };
    }
  }
  if (!header) yield { problem: { row: null, column: null, message: "The file is empty" } };
}

/**
 * The checks that need a whole table, fed its staged rows in file order: a column named twice
 * (any case), and more columns than a table holds. Keeps the table's name (its first row's) and
 * its valid columns, at most MAX_COLUMNS_PER_TABLE of them, whatever the number of rows.
 */
export class TableCheck {
  name: string | undefined;
  readonly columns: ColumnInput[] = [];
  readonly #firstRowOf = new Map<string, number>();

  /** The row's problems of this kind (none, or one). */
  add(row: StagedRow): RowError[] {
    this.name ??= row.tableName;
    const columnKey = row.columnName.toLowerCase();
    const firstRow = this.#firstRowOf.get(columnKey);
    if (firstRow !== undefined) {
      return [{ row: row.line, column: "column", message: `Duplicate column '${row.columnName}' in table '${this.name}': first on row ${firstRow}` }];
    }
    if (this.#firstRowOf.size >= MAX_COLUMNS_PER_TABLE) {
      return [{ row: row.line, column: "table", message: `Table '${this.name}' has more than ${MAX_COLUMNS_PER_TABLE} columns` }];
    }
    this.#firstRowOf.set(columnKey, row.line);
    if (row.column) this.columns.push(row.column);
    return [];
  }
}

function readHeader(headerRow: SheetRow) {
  const errors: RowError[] = [];
  const delimiterProblem = wrongDelimiter(headerRow.cells);
  if (delimiterProblem) return { indexOf: new Map<BulkColumn, number>(), errors: [{ row: headerRow.row, column: null, message: delimiterProblem }] };

  const indexOf = new Map<BulkColumn, number>();
  const expected = BULK_COLUMNS.join(", ");
  const known = (cell: string) => (BULK_COLUMNS as readonly string[]).includes(cell.trim().toLowerCase());
  if (!headerRow.cells.some(known)) {
    // Most likely a file that starts with data: one error says it better than one per cell.
    // A workbook's first worksheet may be a cover or notes: say which one was read, and the others.
    const sheets = headerRow.worksheets;
    const message = sheets
      ? `The first row must be the header row naming the columns (${expected}); row ${headerRow.row} of the worksheet '${sheets.read}' names none of them. A dictionary file is read from its first worksheet: this workbook's are ${sheets.all.join(", ")}`
      : `The first row must be the header row naming the columns (${expected}); row ${headerRow.row} names none of them`;
    return { indexOf, errors: [{ row: headerRow.row, column: null, message }] };
  }
  headerRow.cells.forEach((raw, index) => {
    const name = raw.trim().toLowerCase();
    if (name === "") return;
    if (!known(name)) {
      // Refused rather than ignored: a misspelt "nulable" would otherwise silently default every row.
      errors.push({ row: headerRow.row, column: raw.trim(), message: `Unknown column '${raw.trim()}' in the header row: use ${expected}` });
    } else if (indexOf.has(name as BulkColumn)) {
      errors.push({ row: headerRow.row, column: name, message: `The header row names '${name}' twice` });
    } else {
      indexOf.set(name as BulkColumn, index);
    }
  });
  for (const required of BULK_REQUIRED_COLUMNS) {
    if (!indexOf.has(required)) {
      errors.push({ row: headerRow.row, column: required, message: `The header row has no '${required}' column: row 1 must name the columns (${expected})` });
    }
  }
  return { indexOf, errors };
}

type CellError = { column: string; message: string };

type ColumnRow = {
  /** The table and column names, when they are valid identifiers (to find duplicates). */
  tableName?: string;
  columnName?: string;
  /** The column, when the whole row is valid. */
  column?: ColumnInput;
  errors: CellError[];
};

/** One data row into a table name and a column definition, or the reasons it is not one. */
function readColumnRow(cell: (column: BulkColumn) => string): ColumnRow {
  const errors: CellError[] = [];
  const table = identifierSchema.safeParse(cell("table"));
  if (!table.success) errors.push({ column: "table", message: firstMessage(table.error) });
  const name = columnNameSchema.safeParse(cell("column"));
  const names = { tableName: table.success ? table.data : undefined, columnName: name.success ? name.data : undefined };

  const typeText = cell("type");
  const type = typeText.toLowerCase();
  const typeKnown = (COLUMN_TYPES as readonly string[]).includes(type);
  if (typeText === "") errors.push({ column: "type", message: "Required" });
  else if (!typeKnown) errors.push({ column: "type", message: `Unknown type '${typeText}': use one of ${COLUMN_TYPES.join(", ")}` });

  const isKey = yesNo(cell("key"), "key", errors) ?? false;
  // An empty nullable follows the key: a key column is never nullable, any other column is.
  const nullable = yesNo(cell("nullable"), "nullable", errors) ?? !isKey;

  if (!typeKnown) {
    // The other rules depend on the type: report the name alone until the type is fixed.
    if (!name.success) errors.push({ column: "column", message: firstMessage(name.error) });
    return { ...names, errors };
  }
  const column = columnInputSchema.safeParse({
    name: cell("column"),
    type,
    length: cell("length"),
    precision: cell("precision"),
    scale: cell("scale"),
    nullable,
    isKey,
    description: cell("description"),
  });
  if (!column.success) {
    for (const issue of column.error.issues) errors.push({ column: bulkColumnOf(issue.path[0]), message: issue.message });
  }
  if (errors.length > 0 || !column.success) return { ...names, errors: firstPerColumn(errors) };
  return { ...names, column: column.data, errors };
}

const YES = new Set(["yes", "y", "true", "1"]);
const NO = new Set(["no", "n", "false", "0"]);

function yesNo(text: string, column: BulkColumn, errors: CellError[]): boolean | undefined {
  const value = text.toLowerCase();
  if (value === "") return undefined;
  if (YES.has(value)) return true;
  if (NO.has(value)) return false;
  errors.push({ column, message: `'${text}' is not yes or no (also accepted: y/n, true/false, 1/0, empty)` });
  return undefined;
}

/** The file's column for a field of columnInputSchema. */
function bulkColumnOf(field: PropertyKey | undefined): string {
  if (field === "name") return "column";
  if (field === "isKey") return "key";
  return typeof field === "string" ? field : "column";
}

/** One message per cell is enough ("Required" says it; the identifier rule would only repeat it). */
function firstPerColumn(errors: CellError[]): CellError[] {
  const seen = new Set<string>();
  return errors.filter((e) => !seen.has(e.column) && seen.add(e.column));
}

function firstMessage(error: { issues: { message: string }[] }) {
  return error.issues[0]?.message ?? "Invalid";
}
