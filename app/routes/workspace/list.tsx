import { Link } from "react-router";
import type { Project } from "../../../contracts/projects";
import type { Configuration } from "../../../contracts/configurations";
import { LOCK_REASON_LABELS, PROJECT_SORTS, PROJECT_STATUSES, PROJECT_STATUS_LABELS, SOURCE_TYPE_LABELS } from "../../../contracts/values/projects";
import { CONFIGURATION_STATUSES } from "../../../contracts/values/configurations";
import { MAPPING_PROJECT_STATUSES } from "../../../contracts/values/mappings";
import { mayEnterArea } from "../../../contracts/areas";
import { nounInIds } from "../../../contracts/workspaces";
import { formatTimestamp } from "~/components/projects/format";
import { ProjectStatusBadge } from "~/components/projects/project-status-badge";
import { buttonVariants } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { cn } from "~/lib/utils";
import { Card, CardDescription } from "~/components/ui/card";
import { CheckboxFilter } from "~/components/ui/checkbox-filter";
import { ListSearchForm } from "~/components/ui/list-search-form";
import { Pagination, PastTheEnd } from "~/components/ui/pagination";
import { SearchField } from "~/components/ui/search-field";
import { SortableHeader, sortDescription } from "~/components/ui/sortable-header";
import { Table } from "~/components/ui/table";
import { useCompanyHref } from "~/lib/company-href";
import { packRows, unpackRows } from "~/lib/packed-rows";
import { readChoices, readContains, readPaging } from "~/lib/list-search.server";
import { accessSettings, forSelectedCompany } from "~/lib/guards.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { noWorkspacesYet, workspaceKind } from "./workspace.server";
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
    status: readChoices(sp, "status", PROJECT_STATUSES),
    sort,
    page,
    pageSize,
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { ws, api } = workspaceKind(context);
  const search = readSearch(new URL(request.url));
  // A configuration of the page says itself whether it is the company's default (isDefault).
  const { shell, value } = await forSelectedCompany(context, (_, companyId) => api.search({ companyId, ...search, name: search.name || undefined }));
  const result = value ?? { items: [], total: 0, page: 1, pageSize: search.pageSize };
  return {
    search,
    // Only what the rows show, packed: the loader's data is serialized into the page a second time.
    result: { ...result, items: packRows(result.items.map(listRow)) },
    companyName: shell.company?.name ?? null,
    // Who may create: the roles that may work in the workspace's area of this company (spec §6).
    mayCreate: mayEnterArea(ws.area, shell.roles, accessSettings),
    noneYet: noWorkspacesYet(ws, shell.roles),
  };
}

function listRow(p: (Project | Configuration) & { canWrite: boolean }) {
  return {
    id: p.id,
    canWrite: p.canWrite,
    name: p.name,
    status: p.status,
    applicationName: p.applicationName,
    sourceType: p.sourceType,
    isLocked: p.isLocked,
    // Only a locked row shows its reason.
    lockReason: p.isLocked ? p.lockReason : null,
    updatedAt: p.updatedAt,
    ...("isDefault" in p ? { isDefault: p.isDefault, schemes: p.schemes.map((s) => s.scheme.name) } : {}),
  };
}

export default function ProjectList({ loaderData }: Route.ComponentProps) {
  const { search, companyName, mayCreate } = loaderData;
  const result = { ...loaderData.result, items: unpackRows(loaderData.result.items) };
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const { ws } = paths;
  const configurations = ws.kind === "onboarding";
  // A mapping project has no source type and is never locked (it has no jobs).
  const mappings = ws.kind === "translation";
  const projectsPath = paths.list;
  const statuses = configurations ? CONFIGURATION_STATUSES : mappings ? MAPPING_PROJECT_STATUSES : PROJECT_STATUSES.filter((s) => s !== "None");
  const noun = ws.noun;
  const idNoun = nounInIds(ws);
  const filtered = Boolean(search.name) || search.status.length > 0;
  // Links keep every other parameter; arrays repeat the key.
  const withSearch = (changes: Partial<typeof search>) => href(projectsPath, { ...search, ...changes, name: (changes.name ?? search.name) || undefined });

  return (
    <section aria-labelledby="page-title">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
            {ws.listTitle}
          </h1>
          {companyName ? <p className="mt-1 text-sm text-muted-foreground">{companyName}</p> : null}
        </div>
        {mayCreate ? (
          <Link to={href(paths.create)} className={buttonVariants()}>
            <Icon name="plus" />
            {`Create ${noun}`}
          </Link>
        ) : null}
      </div>

      <ListSearchForm
        action={projectsPath}
        label={`Find ${ws.nounPlural}`}
        sort={search.sort}
        defaultSort={DEFAULT_SORT}
        pageSize={search.pageSize}
        pageSizeId={`${idNoun}-page-size`}
        filtered={filtered}
        className="mt-6"
        below={
          <CheckboxFilter legend="Status" name="status" options={statuses.map((st) => [st, PROJECT_STATUS_LABELS[st]] as const)} checked={search.status} />
        }
      >
        <SearchField id={`${idNoun}-search`} label={`Search ${ws.nounPlural}`} value={search.name} />
      </ListSearchForm>

      {result.total === 0 ? (
        <Card className="mt-6">
          <h2 className="text-base font-semibold">{filtered ? `No matching ${ws.nounPlural}` : `No ${ws.nounPlural} yet`}</h2>
          <CardDescription>{filtered ? `No ${noun} matches this search. Change the search or the status filter.` : loaderData.noneYet}</CardDescription>
          {!filtered && mayCreate ? (
            <Link to={href(paths.create)} className={cn(buttonVariants(), "mt-4")}>Create {noun}</Link>
          ) : null}
        </Card>
      ) : (
        <>
          {result.items.length === 0 ? (
            <PastTheEnd page={result.page} />
          ) : (
            <div className="mt-6">
              {/* The dates' nowrap once on the table (Updated is the last column), not on 25 cells. */}
              <Table aria-label={ws.listTitle} className="cells-roomy [&_td:last-child]:whitespace-nowrap">
                <caption className="sr-only">{`${ws.listTitle}, sorted by ${sortDescription(search.sort, SORT_LABELS)}`}</caption>
                <thead className="border-b border-border bg-muted/50 text-xs uppercase [&_th]:font-medium tracking-wide text-muted-foreground">
                  <tr>
                    <SortableHeader label="Name" column="name" sort={search.sort} to={(sort) => withSearch({ sort, page: 1 })} />
                    <SortableHeader label="Application" column="application" sort={search.sort} to={(sort) => withSearch({ sort, page: 1 })} />
                    <SortableHeader label="Status" column="status" sort={search.sort} to={(sort) => withSearch({ sort, page: 1 })} />
                    {mappings ? null : (
                      <>
                        <th scope="col">{configurations ? "Schemes" : "Source type"}</th>
                        <th scope="col">Locked</th>
                      </>
                    )}
                    <SortableHeader label="Updated" column="updatedAt" sort={search.sort} to={(sort) => withSearch({ sort, page: 1 })} />
                  </tr>
                </thead>
                <tbody className="divide-y divide-border">
                  {result.items.map((p) => {
                    const link = paths.resume(p, p.canWrite);
                    return (
                      <tr key={p.id}>
                        <td>
                          <Link to={href(link.to)} className="row-link" discover="none">
                            {p.name}
                          </Link>{" "}
                          {"isDefault" in p && p.isDefault ? <div className="text-xs font-medium">Default</div> : null}
                          {link.unfinished ? <div className="row-note">{link.resumes ? "Setup continues here" : "Setup not finished"}</div> : null}
                        </td>
                        <td>{p.applicationName}</td>
                        <td>
                          <ProjectStatusBadge status={p.status} label={PROJECT_STATUS_LABELS[p.status]} />
                        </td>
                        {mappings ? null : (
                          <>
                            <td>{p.schemes ? p.schemes.join(", ") : SOURCE_TYPE_LABELS[p.sourceType]}</td>
                            <td>{p.isLocked ? `Yes (${p.lockReason ? LOCK_REASON_LABELS[p.lockReason] : "no reason given"})` : "No"}</td>
                          </>
                        )}
                        <td>{formatTimestamp(p.updatedAt)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </Table>
            </div>
          )}
          <Pagination page={result.page} pageSize={result.pageSize} total={result.total} noun={[noun, ws.nounPlural]} href={(page) => withSearch({ page })} />
        </>
      )}
    </section>
  );
}

const SORT_LABELS = { name: "name", application: "application", status: "status", updatedAt: "last update" } as const;

