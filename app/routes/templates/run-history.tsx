import { Link } from "react-router";
import { DEFAULT_RUN_SORT, RUN_SORTS, RUN_STATUSES, RUN_STATUS_LABELS, RUN_TYPES, type RunSort } from "../../../contracts/values/runs";
import { formatTimestamp } from "~/components/dictionary/column-format";
import { buttonVariants } from "~/components/ui/button";
import { CheckboxFilter } from "~/components/ui/checkbox-filter";
import { Icon } from "~/components/ui/icon";
import { ListSearchForm } from "~/components/ui/list-search-form";
import { EmptyList, PagedList } from "~/components/ui/list-page";
import { SortableHeader, sortDescription } from "~/components/ui/sortable-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow, tableHeadClassName } from "~/components/ui/table";
import { useCompanyHref } from "~/lib/company-href";
import { readChoices, readPaging } from "~/lib/list-search.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { projectScope } from "../workspace/workspace.server";
import { RunStatusBadge } from "./run-status-badge";
import type { Route } from "./+types/run-history";

/** The workspace's runs, newest first unless sorted by Started: type, who, when, how long, result, steps failed; filtered, sorted and paged in SQL through the URL. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const p = url.searchParams;
  const search = {
    status: readChoices(p, "status", RUN_STATUSES),
    type: readChoices(p, "type", RUN_TYPES),
    ...readPaging(p, RUN_SORTS, DEFAULT_RUN_SORT),
  };
  const { project, api, access } = await projectScope(context);
  const runs = await api.runs.list(search);
  return { projectId: project.id, search, runs, canRun: access.canWrite && !project.isLocked };
}

const SORT_LABELS = { createdAt: "when started" } as const;

const seconds = (ms: number | null) => (ms === null ? "" : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

export default function RunHistory({ loaderData }: Route.ComponentProps) {
  const { projectId, search, runs, canRun } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const here = paths.page(projectId, "templates/run-history");
  const filtered = search.status.length > 0 || search.type.length > 0;
  const sortBy = (sort: RunSort) => href(here, { ...search, sort, page: 1 });
  return (
    <section aria-labelledby="runs-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="runs-title" className="text-xl font-semibold">
          Run history
        </h2>
        {canRun ? (
          <Link to={href(paths.page(projectId, "templates/run"))} className={buttonVariants()}>
            <Icon name="arrow-right" />
            Run
          </Link>
        ) : null}
      </div>
      <ListSearchForm
        action={here}
        label="Filter runs"
        sort={search.sort}
        defaultSort={DEFAULT_RUN_SORT}
        pageSize={search.pageSize}
        pageSizeId="run-page-size"
        filtered={filtered}
      >
        <CheckboxFilter
          legend="Result"
          name="status"
          options={RUN_STATUSES.filter((s) => s !== "None").map((s) => [s, RUN_STATUS_LABELS[s]] as const)}
          checked={search.status}
        />
        <CheckboxFilter legend="Type" name="type" options={RUN_TYPES.map((t) => [t, t] as const)} checked={search.type} />
      </ListSearchForm>
      <PagedList
        list={runs}
        empty={
          <EmptyList title={filtered ? "No matching runs" : "No runs yet"} heading="h3">
            {filtered ? "No run matches these filters." : "Run the templates (Test first: it changes nothing) and each run is listed here."}
          </EmptyList>
        }
        noun={["run", "runs"]}
        href={(page) => href(here, { ...search, page })}
      >
        <Table aria-label="Runs">
          <caption className="sr-only">{`Runs, sorted by ${sortDescription(search.sort, SORT_LABELS)}`}</caption>
          <TableHeader>
            <TableRow>
              <SortableHeader label="Started" column="createdAt" sort={search.sort} to={sortBy} className={tableHeadClassName} />
              <TableHead>Type</TableHead>
              <TableHead>By</TableHead>
              <TableHead>Duration</TableHead>
              <TableHead>Result</TableHead>
              <TableHead className="text-right">Steps failed</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {runs.items.map((r) => (
              <TableRow key={r.id}>
                <TableCell className="whitespace-nowrap">
                  <Link to={href(paths.page(projectId, `templates/run-history/${r.id}/details`))} className="text-brand hover:underline">
                    <time dateTime={r.createdAt}>{formatTimestamp(r.createdAt)}</time>
                  </Link>
                </TableCell>
                <TableCell>{r.rerunOf ? `${r.type}, rerun` : r.type}</TableCell>
                <TableCell>{r.createdByName ?? r.createdBy}</TableCell>
                <TableCell>{seconds(r.durationMs)}</TableCell>
                <TableCell>
                  <RunStatusBadge status={r.status} />
                </TableCell>
                <TableCell className="text-right tabular-nums">
                  {r.failedSteps} of {r.stepCount}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </PagedList>
    </section>
  );
}

export const handle = { breadcrumb: "Run history" };

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
