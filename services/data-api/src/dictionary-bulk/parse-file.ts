import { setImmediate as nextTurn } from "node:timers/promises";
import {
  BULK_COLUMNS,
  BULK_REQUIRED_COLUMNS,
  COLUMN_TYPES,
  columnInputSchema,
  type ColumnInput,
  type RowError,
} from "../../../../contracts/dictionary.ts";
import { identifierSchema } from "../../../../contracts/common.ts";
import type { DesiredTable } from "../repositories/dictionary-tables.ts";
import { readCsv, wrongDelimiter } from "./read-csv.ts";
import { readXlsx } from "./read-xlsx.ts";
import { checkBulkFile, isBlankRow, type SheetRow } from "./sheet-rows.ts";

/** What a file says: the tables it describes, how many rows it has, and every mistake in it. */
export type ParsedFile = { rowCount: number; errors: RowError[]; tables: DesiredTable[] };

type BulkColumn = (typeof BULK_COLUMNS)[number];

/** A table can hold at most this many columns (contracts/dictionary.ts tableInputSchema). */
const MAX_COLUMNS_PER_TABLE = 1024;

/**
 * Reads a dictionary file (.csv or .xlsx, one row per column) into tables, collecting every row
 * error with its row number and column rather than stopping at the first. File-level problems
 * (extension, size, empty, not a workbook, not UTF-8) throw an ApiProblem instead.
 */
export async function parseDictionaryFile(bytes: Uint8Array, fileName: string): Promise<ParsedFile> {
  const kind = checkBulkFile(fileName, bytes.byteLength);
  let rows: SheetRow[];
  if (kind === "csv") {
    const csv = await readCsv(bytes);
    if (csv.error) return { rowCount: 0, errors: [csv.error], tables: [] };
    rows = csv.rows;
  } else {
    rows = await readXlsx(bytes, fileName);
  }
  return parseRows(rows);
}

/** Rows checked between two turns of the event loop (a row takes some 10–30 µs). */
const ROWS_PER_TURN = 1000;

/**
 * The sheet's rows (header first) into tables and row errors. A turn of the event loop every
 * ROWS_PER_TURN rows: a file at the row limit takes seconds to check, and other requests go on.
 */
export async function parseRows(rows: readonly SheetRow[]): Promise<ParsedFile> {
  const nonBlank = rows.filter((r) => !isBlankRow(r.cells));
  const [headerRow, ...dataRows] = nonBlank;
  if (!headerRow) return { rowCount: 0, errors: [{ row: null, column: null, message: "The file is empty" }], tables: [] };

  const header = readHeader(headerRow);
  if (header.errors.length > 0) return { rowCount: dataRows.length, errors: header.errors, tables: [] };

  const errors: RowError[] = [];
  const tables = new Map<string, { name: string; columns: ColumnInput[]; firstRowOf: Map<string, number> }>();
  for (const [position, row] of dataRows.entries()) {
    if (position > 0 && position % ROWS_PER_TURN === 0) await nextTurn();
    const cell = (column: BulkColumn) => {
      const index = header.indexOf.get(column);
      return index === undefined ? "" : (row.cells[index] ?? "").trim();
    };
    const result = readColumnRow(cell);
    const rowErrors = result.errors.map((e) => ({ row: row.row, ...e }));
    // Duplicates are found by name even when the row has other errors, so one upload shows them all.
    if (result.tableName !== undefined && result.columnName !== undefined) {
      const tableKey = result.tableName.toLowerCase();
      let table = tables.get(tableKey);
      if (!table) {
        table = { name: result.tableName, columns: [], firstRowOf: new Map() };
        tables.set(tableKey, table);
      }
      const columnKey = result.columnName.toLowerCase();
      const firstRow = table.firstRowOf.get(columnKey);
      if (firstRow !== undefined) {
        rowErrors.push({ row: row.row, column: "column", message: `Duplicate column '${result.columnName}' in table '${table.name}': first on row ${firstRow}` });
      } else if (table.firstRowOf.size >= MAX_COLUMNS_PER_TABLE) {
        rowErrors.push({ row: row.row, column: "table", message: `Table '${table.name}' has more than ${MAX_COLUMNS_PER_TABLE} columns` });
      } else {
        table.firstRowOf.set(columnKey, row.row);
        if (rowErrors.length === 0 && result.column) table.columns.push(result.column);
      }
    }
    errors.push(...rowErrors);
  }
  return {
    rowCount: dataRows.length,
    errors,
    tables: [...tables.values()].map((t) => ({ name: t.name, columns: t.columns })),
  };
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
    const message = `The first row must be the header row naming the columns (${expected}); row ${headerRow.row} names none of them`;
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
  const name = identifierSchema.safeParse(cell("column"));
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
