/**
 * The PostgreSQL DDL of a project database: one table per dictionary table in each of its schemas,
 * columns typed by the dictionary (spec §3 types, SQL Server names) with ARCHITECTURE.md §3a's map.
 * Text stays text: leading zeros and long digit strings are never lost.
 */
import { formatColumnType, type Column, type ColumnType } from "../../../../contracts/dictionary.ts";
import type { DateOrder } from "../../../../contracts/values/flat-files.ts";

export type DdlColumn = Pick<Column, "name" | "type" | "length" | "precision" | "scale" | "nullable" | "isKey">;
export type DdlTable = { name: string; columns: readonly DdlColumn[] };

/** Double-quoted, inner quotes doubled: names are validated identifiers already, this is the second belt. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * For the rest of the transaction, text becoming a date is read in the workspace's date order, as
 * its loads read dates: the server's default (MDY) read 03/04/2024 of a day-first delivery as March 4
 * and refused 25/12/2024. Dates written as ISO (a backup's) read alike in every order.
 */
export function dateOrderStatement(order: DateOrder = "YMD"): string {
  return `SET LOCAL DateStyle = 'ISO, ${order}'`;
}

/** The PostgreSQL type of a dictionary column. */
export function postgresType(column: Pick<DdlColumn, "type" | "length" | "precision" | "scale">): string {
  const t: ColumnType = column.type;
  switch (t) {
    case "int":
      return "integer";
    case "bigint":
      return "bigint";
    case "decimal":
      return `numeric(${column.precision ?? 18},${column.scale ?? 0})`;
    case "float":
      return "double precision";
    case "date":
      return "date";
    case "time":
      return "time";
    case "datetime":
      return "timestamp";
    case "uniqueidentifier":
      return "uuid";
    case "nvarchar":
      return column.length != null ? `varchar(${column.length})` : "text";
  }
}

/**
 * The same type as PostgreSQL's catalog writes it (`format_type`): what a dictionary column is
 * compared with to see whether the database still matches it (schema-sync.ts).
 */
export function catalogType(column: Pick<DdlColumn, "type" | "length" | "precision" | "scale">): string {
  const type = postgresType(column);
  if (type.startsWith("varchar(")) return `character varying${type.slice("varchar".length)}`;
  if (type === "time" || type === "timestamp") return `${type} without time zone`;
  return type;
}

/**
 * A stored type (as `format_type` writes it) as the dictionary names it: nvarchar(50), decimal(12, 2),
 * datetime. Types no dictionary column makes (a table a script made) keep PostgreSQL's name.
 */
export function dictionaryTypeName(catalog: string): string {
  const named: Record<string, string> = {
    integer: "int",
    bigint: "bigint",
    "double precision": "float",
    date: "date",
    "time without time zone": "time",
    "timestamp without time zone": "datetime",
    uuid: "uniqueidentifier",
  };
  const sized = /^(character varying|numeric)\((\d+)(?:,(\d+))?\)$/.exec(catalog);
  if (sized?.[1] === "character varying") return formatColumnType({ type: "nvarchar", length: Number(sized[2]), precision: null, scale: null });
  if (sized) return formatColumnType({ type: "decimal", length: null, precision: Number(sized[2]), scale: Number(sized[3] ?? 0) });
  return named[catalog] ?? catalog;
}

export function columnDefinition(column: DdlColumn): string {
  const parts = [quoteIdentifier(column.name), postgresType(column)];
  if (!column.nullable || column.isKey) parts.push("NOT NULL");
  return parts.join(" ");
}

export function createTableStatement(schema: string, table: DdlTable): string {
  if (table.columns.length === 0) throw new Error(`Table ${table.name} has no columns`);
  const lines = table.columns.map(columnDefinition);
  const keys = table.columns.filter((col) => col.isKey).map((col) => quoteIdentifier(col.name));
  if (keys.length) lines.push(`PRIMARY KEY (${keys.join(", ")})`);
  return `CREATE TABLE ${quoteIdentifier(schema)}.${quoteIdentifier(table.name)} (\n  ${lines.join(",\n  ")}\n)`;
}
