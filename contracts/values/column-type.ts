/** A column's type as SQL writes it: nvarchar(50), decimal(10, 2), int (the dictionary's pages, the databases' messages). */
export function formatColumnType(c: { type: string; length: number | null; precision: number | null; scale: number | null }): string {
  if (c.type === "nvarchar" && c.length != null) return `nvarchar(${c.length})`;
  if (c.type === "decimal" && c.precision != null) return `decimal(${c.precision}, ${c.scale ?? 0})`;
  return c.type;
}
