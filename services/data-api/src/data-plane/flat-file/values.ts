/**
 * A flat file's cells checked against the column they load into, before PostgreSQL sees them: a
 * value that does not fit is a rejected row with its reason (spec: a bad number or date, text longer
 * than the column, a null in a key column), never a failed COPY halfway through a file. What passes
 * here, PostgreSQL takes as written: text is never trimmed or reformatted, so leading zeros, long
 * digit strings and formula-looking values stay exactly as they were.
 */
import type { DdlColumn } from "../postgres-ddl.ts";

/** Why a cell does not fit its column, or null when it does. An empty cell is NULL. */
export function cellProblem(column: DdlColumn, cell: string): string | null {
  if (cell === "") return column.nullable && !column.isKey ? null : "a value is required";
  if (column.type === "nvarchar") {
    if (cell.includes("\u0000")) return "text cannot hold a NUL character";
    // Characters, as PostgreSQL counts them (code points), only when the UTF-16 length says it might matter.
    if (column.length != null && cell.length > column.length && [...cell].length > column.length) return `longer than ${column.length} characters`;
    return null;
  }
  const value = cell.trim();
  switch (column.type) {
    case "int":
      return !WHOLE.test(value) ? "not a whole number" : Math.abs(Number(value)) > 2147483647 && Number(value) !== -2147483648 ? "out of range for int" : null;
    case "bigint":
      return !WHOLE.test(value) ? "not a whole number" : bigintFits(value) ? null : "out of range for bigint";
    case "decimal":
      return decimalProblem(value, column.precision ?? 18, column.scale ?? 0);
    case "float":
      return FLOAT.test(value) && Number.isFinite(Number(value)) ? null : "not a number";
    case "date":
      return isDate(value) ? null : "not a date (yyyy-mm-dd)";
    case "time":
      return isTime(value) ? null : "not a time (hh:mm:ss)";
    case "datetime": {
      const [date, time, extra] = value.split(/[ T]/);
      return isDate(date!) && (time === undefined || isTime(time)) && extra === undefined ? null : "not a date and time (yyyy-mm-dd hh:mm:ss)";
    }
    case "uniqueidentifier":
      return UUID.test(value) ? null : "not a uniqueidentifier";
  }
}

/** The cell as the column's COPY value (text format): NULL, or the text escaped; numbers and dates trimmed. */
export function copyValue(column: DdlColumn, cell: string): string {
  if (cell === "") return "\\N";
  const value = column.type === "nvarchar" ? cell : cell.trim();
  return value.replace(COPY_SPECIAL, (c) => COPY_ESCAPES[c]!);
}

const WHOLE = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL = /^[+-]?(\d*)(?:\.(\d*))?$/;
const COPY_SPECIAL = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" };

function bigintFits(value: string): boolean {
  const digits = value.replace(/^[+-]?0*/, "");
  if (digits.length < 19) return true;
  if (digits.length > 19) return false;
  const n = BigInt(value);
  return n >= -(2n ** 63n) && n <= 2n ** 63n - 1n;
}

function decimalProblem(value: string, precision: number, scale: number): string | null {
  const match = DECIMAL.exec(value);
  if (!match || (match[1] === "" && (match[2] ?? "") === "")) return "not a number";
  const whole = match[1]!.replace(/^0+/, "");
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (whole.length > precision - scale) return `more than ${precision - scale} digits before the decimal point`;
  // PostgreSQL would round them away: a load never changes a value, so it is refused instead.
  if (fraction.length > scale) return scale === 0 ? "decimals in a whole-number column" : `more than ${scale} decimals`;
  return null;
}

function isDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function isTime(value: string): boolean {
  const m = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?$/.exec(value);
  return !!m && Number(m[1]) <= 23 && Number(m[2]) <= 59 && Number(m[3] ?? 0) <= 59;
}
