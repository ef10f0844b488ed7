import { Link } from "react-router";
import { DATABASE_TABLE_SORTS, type DatabaseTableSort } from "../../../../contracts/values/configurations";
import { Card } from "~/components/ui/card";
import { DATABASE_OPTIONS, TablesTable, tableRowsParams } from "~/components/databases/tables-table";
import { ListSearchForm } from "~/components/ui/list-search-form";
import { Pagination, PastTheEnd } from "~/components/ui/pagination";
import { SearchField } from "~/components/ui/search-field";
import { SelectFilter } from "~/components/ui/select-filter";
import { useCompanyHref } from "~/lib/company-href";
import { afterGuard } from "~/lib/guards.server";
import { readContains, readPaging } from "~/lib/list-search.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { projectCalls, projectScope } from "../workspace.server";
import { readDatabaseKind } from "./table-choices.server";
import type { Route } from "./+types/databases-tables";

const DEFAULT_SORT: DatabaseTableSort = "name";

/** The database, name search, sort and page, all in the URL (a GET form and links); bad values fall back to defaults. */
function readSearch(url: URL) {
  return {
    database: readDatabaseKind(url.searchParams),
    name: readContains(url.searchParams),
    ...readPaging(url.searchParams, DATABASE_TABLE_SORTS, DEFAULT_SORT),
  };
}

/**
 * databases/tables: one database's tables (the source's by default) with their row counts, a page at
 * a time, searched and sorted in SQL; each table links to its rows. Only the page's tables are
 * counted, so a project of 1,500 tables answers as fast as one of ten.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const search = readSearch(new URL(request.url));
  const { name, ...paging } = search;
  const [{ project }, databases] = await afterGuard(projectScope(context), projectCalls(context).databases({ ...paging, table: name || undefined }));
  const database = databases.databases[0]!;
  return {
    projectId: project.id,
    search,
    databaseName: database.name,
    created: database.exists,
    total: database.tableCount,
    tables: database.tables,
  };
}

export const handle = { breadcrumb: "Tables" };

export default function DatabaseTables({ loaderData }: Route.ComponentProps) {
  const { projectId, search, databaseName, created, total, tables } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const action = paths.databases.tables(projectId);
  // Links keep every other parameter; the defaults stay out of the URL.
  const withSearch = (changes: Partial<typeof search>) => {
    const next = { ...search, ...changes };
    return href(action, {
      database: next.database === "source" ? undefined : next.database,
      name: next.name || undefined,
      sort: next.sort === DEFAULT_SORT ? undefined : next.sort,
      page: next.page === 1 ? undefined : next.page,
      pageSize: next.pageSize,
    });
  };
  return (
    <Card aria-labelledby="tables-title" className="space-y-4">
      <h2 id="tables-title" className="text-lg font-semibold">
        Tables of the {databaseName.toLowerCase()}
      </h2>
      {!created ? (
        <p className="text-sm text-muted-foreground">The databases are not created yet.</p>
      ) : (
        <>
          <ListSearchForm
            action={action}
            label="Find tables"
            sort={search.sort}
            defaultSort={DEFAULT_SORT}
            pageSize={search.pageSize}
            pageSizeId="database-tables-page-size"
            filtered={Boolean(search.name) || search.database !== "source"}
          >
            <SelectFilter id="database-tables-database" label="Database" name="database" value={search.database} options={DATABASE_OPTIONS} />
            <SearchField id="database-tables-search" label="Search tables" value={search.name} />
          </ListSearchForm>
          {total === 0 ? (
            <p className="text-sm text-muted-foreground">{search.name ? "No table's name contains this search." : "It has no tables."}</p>
          ) : tables.length === 0 ? (
            <PastTheEnd page={search.page} />
          ) : (
            <div className="overflow-x-auto">
              <TablesTable
                label={search.database === "source" ? "Source tables" : "Destination tables"}
                database={search.database}
                tables={tables}
                sorting={{ sort: search.sort, to: (sort) => withSearch({ sort, page: 1 }) }}
                name={(t) => (
                  <Link to={href(paths.dictionary.sourceData(projectId), tableRowsParams(search.database, t.name))} className="row-link">
                    {t.name}
                  </Link>
                )}
              />
            </div>
          )}
          {total > 0 ? (
            <Pagination page={search.page} pageSize={search.pageSize} total={total} noun={["table", "tables"]} href={(page) => withSearch({ page })} />
          ) : null}
        </>
      )}
    </Card>
  );
}
