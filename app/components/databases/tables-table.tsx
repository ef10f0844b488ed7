import type * as React from "react";
import { formatBytes, formatTimestamp } from "~/components/projects/format";
import { SortableHeader, sortDescription } from "~/components/ui/sortable-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow, tableHeadClassName } from "~/components/ui/table";
import { cn } from "~/lib/utils";
import { capitalised } from "../../../contracts/values/common";
import { PROJECT_DATABASE_KINDS, type DatabaseTableSort, type ProjectDatabaseKind } from "../../../contracts/values/configurations";

const SORT_LABELS = { name: "table name", size: "size" } as const;

/** The Database select's choices (databases/tables, the data page): "Source database", "Destination database". */
export const DATABASE_OPTIONS = PROJECT_DATABASE_KINDS.map((kind) => [kind, `${capitalised(kind)} database`] as const);

/** The URL parameters of a table's rows on the data page (data-dictionary/source-data): the source is its default, so only the destination is named. */
export function tableRowsParams(database: ProjectDatabaseKind, table: string) {
  return { table, database: database === "source" ? undefined : database };
}

export type DatabaseTable = { name: string; columnCount: number; rowCount: number; rowCountEstimated: boolean; bytes: number; lastChangedAt: string | null };

/** Sorting by the headers that may sort (databases/tables): the sort shown and each sort's URL. */
export type TablesSorting = { sort: DatabaseTableSort; to: (sort: DatabaseTableSort) => string };

/**
 * A database's tables with their column and row counts, size and last load (databases/current,
 * databases/tables); `name` may make each a link, and `sorting` makes Table and Size sort the list.
 * The destination's tables have no "Last loaded": runs fill them, and loads only ever fill the source.
 */
export function TablesTable({
  label,
  database,
  tables,
  name = (t) => t.name,
  sorting,
}: {
  label: string;
  database: ProjectDatabaseKind;
  tables: readonly DatabaseTable[];
  name?: (table: DatabaseTable) => React.ReactNode;
  sorting?: TablesSorting;
}) {
  return (
    <Table aria-label={label}>
      {sorting ? <caption className="sr-only">Sorted by {sortDescription(sorting.sort, SORT_LABELS)}</caption> : null}
      <TableHeader>
        <TableRow>
          {sorting ? (
            <SortableHeader label="Table" column="name" sort={sorting.sort} to={sorting.to} className={tableHeadClassName} />
          ) : (
            <TableHead>Table</TableHead>
          )}
          <TableHead className="text-right">Columns</TableHead>
          <TableHead className="text-right">Rows</TableHead>
          {sorting ? (
            <SortableHeader label="Size" column="size" sort={sorting.sort} to={sorting.to} className={cn(tableHeadClassName, "text-right")} />
          ) : (
            <TableHead className="text-right">Size</TableHead>
          )}
          {database === "source" ? <TableHead>Last loaded</TableHead> : null}
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
            {database === "source" ? <TableCell>{t.lastChangedAt ? formatTimestamp(t.lastChangedAt) : "Never"}</TableCell> : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
