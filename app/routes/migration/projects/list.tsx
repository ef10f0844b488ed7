import { Plus } from "lucide-react";
import { Fragment } from "react";
import { Link } from "react-router";
import {
  PROJECT_SORTS,
  PROJECT_STATUSES,
  PROJECT_STATUS_LABELS,
  SOURCE_TYPE_LABELS,
  projectSearchResponseSchema,
  projectStatusSchema,
  type ProjectStatus,
} from "../../../../contracts/projects";
import { hasRole, ROLES } from "../../../../contracts/roles";
import { formatTimestamp, LOCK_REASON_LABELS } from "~/components/projects/format";
import { nextStepOf, nextStepPath, projectsPath } from "~/components/projects/next-step";
import { ProjectStatusBadge } from "~/components/projects/project-status-badge";
import { Button } from "~/components/ui/button";
import { Card, CardDescription } from "~/components/ui/card";
import { ListSearchForm } from "~/components/ui/list-search-form";
import { Pagination, PastTheEnd } from "~/components/ui/pagination";
import { SearchField } from "~/components/ui/search-field";
import { SortableHeader, sortDescription } from "~/components/ui/sortable-header";
import { callService } from "~/lib/api.server";
import { useCompanyHref } from "~/lib/company-href";
import { readContains, readPaging } from "~/lib/list-search";
import { shellContext } from "~/lib/guards.server";
import type { Route } from "./+types/list";

type Sort = (typeof PROJECT_SORTS)[number];
const DEFAULT_SORT: Sort = "-updatedAt";

/**
 * The search, filters, sort and page, all in the URL (GET forms and links: no JavaScript needed). A
 * value the contract refuses (an unknown status or sort, a page size not offered) falls back to its
 * default instead of failing the page.
 */
function readSearch(url: URL) {
  const sp = url.searchParams;
  const { sort, page, pageSize } = readPaging(sp, PROJECT_SORTS, DEFAULT_SORT);
  return {
    name: readContains(sp),
    status: [...new Set(sp.getAll("status").filter((s): s is ProjectStatus => projectStatusSchema.safeParse(s).success))],
    sort,
    page,
    pageSize,
  };
}

/** Who may create projects: the roles that may write in the Migration area of this company (spec §6). */
const WRITE_ROLES = [ROLES.SuperAdmin, ROLES.Support, ROLES.Analyst, ROLES.ClientAdmin];

export async function loader({ request, context }: Route.LoaderArgs) {
  const shell = context.get(shellContext);
  const search = readSearch(new URL(request.url));
  const result = shell.company
    ? await callService("data-api", "/api/v1/projects/search", { request: shell.request, authenticated: shell.authenticated }, {
        schema: projectSearchResponseSchema,
        query: { companyId: shell.company.id, ...search, name: search.name || undefined },
      })
    : { items: [], total: 0, page: 1, pageSize: search.pageSize };
  return {
    search,
    result,
    companyId: shell.company?.id ?? null,
    companyName: shell.company?.name ?? null,
    mayCreate: WRITE_ROLES.some((r) => hasRole(shell.roles, r)),
  };
}

export default function ProjectList({ loaderData }: Route.ComponentProps) {
  const { search, result, companyId, companyName, mayCreate } = loaderData;
  const href = useCompanyHref();
  const filtered = Boolean(search.name) || search.status.length > 0;
  // Links keep every other parameter; arrays repeat the key.
  const withSearch = (changes: Partial<typeof search>) => href(projectsPath, { ...search, ...changes, name: (changes.name ?? search.name) || undefined });

  return (
    <section aria-labelledby="page-title">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
            Projects
          </h1>
          {companyName ? <p className="mt-1 text-sm text-muted-foreground">{companyName}</p> : null}
        </div>
        {mayCreate ? (
          <Button asChild>
            <Link to={href(`${projectsPath}/create`)}>
              <Plus aria-hidden="true" />
              Create project
            </Link>
          </Button>
        ) : null}
      </div>

      <ListSearchForm
        action={projectsPath}
        label="Find projects"
        companyId={companyId}
        sort={search.sort}
        defaultSort={DEFAULT_SORT}
        pageSize={search.pageSize}
        pageSizeId="project-page-size"
        filtered={filtered}
        className="mt-6"
        below={
          <fieldset className="mt-4">
            <legend className="text-sm font-medium">Status</legend>
            <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
              {PROJECT_STATUSES.filter((s) => s !== "None").map((s) => (
                <Fragment key={s}>
                  <label className="flex items-center gap-2 text-sm">
                    <input type="checkbox" name="status" value={s} defaultChecked={search.status.includes(s)} className="size-4 accent-brand" />{" "}
                    {PROJECT_STATUS_LABELS[s]}
                  </label>{" "}
                </Fragment>
              ))}
            </div>
          </fieldset>
        }
      >
        <SearchField id="project-search" label="Search projects" value={search.name} />
      </ListSearchForm>

      {result.total === 0 ? (
        <Card className="mt-6">
          <h2 className="text-base font-semibold">{filtered ? "No matching projects" : "No projects yet"}</h2>
          <CardDescription>
            {filtered ? "No project matches this search. Change the search or the status filter." : "There are no migration projects in this company yet."}
          </CardDescription>
          {!filtered && mayCreate ? (
            <Button asChild className="mt-4">
              <Link to={href(`${projectsPath}/create`)}>Create project</Link>
            </Button>
          ) : null}
        </Card>
      ) : (
        <>
          {result.items.length === 0 ? (
            <PastTheEnd page={result.page} />
          ) : (
            <div className="mt-6 overflow-x-auto rounded-lg border border-border bg-white">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Projects, sorted by {sortDescription(search.sort, SORT_LABELS)}</caption>
                <thead className="border-b border-border bg-muted/50 text-xs uppercase tracking-wide text-muted-foreground">
                  <tr>
                    <SortableHeader label="Name" column="name" sort={search.sort} to={(sort) => withSearch({ sort, page: 1 })} />
                    <SortableHeader label="Application" column="application" sort={search.sort} to={(sort) => withSearch({ sort, page: 1 })} />
                    <SortableHeader label="Status" column="status" sort={search.sort} to={(sort) => withSearch({ sort, page: 1 })} />
                    <th scope="col" className="px-4 py-3 font-medium">
                      Source type
                    </th>
                    <th scope="col" className="px-4 py-3 font-medium">
                      Locked
                    </th>
                    <SortableHeader label="Updated" column="updatedAt" sort={search.sort} to={(sort) => withSearch({ sort, page: 1 })} />
                  </tr>
                </thead>
                <tbody className="divide-y divide-border">
                  {result.items.map((p) => (
                    <tr key={p.id}>
                      <td className="px-4 py-3">
                        <Link to={href(nextStepPath(p))} className="font-medium text-brand hover:underline">
                          {p.name}
                        </Link>{" "}
                        {nextStepOf(p.status) ? <div className="text-xs text-muted-foreground">Setup continues here</div> : null}
                      </td>
                      <td className="px-4 py-3">{p.applicationName}</td>
                      <td className="px-4 py-3">
                        <ProjectStatusBadge status={p.status} />
                      </td>
                      <td className="px-4 py-3">{SOURCE_TYPE_LABELS[p.sourceType]}</td>
                      <td className="px-4 py-3">{p.isLocked ? `Yes (${p.lockReason ? LOCK_REASON_LABELS[p.lockReason] : "no reason given"})` : "No"}</td>
                      <td className="px-4 py-3 whitespace-nowrap">{formatTimestamp(p.updatedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pagination page={result.page} pageSize={result.pageSize} total={result.total} noun={["project", "projects"]} href={(page) => withSearch({ page })} />
        </>
      )}
    </section>
  );
}

const SORT_LABELS = { name: "name", application: "application", status: "status", updatedAt: "last update" } as const;

export function meta() {
  return [{ title: "Projects · Data Transformation" }];
}
