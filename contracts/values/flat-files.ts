import type { COLUMN_TYPES } from "./dictionary";

/*
 * Zod-free, like ./projects.ts: a flat file's parameters (extensions, delimiters, encodings, date
 * orders, column widths) and their labels. A module of its own so that the pages that show a
 * workspace's status (nearly all of them) do not load the load form's labels with it (issue 8's bar).
 * contracts/projects.ts re-exports it with the schemas.
 */

/** Spec §5. */
export const FLAT_FILE_EXTENSIONS = [".csv", ".txt", ".dta", ".xlsx"] as const;
export const DELIMITERS = ["AutoDetect", "FixedLength", "Excel", "Tab", "Comma", "Pipe", "Semicolon", "Tilde", "Apostrophe", "Caret"] as const;
export const DELIMITER_LABELS: Record<(typeof DELIMITERS)[number], string> = {
  AutoDetect: "Auto detect",
  FixedLength: "Fixed Length",
  Excel: "Excel",
  Tab: "Tab",
  Comma: "comma",
  Pipe: "pipe",
  Semicolon: "semicolon",
  Tilde: "tilde",
  Apostrophe: "apostrophe",
  Caret: "caret",
};
export const TEXT_QUALIFIERS = ["DoubleQuote", "SingleQuote", "None"] as const;
export const TEXT_QUALIFIER_LABELS: Record<(typeof TEXT_QUALIFIERS)[number], string> = {
  DoubleQuote: 'Double quote (")',
  SingleQuote: "Single quote (')",
  None: "None",
};
/** Auto detect: a byte-order mark first (UTF-8, UTF-16 LE/BE), then the content (NUL bytes every other byte: UTF-16; valid UTF-8; else Windows-1252). */
export const ENCODINGS = ["AutoDetect", "UTF-8", "UTF-16LE", "UTF-16BE", "Windows-1252", "ISO-8859-1"] as const;
export type Encoding = (typeof ENCODINGS)[number];
export const ENCODING_LABELS: Record<Encoding, string> = {
  AutoDetect: "Auto detect",
  "UTF-8": "UTF-8",
  "UTF-16LE": "UTF-16 LE",
  "UTF-16BE": "UTF-16 BE",
  "Windows-1252": "Windows-1252",
  "ISO-8859-1": "ISO-8859-1",
};

/** How a file writes its dates. ISO dates (yyyy-mm-dd) are read in every order: a four-digit year first is never ambiguous. */
export const DATE_ORDERS = ["YMD", "DMY", "MDY"] as const;
export type DateOrder = (typeof DATE_ORDERS)[number];
export const DATE_ORDER_LABELS: Record<DateOrder, string> = {
  YMD: "Year, month, day (2024-01-31)",
  DMY: "Day, month, year (31/01/2024)",
  MDY: "Month, day, year (01/31/2024)",
};
/** The form a date of each order is written in, as rejection reasons name it. */
export const DATE_ORDER_FORMS: Record<DateOrder, string> = { YMD: "yyyy-mm-dd", DMY: "dd/mm/yyyy", MDY: "mm/dd/yyyy" };

/** A worksheet's name in Excel has at most 31 characters. */
export const WORKSHEET_NAME_MAX = 31;
/** The widest fixed-length column: far beyond any nvarchar (4,000). */
export const COLUMN_WIDTH_MAX = 10_000;
export const COLUMN_WIDTHS_MESSAGE = `Column widths are whole numbers from 1 to ${COLUMN_WIDTH_MAX.toLocaleString("en-US")}, separated by commas`;

/**
 * A fixed-length column's width when the parameters do not say: the dictionary's length for text,
 * the width of the longest value a type writes for the others (a sign and a point for decimals).
 */
export function defaultColumnWidth(column: { type: (typeof COLUMN_TYPES)[number]; length: number | null; precision: number | null }): number {
  switch (column.type) {
    case "nvarchar":
      return column.length ?? 255;
    case "int":
      return 11;
    case "bigint":
      return 20;
    case "decimal":
      return (column.precision ?? 18) + 2;
    case "float":
      return 24;
    case "date":
      return 10;
    case "time":
      return 8;
    case "datetime":
      return 19;
    case "uniqueidentifier":
      return 36;
  }
}

/** What a workspace without saved flat-file parameters loads with: CSV with a header row, delimiter and encoding detected. */
export const DEFAULT_FLAT_FILE_PARAMETERS = {
  extension: ".csv",
  delimiter: "AutoDetect",
  hasHeaderRow: true,
  textQualifier: "DoubleQuote",
  encoding: "AutoDetect",
  dateOrder: "YMD",
  worksheet: "",
  columnWidths: {},
} as const satisfies {
  extension: (typeof FLAT_FILE_EXTENSIONS)[number];
  delimiter: (typeof DELIMITERS)[number];
  hasHeaderRow: boolean;
  textQualifier: (typeof TEXT_QUALIFIERS)[number];
  encoding: Encoding;
  dateOrder: DateOrder;
  worksheet: string;
  columnWidths: Record<string, number[]>;
};
