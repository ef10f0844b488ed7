/**
 * A flat file's cells checked against the column they load into, before PostgreSQL sees them: a
 * value that does not fit is a rejected row with its reason (spec: a bad number or date, text longer
 * than the column, a null in a key column), never a failed COPY halfway through a file. What passes
 * here, PostgreSQL takes as written: text is never trimmed or reformatted, so leading zeros, long
 * digit strings and formula-looking values stay exactly as they were.
 */
import { DATE_ORDER_FORMS, type DateOrder } from "../../../../../contracts/projects.ts";
import type { DdlColumn } from "../postgres-ddl.ts";

/** At most this many of a rejected row's other cells that do not fit are named in its reason. */
const OTHER_CELLS_NAMED = 4;

/**
 * A rejected row's reason: its first cell's that does not fit, then each other such cell's by its
 * column ("a value is required; also CreatedAt: not a date and time (…)"), so that a row corrected from
 * its reason (the preview, the rejected rows and their download) is not rejected again for another cell.
 * `others`: the other cells' reasons, each as "Column: reason".
 */
export function rowReason(first: string, others: readonly string[]): string {
  if (others.length === 0) return first;
  const named = others.slice(0, OTHER_CELLS_NAMED);
  const more = others.length - named.length;
  return `${first}; also ${named.join("; ")}${more > 0 ? `; and ${more} other ${more === 1 ? "column" : "columns"}` : ""}`;
}

/**
 * Why a cell does not fit its column, or null when it does. An empty cell is NULL. Dates are read
 * in `dateOrder` (and as ISO yyyy-mm-dd in every order: a four-digit year first is never ambiguous).
 */
export function cellProblem(column: DdlColumn, cell: string, dateOrder: DateOrder = "YMD"): string | null {
  if (cell === "") return column.nullable && !column.isKey ? null : "a value is required";
  if (column.type === "nvarchar") {
    if (cell.includes("\u0000")) return "text cannot hold a NUL character";
    // Characters, as PostgreSQL counts them (code points), only when the UTF-16 length says it might matter.
    if (column.length != null && cell.length > column.length && [...cell].length > column.length) return `longer than ${column.length} characters`;
    return null;
  }
  const value = cell.trim();
  switch (column.type) {
    case "int": {
      const digits = wholeDigits(value);
      if (digits < 0) return "not a whole number";
      return digits < 10 || (Number(value) <= 2147483647 && Number(value) >= -2147483648) ? null : "out of range for int";
    }
    case "bigint":
      return !WHOLE.test(value) ? "not a whole number" : bigintFits(value) ? null : "out of range for bigint";
    case "decimal":
      return decimalProblem(value, column.precision ?? 18, column.scale ?? 0);
    case "float":
      return FLOAT.test(value) && Number.isFinite(Number(value)) ? null : "not a number";
    case "date":
      return isDate(value) || isoDate(value, dateOrder) !== undefined ? null : `not a date (${DATE_ORDER_FORMS[dateOrder]})`;
    case "time":
      return isTime(value) ? null : "not a time (hh:mm:ss)";
    case "datetime":
      return isoDateTime(value, dateOrder) !== undefined ? null : `not a date and time (${DATE_ORDER_FORMS[dateOrder]} hh:mm:ss)`;
    case "uniqueidentifier":
      return UUID.test(value) ? null : "not a uniqueidentifier";
  }
}

/**
 * COPY's options for what copyValue writes: text format with the file's own delimiter (so that a
 * plain line can go to COPY as it is: load-worker.ts), an empty field being NULL.
 */
export function copyOptions(delimiter: string): string {
  return `DELIMITER '${delimiter.replaceAll("'", "''")}', NULL ''`;
}

/** The cell as the column's COPY value (copyOptions(delimiter)): empty for NULL, else the text escaped; numbers trimmed, dates as ISO. */
export function copyValue(column: DdlColumn, cell: string, dateOrder: DateOrder = "YMD", delimiter = "\t"): string {
  if (cell === "") return "";
  let value = column.type === "nvarchar" ? cell : cell.trim();
  // Checked by cellProblem already: a value that starts yyyy-mm-dd is ISO, and goes as it is.
  if ((column.type === "date" || column.type === "datetime") && !(value.charCodeAt(4) === 45 && value.charCodeAt(7) === 45)) {
    value = (column.type === "date" ? isoDate(value, dateOrder) : isoDateTime(value, dateOrder)) ?? value;
  }
  // Most values hold none of the characters COPY escapes: tested once, replaced only then.
  const special = copySpecial(delimiter);
  return special.one.test(value) ? value.replace(special.all, (c) => COPY_ESCAPES[c] ?? `\\${c}`) : value;
}

/**
 * Whether copyValue writes a cell (one that passed cellProblem) exactly as it is, given that it has
 * no backslash and no delimiter or line break (a plain line's cells: read-delimited.ts): when every
 * cell of a line does, the line itself is its COPY text.
 */
export function writtenAsIs(column: DdlColumn, cell: string): boolean {
  if (cell === "" || column.type === "nvarchar") return true;
  if (cell.trim() !== cell) return false;
  return (column.type !== "date" && column.type !== "datetime") || (cell.charCodeAt(4) === 45 && cell.charCodeAt(7) === 45);
}

/**
 * The cells joined by the delimiter, when that is their COPY text: none holds a backslash, a line
 * break or the delimiter (each cell one that writtenAsIs says goes as written). Undefined otherwise:
 * the cells are then written one by one with copyValue.
 */
export function joinedAsIs(cells: readonly string[], delimiter: string): string | undefined {
  const line = cells.join(delimiter);
  if (line.includes("\\") || line.includes("\n") || line.includes("\r")) return undefined;
  let delimiters = 0;
  for (let at = line.indexOf(delimiter); at >= 0; at = line.indexOf(delimiter, at + 1)) delimiters++;
  return delimiters === cells.length - 1 ? line : undefined;
}

const WHOLE = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const COPY_ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };
/** The characters COPY's text format escapes with this delimiter: a test, and the same for replacing. */
const copySpecials = new Map<string, { one: RegExp; all: RegExp }>();
function copySpecial(delimiter: string) {
  let special = copySpecials.get(delimiter);
  if (!special) {
    const chars = `[\\\\\\t\\n\\r${delimiter.replace(/[\\^\]-]/g, "\\$&")}]`;
    special = { one: new RegExp(chars), all: new RegExp(chars, "g") };
    copySpecials.set(delimiter, special);
  }
  return special;
}

function bigintFits(value: string): boolean {
  const digits = value.replace(/^[+-]?0*/, "");
  if (digits.length < 19) return true;
  if (digits.length > 19) return false;
  const n = BigInt(value);
  return n >= -(2n ** 63n) && n <= 2n ** 63n - 1n;
}

/** The number of digits of a whole number (an optional sign, then digits only), or -1 when it is not one. */
function wholeDigits(value: string): number {
  const start = value.charCodeAt(0) === 43 || value.charCodeAt(0) === 45 ? 1 : 0;
  if (start === value.length) return -1;
  for (let i = start; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
  }
  return value.length - start;
}

/** Scanned by hand: this runs for every cell of a decimal column of every row of a file. */
function decimalProblem(value: string, precision: number, scale: number): string | null {
  let i = value.charCodeAt(0) === 43 || value.charCodeAt(0) === 45 ? 1 : 0;
  let whole = 0;
  let digitsSeen = false;
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 46) break;
    if (c < 48 || c > 57) return "not a number";
    digitsSeen = true;
    // Leading zeros are not digits of the value.
    if (whole > 0 || c !== 48) whole++;
  }
  let fraction = 0;
  for (let j = i + 1, lastNonZero = i; j < value.length; j++) {
    const c = value.charCodeAt(j);
    if (c < 48 || c > 57) return "not a number";
    digitsSeen = true;
    if (c !== 48) lastNonZero = j;
    fraction = lastNonZero - i;
  }
  if (!digitsSeen) return "not a number";
  if (whole > precision - scale) return `more than ${precision - scale} digits before the decimal point`;
  // PostgreSQL would round them away: a load never changes a value, so it is refused instead.
  if (fraction > scale) return scale === 0 ? "decimals in a whole-number column" : `more than ${scale} decimals`;
  return null;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** yyyy-mm-dd, a real day: scanned by hand, as it runs for every date cell of a file. */
function isDate(value: string): boolean {
  if (value.length !== 10 || value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) return false;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!);
}

/** The number written by `length` digits at `at`, or -1. */
function digitsAt(value: string, at: number, length: number): number {
  let n = 0;
  for (let i = at; i < at + length; i++) {
    const c = value.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    n = n * 10 + (c - 48);
  }
  return n;
}

const YEAR_FIRST = /^(\d{4})([-/.])(\d{1,2})\2(\d{1,2})$/;
const YEAR_LAST = /^(\d{1,2})([-/.])(\d{1,2})\2(\d{4})$/;

/**
 * A date that is not yyyy-mm-dd as yyyy-mm-dd, or undefined when it is no date: year first with any
 * of - / . (2024/1/31), or in DMY and MDY the year last (31/1/2024, 31-01-2024, 31.01.2024).
 */
function isoDate(value: string, order: DateOrder): string | undefined {
  const first = YEAR_FIRST.exec(value);
  if (first) return realDay(first[1]!, first[3]!, first[4]!);
  const last = order === "YMD" ? null : YEAR_LAST.exec(value);
  if (!last) return undefined;
  return order === "DMY" ? realDay(last[4]!, last[3]!, last[1]!) : realDay(last[4]!, last[1]!, last[3]!);
}

function realDay(year: string, month: string, day: string): string | undefined {
  const iso = `${year}-${month.padStart(2, "0")}-${day.padStart(2, "0")}`;
  return isDate(iso) ? iso : undefined;
}

/** A date and time (the date as above; a space or T; hh:mm[:ss[.ffffff]]), or a date alone, as ISO; undefined when it is neither. */
function isoDateTime(value: string, order: DateOrder): string | undefined {
  const [date, time, extra] = value.split(/[ T]/);
  if (extra !== undefined || (time !== undefined && !isTime(time))) return undefined;
  const iso = isDate(date!) ? date : isoDate(date!, order);
  if (iso === undefined) return undefined;
  // The value as written when it is ISO already: nothing to build on the common path.
  return iso === date ? value : time === undefined ? iso : `${iso} ${time}`;
}

function isTime(value: string): boolean {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?$/.exec(value);
  return !!m && Number(m[1]) <= 23 && Number(m[2]) <= 59 && Number(m[3] ?? 0) <= 59;
}
