import type * as React from "react";
import { formatBytes, formatTimestamp } from "~/components/projects/format";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";

export type DatabaseTable = { name: string; columnCount: number; rowCount: number; rowCountEstimated: boolean; bytes: number; lastChangedAt: string | null };

/** A database's tables with their column and row counts, size and last load (databases/current, databases/tables); `name` may make each a link. */
export function TablesTable({
  label,
  tables,
  name = (t) => t.name,
}: {
  label: string;
  tables: readonly DatabaseTable[];
  name?: (table: DatabaseTable) => React.ReactNode;
}) {
  return (
    <Table aria-label={label}>
      <TableHeader>
        <TableRow>
          <TableHead>Table</TableHead>
          <TableHead className="text-right">Columns</TableHead>
          <TableHead className="text-right">Rows</TableHead>
          <TableHead className="text-right">Size</TableHead>
          <TableHead>Last loaded</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {tables.map((t) => (
          <TableRow key={t.name}>
            <TableCell className="font-medium">{name(t)}</TableCell>
            <TableCell className="text-right tabular-nums">{t.columnCount}</TableCell>
            <TableCell className="text-right tabular-nums">
              {t.rowCountEstimated ? "about " : ""}
              {t.rowCount.toLocaleString("en-US")}
            </TableCell>
            <TableCell className="text-right tabular-nums">{formatBytes(t.bytes)}</TableCell>
            <TableCell>{t.lastChangedAt ? formatTimestamp(t.lastChangedAt) : "Never"}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
