/**
 * The SQLite DDL of a project database: one table per dictionary table, columns typed by the
 * dictionary (spec §3 types, SQL Server names). SQLite's types are affinities, not rules, so each
 * column also gets a CHECK that refuses what the declared type would: a too-long nvarchar, a text
 * in an int, a date that is not a date. Loads then fail on the bad row instead of storing it.
 */
import type { Column, ColumnType } from "../../../../contracts/dictionary.ts";

export type DdlColumn = Pick<Column, "name" | "type" | "length" | "precision" | "scale" | "nullable" | "isKey">;
export type DdlTable = { name: string; columns: readonly DdlColumn[] };

/** Double-quoted, inner quotes doubled: names are validated identifiers already, this is the second belt. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const HEX = "[0-9A-Fa-f]";
const UUID_GLOB = [8, 4, 4, 4, 12].map((n) => HEX.repeat(n)).join("-");

/** The declared type and the CHECK condition (null when the affinity alone is enough). */
function typeOf(column: DdlColumn): { declared: string; check: string | null } {
  const c = quoteIdentifier(column.name);
  const t: ColumnType = column.type;
  switch (t) {
    case "int":
      return { declared: "INTEGER", check: `typeof(${c}) = 'integer' AND ${c} BETWEEN ${INT_MIN} AND ${INT_MAX}` };
    case "bigint":
      return { declared: "INTEGER", check: `typeof(${c}) = 'integer'` };
    case "decimal": {
      const precision = column.precision ?? 18;
      const scale = column.scale ?? 0;
      // The integer digits are bounded; the scale is not enforced (SQLite keeps the value as given,
      // a load rounds to the scale before it inserts).
      return {
        declared: `NUMERIC(${precision},${scale})`,
        check: `typeof(${c}) IN ('integer', 'real') AND abs(${c}) < 1e${precision - scale}`,
      };
    }
    case "float":
      return { declared: "REAL", check: `typeof(${c}) IN ('integer', 'real')` };
    case "date":
      // date() normalises: an impossible day (2023-02-30) or another format comes back different.
      return { declared: "TEXT", check: `date(${c}) IS ${c}` };
    case "time":
      // hh:mm:ss with optional fractional seconds, as SQL Server's time.
      return {
        declared: "TEXT",
        check: `time(substr(${c}, 1, 8)) IS substr(${c}, 1, 8) AND (length(${c}) = 8 OR (substr(${c}, 9, 1) = '.' AND length(${c}) > 9 AND substr(${c}, 10) NOT GLOB '*[^0-9]*'))`,
      };
    case "datetime":
      // yyyy-mm-dd, then optionally a time (space or T separated); the date part must be a real day.
      return {
        declared: "TEXT",
        check: `date(substr(${c}, 1, 10)) IS substr(${c}, 1, 10) AND datetime(${c}) IS NOT NULL`,
      };
    case "uniqueidentifier":
      return { declared: "TEXT", check: `length(${c}) = 36 AND ${c} GLOB '${UUID_GLOB}'` };
    case "nvarchar":
      return { declared: "TEXT", check: column.length != null ? `length(${c}) <= ${column.length}` : null };
  }
}

export function columnDefinition(column: DdlColumn): string {
  const c = quoteIdentifier(column.name);
  const { declared, check } = typeOf(column);
  const parts = [c, declared];
  if (!column.nullable || column.isKey) parts.push("NOT NULL");
  // A CHECK passes on NULL only when its expression is NULL; the typeof() tests are not, so NULL is
  // let through explicitly and NOT NULL alone decides about it.
  if (check) parts.push(`CHECK (${c} IS NULL OR (${check}))`);
  return parts.join(" ");
}

export function createTableStatement(table: DdlTable): string {
  if (table.columns.length === 0) throw new Error(`Table ${table.name} has no columns`);
  const lines = table.columns.map(columnDefinition);
  const keys = table.columns.filter((col) => col.isKey).map((col) => quoteIdentifier(col.name));
  if (keys.length) lines.push(`PRIMARY KEY (${keys.join(", ")})`);
  return `CREATE TABLE ${quoteIdentifier(table.name)} (\n  ${lines.join(",\n  ")}\n)`;
}
