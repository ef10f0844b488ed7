import { Link } from "react-router";
import { TEMPLATE_SORTS, TEMPLATE_STATUSES, TEMPLATE_TYPES, type TemplateSort } from "../../../contracts/values/templates";
import { formatTimestamp } from "~/components/dictionary/column-format";
import { Icon } from "~/components/ui/icon";
import { buttonVariants } from "~/components/ui/button";
import { CheckboxFilter } from "~/components/ui/checkbox-filter";
import { ListSearchForm } from "~/components/ui/list-search-form";
import { EmptyList, PagedList } from "~/components/ui/list-page";
import { SearchField } from "~/components/ui/search-field";
import { SortableHeader, sortDescription } from "~/components/ui/sortable-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow, tableHeadClassName } from "~/components/ui/table";
import { searchMasterTemplates } from "~/lib/api/templates.server";
import { useCompanyHref } from "~/lib/company-href";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { forSelectedCompany } from "~/lib/guards.server";
import { readChoices, readContains, readPaging } from "~/lib/list-search.server";
import { CREATED_PARAM, templatePathsOf, useTemplatePaths } from "./paths";
import { templateAccess } from "./templates.server";
import { TemplateStatusBadge } from "./template-status-badge";
import type { Route } from "./+types/list";

const DEFAULT_SORT: TemplateSort = "name";
const SORT_LABELS = { name: "name", status: "status", updatedAt: "last change" } as const;
const AREA_NOUNS = { migration: "migration", translations: "translation", onboarding: "onboarding" } as const;

/** Search, filters, sort and page, all in the URL (a GET form and links): bad values fall back to defaults. */
function readSearch(url: URL) {
  const p = url.searchParams;
  return {
    name: readContains(p),
    status: readChoices(p, "status", TEMPLATE_STATUSES),
    type: readChoices(p, "type", TEMPLATE_TYPES),
    ...readPaging(p, TEMPLATE_SORTS, DEFAULT_SORT),
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const search = readSearch(url);
  const paths = templatePathsOf(url.pathname);
  const { shell, value } = await forSelectedCompany(context, (as, companyId) =>
    searchMasterTemplates(as, { companyId, area: paths.owner.area, ...search, name: search.name || undefined }),
  );
  const result = value ?? { items: [], total: 0, page: 1, pageSize: search.pageSize };
  return {
    search,
    result,
    area: paths.owner.area,
    companyName: shell.company?.name ?? null,
    created: url.searchParams.get(CREATED_PARAM),
    canWrite: templateAccess(shell, paths).canWrite,
  };
}

export default function MasterTemplates({ loaderData }: Route.ComponentProps) {
  const { search, result, area, companyName, created, canWrite } = loaderData;
  const href = useCompanyHref();
  const paths = useTemplatePaths();
  // Who copies the area's templates: a migration's projects, onboarding's configurations, translations' mapping projects (which do not run them).
  const { ws } = useWorkspacePaths();
  const filtered = Boolean(search.name || search.status.length || search.type.length);
  const withSearch = (changes: Partial<typeof search>) => href(paths.list, { ...search, ...changes, name: (changes.name ?? search.name) || undefined });
  const sortTo = (sort: TemplateSort) => withSearch({ sort, page: 1 });

  return (
    <section aria-labelledby="page-title" className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
            Master Templates
          </h1>
          {companyName ? <p className="mt-1 text-sm text-muted-foreground">{companyName}</p> : null}
        </div>
        {canWrite ? (
          <Link to={href(paths.create)} className={buttonVariants()}>
            <Icon name="plus" />
            Create template
          </Link>
        ) : null}
      </div>

      <ListSearchForm
        action={paths.list}
        label="Find templates"
        sort={search.sort}
        defaultSort={DEFAULT_SORT}
        pageSize={search.pageSize}
        pageSizeId="template-page-size"
        filtered={filtered}
        below={
          <div className="flex flex-wrap gap-x-10">
            <CheckboxFilter legend="Status" name="status" options={TEMPLATE_STATUSES.map((s) => [s, s] as const)} checked={search.status} />
            <CheckboxFilter legend="Type" name="type" options={TEMPLATE_TYPES.map((t) => [t, t] as const)} checked={search.type} />
          </div>
        }
      >
        <SearchField id="template-search" label="Search templates" value={search.name} />
      </ListSearchForm>

      <PagedList
        list={result}
        empty={
          <EmptyList title={filtered ? "No matching templates" : "No master templates yet"}>
            {filtered
              ? "No template matches these filters. Change them or clear them."
              : `Master templates hold the ${AREA_NOUNS[area]} SQL scripts, in levels, that ${ws.nounPlural} copy${ws.features.databases ? " and run" : ""}. Create the first one.`}
          </EmptyList>
        }
        noun={["template", "templates"]}
        href={(page) => withSearch({ page })}
      >
        <Table aria-label="Master templates">
          <caption className="sr-only">Master templates, sorted by {sortDescription(search.sort, SORT_LABELS)}</caption>
          <TableHeader>
            <TableRow>
              <SortableHeader label="Name" column="name" sort={search.sort} to={sortTo} className={tableHeadClassName} />
              <TableHead>Type</TableHead>
              <SortableHeader label="Status" column="status" sort={search.sort} to={sortTo} className={tableHeadClassName} />
              <TableHead className="text-right">Levels</TableHead>
              <TableHead className="text-right">Scripts</TableHead>
              <SortableHeader label="Last change" column="updatedAt" sort={search.sort} to={sortTo} className={tableHeadClassName} />
            </TableRow>
          </TableHeader>
          <TableBody>
            {result.items.map((t) => (
              <TableRow key={t.id} aria-current={t.id === created ? "true" : undefined} className={t.id === created ? "bg-emerald-50/60" : undefined}>
                <TableCell className="font-medium">
                  <Link to={href(paths.edit(t.id))} className="text-brand hover:underline">
                    {t.name}
                  </Link>
                  {t.description ? <p className="text-xs font-normal text-muted-foreground">{t.description}</p> : null}
                </TableCell>
                <TableCell>{t.type}</TableCell>
                <TableCell>
                  <TemplateStatusBadge status={t.status} />
                </TableCell>
                <TableCell className="text-right tabular-nums">{t.levelCount}</TableCell>
                <TableCell className="text-right tabular-nums">{t.scriptCount}</TableCell>
                <TableCell className="whitespace-nowrap text-muted-foreground">
                  <time dateTime={t.updatedAt}>{formatTimestamp(t.updatedAt)}</time>
                  {t.updatedByName ? ` by ${t.updatedByName}` : null}
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
