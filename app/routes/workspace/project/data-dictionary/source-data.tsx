import { DEFAULT_PAGE_SIZE } from "../../../../../contracts/values/common";
import { ROWS_COLUMN_MAX, ROWS_CONTAINS_MAX, ROWS_SORT_MAX } from "../../../../../contracts/values/table-rows";
import { Form, Link, type UIMatch } from "react-router";
import { FindTableForm, tableOptionsOf } from "~/components/databases/find-table-form";
import { DATABASE_OPTIONS, tableRowsParams } from "~/components/databases/tables-table";
import { formatColumnType } from "~/components/dictionary/column-format";
import { Card } from "~/components/ui/card";
import { Pagination, PastTheEnd } from "~/components/ui/pagination";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useCompanyHref } from "~/lib/company-href";
import { serviceFailure } from "~/lib/forms.server";
import { afterGuard } from "~/lib/guards.server";
import { PAGING_KEYS, pagingParams } from "~/lib/list-search";
import { readContains, readPaging } from "~/lib/list-search.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { SelectFilter } from "~/components/ui/select-filter";
import { projectCalls, projectScope } from "../../workspace.server";
import { databaseTableChoices, readDatabaseKind } from "../table-choices.server";
import type { Route } from "./+types/source-data";
import { KeptFields, PageSizeSelect } from "~/components/ui/list-search-form";

/**
 * data-dictionary/source-data: the rows of a table of the source database, as stored (DOMAIN.md:
 * "rows of a source table, paginated, with the column types applied"), or with `?database=destination`
 * of the destination database (what the templates' runs made of them), paged, sorted and filtered in
 * SQL through the URL: `?table=&page=&pageSize=&sort=&column=&contains=`. The Table select offers the first tables
 * whose name contains `?name=` (a project may have thousands); without `?table=`, the first of them; a `?table=` the
 * database lacks, a 404.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const calls = projectCalls(context);
  const { page, pageSize } = readPaging(params, ["any"], "any");
  // Read as the data API accepts them (a longer search, pasted or typed in a browser that ignores maxlength, is cut, as
  // the page's Contains then shows), never the page failed with the contract's message.
  const filter = {
    column: readContains(params, "column", ROWS_COLUMN_MAX) || undefined,
    contains: readContains(params, "contains", ROWS_CONTAINS_MAX) || undefined,
  };
  const query = { page, pageSize, sort: readContains(params, "sort", ROWS_SORT_MAX) || undefined, ...filter };
  // The table named in the URL is asked beside the list of tables (one round trip); without one, the first table's rows come after it.
  const asked = params.get("table");
  const database = readDatabaseKind(params);
  // A table the database does not have (an old link, a mistyped name) is the data API's 404, said as it says it
  // ("The source database has no table 'Nope'."), as for a missing id elsewhere: never another table's rows in its place.
  // Before the databases are created, though, no table is there to ask for: the page says they are not created yet,
  // as it does without `?table=`. The 404 waits for the list of tables to tell which.
  const askedRows = asked ? calls.tableRows(database, asked, query).catch((failure: unknown) => ({ failure })) : Promise.resolve(null);
  const [{ project }, [{ created, ...tables }, askedAnswer]] = await afterGuard(
    projectScope(context),
    Promise.all([databaseTableChoices(calls, params, database), askedRows]),
  );
  if (askedAnswer && "failure" in askedAnswer && (created || serviceFailure(askedAnswer.failure)?.status !== 404)) throw askedAnswer.failure;
  const rowsOfAsked = created && askedAnswer && !("failure" in askedAnswer) ? askedAnswer : null;
  const table = rowsOfAsked ? asked! : tables.names[0];
  const rows = rowsOfAsked ?? (table ? await calls.tableRows(database, table, query) : null);
  // A column the table lacks (kept from another table's page when the Table select changed, an old link) is searched
  // as any column: the page says so, and shows and links the filter as the data API applied it.
  const missingColumn = rows && filter.column && filter.contains && !rows.column ? filter.column : null;
  const applied = rows ? { ...filter, column: rows.column ?? undefined } : filter;
  return { projectId: project.id, database, created, tables, table: table ?? null, rows, filter: applied, missingColumn };
}

export const handle = {
  breadcrumb: (match: UIMatch<unknown, unknown>) =>
    (match.loaderData as Route.ComponentProps["loaderData"] | undefined)?.database === "destination" ? "Destination data" : "Source data",
};

export default function SourceData({ loaderData }: Route.ComponentProps) {
  const { projectId, database, created, tables, table, rows, filter, missingColumn } = loaderData;
  const databaseName = `${database} database` as const;
  // The source is the page's default: only the destination is named in its links and forms.
  const { database: databaseParam } = tableRowsParams(database, table ?? "");
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const here = paths.dictionary.sourceData(projectId);
  const link = (change: Record<string, string | number | undefined>) =>
    href(here, {
      database: databaseParam,
      table: table ?? undefined,
      name: tables.search || undefined,
      sort: rows?.sort,
      column: filter.column,
      contains: filter.contains,
      ...pagingParams(PAGING_KEYS, { page: 1, pageSize: rows?.pageSize ?? DEFAULT_PAGE_SIZE }),
      ...change,
    });

  if (!created || !table || !rows) {
    return (
      <Card>
        {/* A search that found nothing: the search is offered again, and says so. */}
        {created && tables.search ? (
          <FindTableForm action={here} choices={tables} keep={{ database: databaseParam }} of={databaseName} />
        ) : (
          <p className="text-sm text-muted-foreground">
            {created ? `The ${databaseName} has no tables.` : `The ${databaseName} is not created yet: its rows show here once data is loaded.`}
          </p>
        )}
      </Card>
    );
  }
  // The table shown stays offered when the search does not list it.
  const tableOptions = tableOptionsOf(tables, table).map((o) => [o.value, o.label] as const);
  const descending = rows.sort.startsWith("-");
  const sortedBy = rows.sort.replace(/^-/, "");
  return (
    <Card aria-labelledby="source-data-title">
      <h2 id="source-data-title" className="text-lg font-semibold">
        {database === "source" ? "Source data" : "Destination data"}
      </h2>
      <div className="mt-4">
        <FindTableForm action={here} choices={tables} keep={{ database: databaseParam }} of={databaseName} />
      </div>
      <Form method="get" role="search" aria-label="Find rows" className="mt-4 flex flex-wrap items-end gap-4">
        <KeptFields keep={{ name: tables.search || undefined }} />
        <SelectFilter id="source-database" label="Database" name="database" value={database} options={DATABASE_OPTIONS} />
        <SelectFilter id="source-table" label="Table" name="table" value={table} options={tableOptions} />
        <SelectFilter
          id="source-column"
          label="Column"
          name="column"
          value={filter.column ?? ""}
          options={[["", "Any column"], ...rows.columns.map((c) => [c.name, c.name] as const)]}
        />
        <div>
          <label htmlFor="source-contains" className="mb-1 block text-sm font-medium">
            Contains
          </label>
          <input
            id="source-contains"
            name="contains"
            type="search"
            maxLength={ROWS_CONTAINS_MAX}
            defaultValue={filter.contains ?? ""}
            className="rounded-md border border-border bg-white px-3 py-2 text-sm"
          />
        </div>
        <PageSizeSelect id="source-page-size" value={rows.pageSize} />
        <button type="submit" className="btn h-9 border border-border bg-white px-4 hover:bg-muted">
          Show
        </button>
      </Form>
      {missingColumn ? (
        <p role="status" className="mt-4 text-sm">
          {`${table} has no column ${missingColumn}: the rows shown contain “${filter.contains}” in any column.`}
        </p>
      ) : null}
      <div className="mt-4 overflow-x-auto">
        <Table aria-label={`Rows of ${table}`}>
          <TableHeader>
            <TableRow>
              {rows.columns.map((c) => {
                const active = c.name === sortedBy;
                return (
                  <TableHead key={c.name} scope="col" aria-sort={active ? (descending ? "descending" : "ascending") : undefined}>
                    <Link to={link({ sort: active && !descending ? `-${c.name}` : c.name, page: 1 })} className="hover:underline">
                      {c.name}
                    </Link>{" "}
                    {/* The type as the dictionary defines it (decision 017), as its pages write it; PostgreSQL's own for a column it lacks. */}
                    <span className="text-xs font-normal text-muted-foreground">{c.defined ? formatColumnType(c.defined) : c.type}</span>
                  </TableHead>
                );
              })}
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.items.map((values, i) => (
              <TableRow key={i}>
                {values.map((v, j) => (
                  <TableCell key={j} className="whitespace-pre font-mono text-xs">
                    {v ?? <span className="text-muted-foreground">NULL</span>}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {/* No row to show: the column headers stay (they say the types), and why there is none. */}
      {rows.items.length > 0 ? null : rows.total > 0 ? (
        <PastTheEnd page={rows.page} />
      ) : (
        <p role="status" className="mt-4 text-sm text-muted-foreground">
          {filter.contains
            ? `No row of ${table} contains “${filter.contains}”${filter.column ? ` in ${filter.column}` : ""}. Change or clear the filter.`
            : `${table} has no rows in the ${databaseName}.`}
        </p>
      )}
      <Pagination page={rows.page} pageSize={rows.pageSize} total={rows.total} noun={["row", "rows"]} href={(page) => link({ page })} />
    </Card>
  );
}
