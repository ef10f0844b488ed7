import { Link } from "react-router";
import { LoadStatusBadge, rows } from "~/components/loads/load-status";
import { formatTimestamp } from "~/components/projects/format";
import { Card } from "~/components/ui/card";
import { Pagination } from "~/components/ui/pagination";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useCompanyHref } from "~/lib/company-href";
import { afterGuard } from "~/lib/guards.server";
import { readPaging } from "~/lib/list-search.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { companyUserNames, projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/databases-history";

/** databases/history/list: every load of the workspace, newest first, paginated in SQL through `?page=`. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { page, pageSize } = readPaging(new URL(request.url).searchParams, ["newest"], "newest");
  const [{ project, access }, [loads, names]] = await afterGuard(projectScope(context), Promise.all([projectCalls(context).loads.list({ page, pageSize }), companyUserNames(context)]));
  return { projectId: project.id, canWrite: access.canWrite && !project.isLocked, loads, names };
}

export const handle = { breadcrumb: "History" };

export default function LoadHistory({ loaderData }: Route.ComponentProps) {
  const { projectId, canWrite, loads, names } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  return (
    <Card aria-labelledby="history-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="history-title" className="text-lg font-semibold">
          History of loads
        </h2>
        {canWrite ? (
          <Link to={href(paths.databases.load(projectId))} className="text-sm font-medium text-brand underline underline-offset-2">
            Load a flat file
          </Link>
        ) : null}
      </div>
      {loads.total === 0 ? (
        <p className="mt-3 text-sm text-muted-foreground">Nothing has been loaded yet.</p>
      ) : (
        <>
          <div className="mt-4 overflow-x-auto">
            <Table aria-label="Loads">
              <TableHeader>
                <TableRow>
                  <TableHead>Started</TableHead>
                  <TableHead>File</TableHead>
                  <TableHead>Table</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead className="text-right">Loaded</TableHead>
                  <TableHead className="text-right">Rejected</TableHead>
                  <TableHead>By</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {loads.items.map((load) => (
                  <TableRow key={load.id}>
                    <TableCell>
                      <Link to={href(paths.databases.entry(projectId, load.id))} className="row-link">
                        {formatTimestamp(load.createdAt)}
                      </Link>
                    </TableCell>
                    <TableCell>{load.fileName}</TableCell>
                    <TableCell>{load.tableName}</TableCell>
                    <TableCell>
                      <LoadStatusBadge status={load.status} />
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{rows(load.rowsLoaded)}</TableCell>
                    <TableCell className="text-right tabular-nums">{rows(load.rowsRejected)}</TableCell>
                    <TableCell>{names[load.createdBy] ?? "Someone else"}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
          <Pagination page={loads.page} pageSize={loads.pageSize} total={loads.total} noun={["load", "loads"]} href={(page) => href(paths.databases.history(projectId), { page })} />
        </>
      )}
    </Card>
  );
}
