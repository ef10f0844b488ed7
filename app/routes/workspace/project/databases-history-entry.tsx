import { Link } from "react-router";
import { LOAD_MODE_LABELS, ON_REJECTED_LABELS } from "../../../../contracts/values/loads";
import { LoadStatusBadge, rows } from "~/components/loads/load-status";
import { formatTimestamp } from "~/components/projects/format";
import { AutoRefresh, JobProgress } from "~/components/projects/job-progress";
import { Card } from "~/components/ui/card";
import { Pagination } from "~/components/ui/pagination";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useCompanyHref } from "~/lib/company-href";
import { afterGuard } from "~/lib/guards.server";
import { readPaging } from "~/lib/list-search.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { companyUserNames, projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/databases-history-entry";

/** databases/history/{historyId}/details: one load, what it did, and its rejected rows (paginated through `?page=`). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { page, pageSize } = readPaging(new URL(request.url).searchParams, ["line"], "line");
  const one = projectCalls(context);
  const calls = one.loads;
  const [{ project }, [load, rejected, names, jobs]] = await afterGuard(
    projectScope(context),
    Promise.all([calls.get(params.historyId), calls.rejectedRows(params.historyId, { page, pageSize }), companyUserNames(context), one.jobs()]),
  );
  // While it loads, its job's progress (the share of the file read) and steps.
  const job = load.status === "Loading" ? (jobs.jobs.find((j) => j.id === load.jobId) ?? null) : null;
  return { projectId: project.id, load, rejected, names, job };
}

export const handle = { breadcrumb: "Load" };

export default function LoadEntry({ loaderData }: Route.ComponentProps) {
  const { projectId, load, rejected, names, job } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const loading = load.status === "Loading";
  return (
    <div className="space-y-6">
      <AutoRefresh active={loading} intervalMs={2000} />
      <Card aria-labelledby="load-title">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="load-title" className="text-lg font-semibold">
            {load.fileName} into {load.tableName}
          </h2>
          <LoadStatusBadge status={load.status} />
        </div>
        <p className="mt-2 text-sm" role="status">
          {loading
            ? "Loading: this page follows the load until it ends."
            : load.status === "Loaded"
              ? `${rows(load.rowsLoaded)} of ${rows(load.rowsRead)} rows loaded${load.rowsRejected ? `; ${rows(load.rowsRejected)} rejected` : ""}.`
              : load.message}
        </p>
        {job ? (
          <div className="mt-4" aria-live="polite">
            <JobProgress job={job} startedBy={names[job.createdBy]} />
          </div>
        ) : null}
        <dl className="mt-3 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Mode</dt>
          <dd>{LOAD_MODE_LABELS[load.mode]}</dd>
          <dt className="text-muted-foreground">When rows are rejected</dt>
          <dd>{ON_REJECTED_LABELS[load.onRejected]}</dd>
          <dt className="text-muted-foreground">Rows read</dt>
          <dd className="tabular-nums">{rows(load.rowsRead)}</dd>
          <dt className="text-muted-foreground">Rows loaded</dt>
          <dd className="tabular-nums">{rows(load.rowsLoaded)}</dd>
          <dt className="text-muted-foreground">Rows rejected</dt>
          <dd className="tabular-nums">{rows(load.rowsRejected)}</dd>
          <dt className="text-muted-foreground">Started</dt>
          <dd>
            {formatTimestamp(load.createdAt)} by {names[load.createdBy] ?? "someone else"}
          </dd>
          <dt className="text-muted-foreground">Ended</dt>
          <dd>{load.finishedAt ? formatTimestamp(load.finishedAt) : "Not yet"}</dd>
        </dl>
        <p className="mt-4 flex flex-wrap gap-4 text-sm">
          <Link to={href(paths.databases.history(projectId))} className="text-brand underline underline-offset-2">
            History of loads
          </Link>
          <Link to={href(paths.databases.current(projectId))} className="text-brand underline underline-offset-2">
            Databases
          </Link>
        </p>
      </Card>

      {rejected.total > 0 ? (
        <Card aria-labelledby="rejected-title">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="rejected-title" className="text-lg font-semibold">
              Rejected rows
            </h2>
            {/* A file, not a page: the browser downloads it (reloadDocument: no client-side navigation). */}
            <Link reloadDocument to={href(paths.databases.rejectedRowsCsv(projectId, load.id))} className="text-sm font-medium text-brand underline underline-offset-2">
              Download rejected rows
            </Link>
          </div>
          <p className="mt-1 text-sm text-muted-foreground">Each row of the file that did not fit, with why. The download has the rows as the file had them, and a reason column: correct them and load them again.</p>
          <div className="mt-4 overflow-x-auto">
            <Table aria-label="Rejected rows">
              <TableHeader>
                <TableRow>
                  <TableHead className="text-right">Row</TableHead>
                  <TableHead>Column</TableHead>
                  <TableHead>Value</TableHead>
                  <TableHead>Reason</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rejected.items.map((r) => (
                  <TableRow key={r.line}>
                    <TableCell className="text-right tabular-nums">{r.line}</TableCell>
                    <TableCell>{r.column ?? "(the whole row)"}</TableCell>
                    <TableCell className="max-w-xs truncate font-mono text-xs">{r.value ?? ""}</TableCell>
                    <TableCell>{r.reason}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          <Pagination
            page={rejected.page}
            pageSize={rejected.pageSize}
            total={rejected.total}
            noun={["rejected row", "rejected rows"]}
            href={(page) => href(paths.databases.entry(projectId, load.id), { page })}
          />
        </Card>
      ) : null}
    </div>
  );
}
