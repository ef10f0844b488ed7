import type { RejectedRow } from "../../../contracts/loads";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";

/**
 * The rows of a file that a load (a table's page of its history entry) or a translation rejected: each row
 * as the file numbers it (counting the header), the column and value that rejected it, or none for a row
 * rejected whole, and why.
 */
export function RejectedRowsTable({ label, rows, className }: { label: string; rows: readonly RejectedRow[]; className?: string }) {
  return (
    <Table aria-label={label} className={className}>
      <TableHeader>
        <TableRow>
          <TableHead className="text-right">Row</TableHead>
          <TableHead>Column</TableHead>
          <TableHead>Value</TableHead>
          <TableHead>Reason</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((r) => (
          <TableRow key={r.line}>
            <TableCell className="text-right tabular-nums">{r.line}</TableCell>
            <TableCell>{r.column ?? "(the whole row)"}</TableCell>
            <TableCell className="max-w-xs truncate font-mono text-xs">{r.value ?? ""}</TableCell>
            <TableCell>{r.reason}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
