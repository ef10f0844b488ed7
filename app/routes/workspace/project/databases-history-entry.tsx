import { Link } from "react-router";
import { HISTORY_TYPE_LABELS, LOAD_MODE_LABELS, ON_REJECTED_LABELS } from "../../../../contracts/values/loads";
import { LoadStatusBadge } from "~/components/loads/load-status";
import { flatFileParameterRows, formatCount, formatTimestamp } from "~/components/projects/format";
import { AutoRefresh, JobProgress } from "~/components/projects/job-progress";
import { Card } from "~/components/ui/card";
import { LabelValueList } from "~/components/ui/label-value-list";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useCompanyHref } from "~/lib/company-href";
import { afterGuard } from "~/lib/guards.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { companyUserNames, projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/databases-history-entry";

/**
 * databases/history/{historyId}/details: one entry: what it did, the parameters it read its files
 * with (as they were then), its job's steps (and its progress while it runs), and each table's counts.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const [{ project }, [details, names]] = await afterGuard(
    projectScope(context),
    Promise.all([projectCalls(context).history.get(params.historyId), companyUserNames(context)]),
  );
  return { projectId: project.id, ...details, names };
}

export const handle = { breadcrumb: "Entry" };

export default function HistoryEntry({ loaderData }: Route.ComponentProps) {
  const { projectId, entry, parameters, job, names } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const loading = entry.status === "Loading";
  return (
    <div className="space-y-6">
      {/* With JavaScript the page revalidates; without, a <meta> refresh reloads it until the load ends. */}
      <AutoRefresh active={loading} intervalMs={2000} />
      <Card aria-labelledby="entry-title">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="entry-title" className="text-lg font-semibold">
            {entry.fileName} into {entry.tableName}
          </h2>
          <LoadStatusBadge status={entry.status} />
        </div>
        <p className="mt-2 text-sm" role="status">
          {loading
            ? "Loading: this page follows the load until it ends."
            : entry.status === "Loaded"
              ? `${formatCount(entry.rowsLoaded)} of ${formatCount(entry.rowsRead)} rows loaded${entry.rowsRejected ? `; ${formatCount(entry.rowsRejected)} rejected` : ""}.`
              : entry.message}
        </p>
        <LabelValueList
          className="mt-3"
          rows={[
            ["Type", HISTORY_TYPE_LABELS[entry.type]],
            ["Mode", LOAD_MODE_LABELS[entry.mode]],
            ["When rows are rejected", ON_REJECTED_LABELS[entry.onRejected]],
            ["Started", `${formatTimestamp(entry.createdAt)} by ${names[entry.createdBy] ?? "someone else"}`],
            ["Ended", entry.finishedAt ? formatTimestamp(entry.finishedAt) : "Not yet"],
          ]}
        />
        <p className="mt-4 flex flex-wrap gap-4 text-sm">
          <Link to={href(paths.databases.history(projectId))} className="text-brand underline underline-offset-2">
            History
          </Link>
          <Link to={href(paths.databases.current(projectId))} className="text-brand underline underline-offset-2">
            Databases
          </Link>
        </p>
      </Card>

      <Card aria-labelledby="tables-title">
        <h2 id="tables-title" className="text-lg font-semibold">
          Tables
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">Each table the load filled, from its file. A table's rejected rows are on its page.</p>
        <div className="mt-4">
          <Table aria-label="Tables of the load">
            <TableHeader>
              <TableRow>
                <TableHead>Table</TableHead>
                <TableHead>File</TableHead>
                <TableHead className="text-right">Read</TableHead>
                <TableHead className="text-right">Loaded</TableHead>
                <TableHead className="text-right">Rejected</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {entry.tables.map((t) => (
                <TableRow key={t.table}>
                  <TableCell>
                    <Link to={href(paths.databases.entryTable(projectId, entry.id, t.table))} className="row-link">
                      {t.table}
                    </Link>
                  </TableCell>
                  <TableCell>{t.fileName}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatCount(t.rowsRead)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatCount(t.rowsLoaded)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatCount(t.rowsRejected)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      </Card>

      <Card aria-labelledby="parameters-title">
        <h2 id="parameters-title" className="text-lg font-semibold">
          Parameters
        </h2>
        {parameters ? (
          <LabelValueList label="Parameters of the load" rows={flatFileParameterRows(parameters)} className="mt-3" />
        ) : (
          <p className="mt-2 text-sm text-muted-foreground">Not recorded: this load ran before the parameters of each load were kept.</p>
        )}
      </Card>

      {job ? (
        <Card aria-labelledby="job-title">
          <h2 id="job-title" className="sr-only">
            Job
          </h2>
          <div aria-live="polite">
            <JobProgress job={job} startedBy={names[job.createdBy]} />
          </div>
        </Card>
      ) : null}
    </div>
  );
}
