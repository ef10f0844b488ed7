/*
 * Zod-free: the browser imports these (labels, options, limits) without pulling in Zod. The schemas in
 * contracts/dictionary.ts build on them and re-export them, so the services import from there as before.
 */

// Their own module (column-types.ts): the table editor, the one page piece that needs them, then brings none of this one's tables and limits.
export { COLUMN_TYPES, isColumnType, takesLength, takesPrecision } from "./column-types";

// A module of its own: a page that shows column types then does not bring this one's tables and limits with it.
export { formatColumnType } from "./column-type";

/**
 * The names of PostgreSQL's system columns, which every table of a project database has: a column of
 * the dictionary cannot take one (any case, as names are matched case-insensitively), or creating the
 * databases fails ('column name "xmin" conflicts with a system column name').
 */
export const SYSTEM_COLUMN_NAMES = ["tableoid", "xmin", "cmin", "xmax", "cmax", "ctid"] as const;
export const isSystemColumnName = (name: string): boolean => (SYSTEM_COLUMN_NAMES as readonly string[]).includes(name.toLowerCase());

export const NVARCHAR_MAX_LENGTH = 4000;
export const DECIMAL_MAX_PRECISION = 38;

export const DICTIONARY_SORTS = ["name", "-name", "application", "-application", "updatedAt", "-updatedAt"] as const;
export type DictionarySort = (typeof DICTIONARY_SORTS)[number];

/** The file's columns (header row, any order, case-insensitive). table, column and type are required. */
export const BULK_COLUMNS = ["table", "column", "type", "length", "precision", "scale", "nullable", "key", "description"] as const;
export const BULK_REQUIRED_COLUMNS = ["table", "column", "type"] as const;
/** The upload streams to a file and is parsed as a stream (flat memory), so the cap is about disk and time. */
export const BULK_UPLOAD_MAX_BYTES = 64 * 1024 * 1024;
export const BULK_UPLOAD_MAX_MB = BULK_UPLOAD_MAX_BYTES / (1024 * 1024);
export const BULK_UPLOAD_EXTENSIONS = [".csv", ".xlsx"] as const;

/**
 * What a bulk upload does with the columns of a table in the file that the file does not list.
 * replace (the default): each table in the file is its full definition, so they are removed.
 * merge ("Only add and change"): they are kept where they are; the file's new columns follow them.
 * Either way, tables not in the file stay as they are.
 */
export const BULK_UPLOAD_MODES = ["replace", "merge"] as const;

/*
 * What a dictionary file may hold beyond its size. A real dictionary stays far below each limit; a
 * crafted file (a zip bomb, a worksheet with one cell in column XFD per row) hits one at once and is
 * refused before it can take the process's memory or time.
 */
/** Columns of the sheet: the file has 9 meaningful ones; a few spare for notes beside them. */
export const BULK_UPLOAD_MAX_COLUMNS = 50;
/** Rows of the sheet, header and blank rows included. */
export const BULK_UPLOAD_MAX_ROWS = 1_000_000;
/** Characters of cell text kept while reading one file (a shared string counts each time it is used). */
export const BULK_UPLOAD_MAX_TEXT_CHARS = 64 * 1024 * 1024;
/**
 * An .xlsx is a zip: what its parts may add up to once unpacked (each part, and all of them together).
 * Parts are unpacked as streams, so this bounds time, not memory: a workbook of plain dictionary rows
 * unpacks to some 10 times its size, so a 64 MB one to some 640 MB; the compression ratio check
 * below still stops a bomb long before.
 */
export const BULK_XLSX_MAX_UNPACKED_BYTES = 640 * 1024 * 1024;
/** Parts (zip entries) of an .xlsx: a workbook has about ten. */
export const BULK_XLSX_MAX_PARTS = 1000;
/** A part larger than BULK_XLSX_RATIO_CHECKED_ABOVE_BYTES may unpack to at most this many times its packed size. */
export const BULK_XLSX_MAX_COMPRESSION_RATIO = 200;
export const BULK_XLSX_RATIO_CHECKED_ABOVE_BYTES = 1024 * 1024;

/*
 * A workspace's dictionary changed after its databases exist: the databases follow it (decision 017).
 * A change that would delete data is refused (409, this code, the losses listed line by line after
 * the first) until it is sent again with `?confirmDataLoss=true`; one the databases cannot follow at
 * all (values too long for a narrower type, nulls in a column made required…) is refused with
 * SCHEMA_CHANGE_REFUSED_CODE, confirmed or not.
 */
export const DATA_LOSS_CODE = "data_loss";
/** A mapping project's change that would delete value maps holding values: refused, listed and confirmed as DATA_LOSS_CODE is. */
export const VALUE_MAP_LOSS_CODE = "value_map_loss";
export const SCHEMA_CHANGE_REFUSED_CODE = "schema_change_refused";
export const CONFIRM_DATA_LOSS_PARAM = "confirmDataLoss";
