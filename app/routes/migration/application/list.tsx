import { Icon } from "~/components/ui/icon";
import { Link } from "react-router";
import { APPLICATION_SORTS, type ApplicationSort } from "../../../../contracts/values/applications";
import { formatTimestamp } from "~/components/dictionary/column-format";
import { buttonVariants } from "~/components/ui/button";
import { ListSearchForm } from "~/components/ui/list-search-form";
import { EmptyList, PagedList } from "~/components/ui/list-page";
import { SearchField } from "~/components/ui/search-field";
import { SortableHeader, sortDescription } from "~/components/ui/sortable-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow, tableHeadClassName } from "~/components/ui/table";
import { useCompanyHref } from "~/lib/company-href";
import { forSelectedCompany } from "~/lib/guards.server";
import { readContains, readPaging } from "~/lib/list-search.server";
import { searchApplications } from "~/lib/api/applications.server";
import { masterDataAccess } from "../data-dictionary/dictionary.server";
import { APPLICATIONS_PATH, CREATE_APPLICATION_PATH, CREATED_PARAM } from "./paths";
import type { Route } from "./+types/list";

const DEFAULT_SORT: ApplicationSort = "name";
const SORT_LABELS = { name: "name", createdAt: "creation time" } as const;

/** The search, sort and page, all in the URL (a GET form and links: no JavaScript needed); bad values fall back to defaults. */
function readSearch(url: URL) {
  return { name: readContains(url.searchParams), ...readPaging(url.searchParams, APPLICATION_SORTS, DEFAULT_SORT) };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const search = readSearch(url);
  const { shell, value } = await forSelectedCompany(context, (as, companyId) =>
    searchApplications(as, { companyId, ...search, name: search.name || undefined }),
  );
  const result = value ?? { items: [], total: 0, page: 1, pageSize: search.pageSize };
  // The create page's redirect: its flash message says so; the row is highlighted when it is on this page.
  const createdId = url.searchParams.get(CREATED_PARAM);
  const created = result.items.find((a) => a.id === createdId) ?? null;
  return {
    search,
    result,
    companyName: shell.company?.name ?? null,
    created: created && { id: created.id, name: created.name },
    canWrite: masterDataAccess(shell).canWrite,
  };
}

export default function Applications({ loaderData }: Route.ComponentProps) {
  const { search, result, companyName, created, canWrite } = loaderData;
  const href = useCompanyHref();
  const filtered = Boolean(search.name);
  // Links keep every other parameter (and drop ?created=, which only the create page's redirect sets).
  const withSearch = (changes: Partial<typeof search>) => href(APPLICATIONS_PATH, { ...search, ...changes, name: (changes.name ?? search.name) || undefined });
  const sortTo = (sort: ApplicationSort) => withSearch({ sort, page: 1 });

  return (
    <section aria-labelledby="page-title" className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
            Applications
          </h1>
          {companyName ? <p className="mt-1 text-sm text-muted-foreground">{companyName}</p> : null}
        </div>
        {canWrite ? (
          <Link to={href(CREATE_APPLICATION_PATH)} className={buttonVariants()}>
            <Icon name="plus" />
            Create application
          </Link>
        ) : null}
      </div>

      <ListSearchForm
        action={APPLICATIONS_PATH}
        label="Find applications"
        sort={search.sort}
        defaultSort={DEFAULT_SORT}
        pageSize={search.pageSize}
        pageSizeId="application-page-size"
        filtered={filtered}
        clearLabel="Clear search"
      >
        <SearchField id="application-search" label="Search applications" value={search.name} />
      </ListSearchForm>

      <PagedList
        list={result}
        empty={
          <EmptyList title={filtered ? "No matching applications" : "No applications yet"}>
            {filtered ? (
              <>No application name contains “{search.name}”. Change the search or clear it.</>
            ) : (
              "No applications are registered in this company yet. Register the legacy applications the company migrates from, then describe their tables in a data dictionary."
            )}
          </EmptyList>
        }
        noun={["application", "applications"]}
        href={(page) => withSearch({ page })}
      >
        <Table aria-label="Applications">
          <caption className="sr-only">Applications, sorted by {sortDescription(search.sort, SORT_LABELS)}</caption>
          <TableHeader>
            <TableRow>
              <SortableHeader label="Name" column="name" sort={search.sort} to={sortTo} className={tableHeadClassName} />
              <TableHead>Description</TableHead>
              <TableHead className="text-right">Dictionaries</TableHead>
              <TableHead className="text-right">Projects</TableHead>
              <SortableHeader label="Created" column="createdAt" sort={search.sort} to={sortTo} className={tableHeadClassName} />
            </TableRow>
          </TableHeader>
          <TableBody>
            {result.items.map((a) => (
              <TableRow key={a.id} aria-current={a.id === created?.id ? "true" : undefined} className={a.id === created?.id ? "bg-emerald-50/60" : undefined}>
                <TableCell className="font-medium">{a.name}</TableCell>
                <TableCell className="text-muted-foreground">{a.description}</TableCell>
                <TableCell className="text-right tabular-nums">{a.dictionaryCount}</TableCell>
                <TableCell className="text-right tabular-nums">{a.projectCount}</TableCell>
                <TableCell className="whitespace-nowrap text-muted-foreground">
                  <time dateTime={a.createdAt}>{formatTimestamp(a.createdAt)}</time>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </PagedList>
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
