import type { Column } from "../../../contracts/dictionary";

type ColumnType = Pick<Column, "type" | "length" | "precision" | "scale">;

/** A column's type as SQL writes it: nvarchar(50), decimal(10, 2), int. */
export function formatColumnType(c: ColumnType): string {
  if (c.type === "nvarchar" && c.length != null) return `nvarchar(${c.length})`;
  if (c.type === "decimal" && c.precision != null) return `decimal(${c.precision}, ${c.scale ?? 0})`;
  return c.type;
}

export const yesNo = (value: boolean) => (value ? "Yes" : "No");

/** A timestamp the same on the server and in the browser (no local time zone, no hydration mismatch). */
export function formatTimestamp(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
