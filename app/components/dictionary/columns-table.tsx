import type { Column } from "../../../contracts/dictionary";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { formatColumnType, yesNo } from "./column-format";

/** A table's columns, read-only, in their order (view pages, table details). */
export function ColumnsTable({ columns, caption }: { columns: Column[]; caption?: string }) {
  if (columns.length === 0) return <p className="text-sm text-muted-foreground">This table has no columns yet.</p>;
  const sorted = [...columns].sort((a, b) => a.order - b.order);
  return (
    <Table aria-label={caption}>
      <TableHeader>
        <TableRow>
          <TableHead className="w-12">#</TableHead>
          <TableHead>Column</TableHead>
          <TableHead>Type</TableHead>
          <TableHead>Nullable</TableHead>
          <TableHead>Key</TableHead>
          <TableHead>Description</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {sorted.map((c, i) => (
          <TableRow key={c.id}>
            <TableCell className="text-muted-foreground">{i + 1}</TableCell>
            <TableCell className="font-medium">{c.name}</TableCell>
            <TableCell>
              <code>{formatColumnType(c)}</code>
            </TableCell>
            <TableCell>{yesNo(c.nullable)}</TableCell>
            <TableCell>{yesNo(c.isKey)}</TableCell>
            <TableCell className="text-muted-foreground">{c.description}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
