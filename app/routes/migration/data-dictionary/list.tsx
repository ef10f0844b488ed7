import { Icon } from "~/components/ui/icon";
import { Link } from "react-router";
import { DICTIONARY_SORTS, type DictionarySort } from "../../../../contracts/values/dictionary";
import { WORKSPACES } from "../../../../contracts/workspaces";
import { formatTimestamp } from "~/components/dictionary/column-format";
import { buttonVariants } from "~/components/ui/button";
import { ListSearchForm } from "~/components/ui/list-search-form";
import { EmptyList, PagedList } from "~/components/ui/list-page";
import { SearchField } from "~/components/ui/search-field";
import { SelectFilter } from "~/components/ui/select-filter";
import { SortableHeader, sortDescription } from "~/components/ui/sortable-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow, tableHeadClassName } from "~/components/ui/table";
import { useCompanyHref } from "~/lib/company-href";
import { forSelectedCompany } from "~/lib/guards.server";
import type { Caller } from "~/lib/api.server";
import { readContains, readPaging } from "~/lib/list-search.server";
import { selectableApplications } from "~/lib/api/applications.server";
import { searchDictionaries } from "~/lib/api/dictionaries.server";
import { masterDataAccess } from "./dictionary.server";
import { useDictionaryPaths } from "./paths";
import type { Route } from "./+types/list";

const DEFAULT_SORT: DictionarySort = "name";
const SORT_LABELS = { name: "name", application: "application", updatedAt: "last update" } as const;

/**
 * The search, application filter, sort and page, all in the URL (a GET form and links: no JavaScript
 * needed). Bad values fall back to defaults; an application that is not one the filter offers to none.
 */
function readSearch(url: URL, applicationIds: readonly string[]) {
  const applicationId = url.searchParams.get("applicationId") ?? "";
  return {
    name: readContains(url.searchParams),
    applicationId: applicationIds.includes(applicationId) ? applicationId : "",
    ...readPaging(url.searchParams, DICTIONARY_SORTS, DEFAULT_SORT),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  // The applications and the dictionaries in parallel: the search takes the URL's application at its
  // word when it looks like one (an id the data API gives is a UUID), and is asked again without it in
  // the rare case the filter does not offer that application.
  const applicationId = url.searchParams.get("applicationId") ?? "";
  const asked = readSearch(url, UUID.test(applicationId) ? [applicationId] : []);
  const find = (as: Caller, companyId: string, s: typeof asked) =>
    searchDictionaries(as, { companyId, ...s, name: s.name || undefined, applicationId: s.applicationId || undefined });
  const { shell, value } = await forSelectedCompany(context, (as, companyId) =>
    // The Application filter offers at most SELECT_LIMIT applications, by name (see there).
    Promise.all([selectableApplications(as, companyId), find(as, companyId, asked)]),
  );
  const applications = value?.[0] ?? [];
  const search = readSearch(
    url,
    applications.map((a) => a.id),
  );
  const result =
    shell.company && value
      ? search.applicationId === asked.applicationId
        ? value[1]
        : await find(shell, shell.company.id, search)
      : { items: [], total: 0, page: 1, pageSize: search.pageSize };
  return {
    search,
    result,
    applications: applications.map((a) => ({ id: a.id, name: a.name })),
    companyName: shell.company?.name ?? null,
    canWrite: masterDataAccess(shell).canWrite,
  };
}

export default function DataDictionaries({ loaderData }: Route.ComponentProps) {
  const { search, result, applications, companyName, canWrite } = loaderData;
  const href = useCompanyHref();
  const paths = useDictionaryPaths();
  const filtered = Boolean(search.name) || Boolean(search.applicationId);
  // Links keep every other parameter.
  const withSearch = (changes: Partial<typeof search>) =>
    href(paths.list, { ...search, ...changes, name: (changes.name ?? search.name) || undefined, applicationId: search.applicationId || undefined });
  const sortTo = (sort: DictionarySort) => withSearch({ sort, page: 1 });

  return (
    <section aria-labelledby="page-title" className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
            Data Dictionary
          </h1>
          {companyName ? <p className="mt-1 text-sm text-muted-foreground">{companyName}</p> : null}
        </div>
        {canWrite ? (
          <Link to={href(paths.createNew)} className={buttonVariants()}>
            <Icon name="plus" />
            Create data dictionary
          </Link>
        ) : null}
      </div>

      <ListSearchForm
        action={paths.list}
        label="Find data dictionaries"
        sort={search.sort}
        defaultSort={DEFAULT_SORT}
        pageSize={search.pageSize}
        pageSizeId="dictionary-page-size"
        filtered={filtered}
      >
        <SearchField id="dictionary-search" label="Search data dictionaries" value={search.name} />
        <SelectFilter
          id="dictionary-application"
          label="Application"
          name="applicationId"
          value={search.applicationId}
          options={[["", "All applications"], ...applications.map((a) => [a.id, a.name] as const)]}
          className="max-w-64"
        />
      </ListSearchForm>

      <PagedList
        list={result}
        empty={
          <EmptyList title={filtered ? "No matching data dictionaries" : "No data dictionaries yet"}>
            {filtered ? (
              "No data dictionary matches this search. Change the search or the application filter."
            ) : (
              <>
                There are no master data dictionaries in this company yet. A dictionary describes the tables and columns of one application;{" "}
                {WORKSPACES[paths.area].nounPlural} of that application start from it.
              </>
            )}
          </EmptyList>
        }
        noun={["data dictionary", "data dictionaries"]}
        href={(page) => withSearch({ page })}
      >
        <Table aria-label="Data dictionaries">
          <caption className="sr-only">Data dictionaries, sorted by {sortDescription(search.sort, SORT_LABELS)}</caption>
          <TableHeader>
            <TableRow>
              <SortableHeader label="Application" column="application" sort={search.sort} to={sortTo} className={tableHeadClassName} />
              <SortableHeader label="Name" column="name" sort={search.sort} to={sortTo} className={tableHeadClassName} />
              <TableHead className="text-right">Tables</TableHead>
              <TableHead className="text-right">Columns</TableHead>
              <SortableHeader label="Updated" column="updatedAt" sort={search.sort} to={sortTo} className={tableHeadClassName} />
              {canWrite ? (
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              ) : null}
            </TableRow>
          </TableHeader>
          <TableBody>
            {result.items.map((d) => (
              <TableRow key={d.id}>
                <TableCell>{d.applicationName}</TableCell>
                <TableCell className="font-medium">
                  <Link to={href(paths.definition("view", d.id))} className="text-brand hover:underline">
                    {d.name}
                  </Link>
                </TableCell>
                <TableCell className="text-right tabular-nums">{d.tableCount}</TableCell>
                <TableCell className="text-right tabular-nums">{d.columnCount}</TableCell>
                <TableCell className="whitespace-nowrap text-muted-foreground">
                  <time dateTime={d.updatedAt}>{formatTimestamp(d.updatedAt)}</time>
                </TableCell>
                {canWrite ? (
                  <TableCell className="text-right">
                    <Link to={href(paths.definition("edit", d.id))} className={buttonVariants({ variant: "ghost", size: "sm" })} aria-label={`Edit ${d.name}`}>
                      Edit
                    </Link>
                  </TableCell>
                ) : null}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </PagedList>
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
