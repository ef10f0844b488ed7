import { Link } from "react-router";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { buttonVariants } from "~/components/ui/button";
import { useCompanyHref } from "~/lib/company-href";

/** A page: a path, or a path and search parameters (the company is added here). */
export type Target = string | { path: string; search: Record<string, string> };

export type TableListItem = { id: string; name: string; description: string | null; columnCount: number };

export type DictionaryTablesListProps = {
  tables: TableListItem[];
  /** The page a table's name links to (its editor or details). */
  tableHref?: (tableId: string) => Target;
  /** A mapping project's tables: the page of a table's value maps. */
  mapHref?: (tableId: string) => Target;
  /** With write access: where a table's "Delete" leads, a page or query that asks for confirmation. */
  deleteHref?: (tableId: string) => Target;
  /** Names the table for assistive technology, e.g. "Tables of Sales". */
  label?: string;
  emptyMessage?: string;
};

/** The tables of a dictionary (master or a project's own): name, description, how many columns. */
export function DictionaryTablesList({ tables, tableHref, mapHref, deleteHref, label = "Tables", emptyMessage = "There are no tables yet." }: DictionaryTablesListProps) {
  const companyHref = useCompanyHref();
  const href = (target: Target) => (typeof target === "string" ? companyHref(target) : companyHref(target.path, target.search));
  if (tables.length === 0) return <p className="text-sm text-muted-foreground">{emptyMessage}</p>;
  return (
    <Table aria-label={label}>
      <TableHeader>
        <TableRow>
          <TableHead>Table</TableHead>
          <TableHead>Description</TableHead>
          <TableHead className="text-right">Columns</TableHead>
          {mapHref ? <TableHead>Value maps</TableHead> : null}
          {deleteHref ? (
            <TableHead>
              <span className="sr-only">Actions</span>
            </TableHead>
          ) : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {tables.map((t) => (
          <TableRow key={t.id}>
            <TableCell className="font-medium">
              {tableHref ? (
                <Link to={href(tableHref(t.id))} className="text-brand hover:underline">
                  {t.name}
                </Link>
              ) : (
                t.name
              )}
            </TableCell>
            <TableCell className="text-muted-foreground">{t.description}</TableCell>
            <TableCell className="text-right tabular-nums">{t.columnCount}</TableCell>
            {mapHref ? (
              <TableCell>
                <Link to={href(mapHref(t.id))} className="text-brand hover:underline" aria-label={`Value maps of ${t.name}`}>
                  Value maps
                </Link>
              </TableCell>
            ) : null}
            {deleteHref ? (
              <TableCell className="text-right">
                <Link to={href(deleteHref(t.id))} className={buttonVariants({ variant: "ghost", size: "sm" })} aria-label={`Delete table ${t.name}`}>
                  Delete
                </Link>
              </TableCell>
            ) : null}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
