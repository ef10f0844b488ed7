import { data, Link, type UIMatch } from "react-router";
import { historyEntryName, LoadStatusBadge } from "~/components/loads/load-status";
import { RejectedRowsTable } from "~/components/loads/rejected-rows-table";
import { formatCount } from "~/components/projects/format";
import { Card } from "~/components/ui/card";
import { LabelValueList } from "~/components/ui/label-value-list";
import { PageSizeForm } from "~/components/ui/list-search-form";
import { Pagination } from "~/components/ui/pagination";
import { DownloadLink } from "~/components/ui/download-link";
import { useCompanyHref } from "~/lib/company-href";
import { afterGuard } from "~/lib/guards.server";
import { PAGING_KEYS, pagingParams } from "~/lib/list-search";
import { readPaging } from "~/lib/list-search.server";
import { useWorkspacePaths, workspacePathsOf } from "~/lib/workspace-paths";
import { projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/databases-history-table";

/**
 * databases/history/{historyId}/table/{tableId}/details: one table of an entry (tableId: the table's
 * name): its counts and its rejected rows (row, column, value, reason), paginated through `?page=&pageSize=`,
 * with the download of those rows as the file had them.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { page, pageSize } = readPaging(new URL(request.url).searchParams, ["line"], "line");
  const history = projectCalls(context).history;
  const [{ project }, [details, rejected]] = await afterGuard(
    projectScope(context),
    Promise.all([history.get(params.historyId), history.rejectedRows(params.historyId, params.tableId, { page, pageSize })]),
  );
  const table = details.entry.tables.find((t) => t.table === params.tableId);
  // The data API answered the rejected rows, so the table is the entry's; this only narrows the type.
  if (!table) throw data({ errors: ["The load has no such table."] }, { status: 404 });
  return { projectId: project.id, entry: details.entry, table, rejected };
}

type LoaderData = Route.ComponentProps["loaderData"] | undefined;

export const handle = {
  breadcrumb: (match: UIMatch) => (match.loaderData as LoaderData)?.table.table ?? null,
  // Registered beside its entry's page (not below it): the entry's crumb, between the project and the table.
  parentCrumb: (match: UIMatch) => {
    const loaderData = match.loaderData as LoaderData;
    if (!loaderData) return null;
    return { label: historyEntryName(loaderData.entry), to: workspacePathsOf(match.pathname).databases.entry(loaderData.projectId, loaderData.entry.id) };
  },
};

export default function HistoryTable({ loaderData }: Route.ComponentProps) {
  const { projectId, entry, table, rejected } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const here = paths.databases.entryTable(projectId, entry.id, table.table);
  return (
    <div className="space-y-6">
      <Card aria-labelledby="table-title">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="table-title" className="text-lg font-semibold">
            {table.fileName} into {table.table}
          </h2>
          <LoadStatusBadge status={entry.status} type={entry.type} />
        </div>
        <LabelValueList
          className="mt-3"
          rows={[
            ["Rows read", formatCount(table.rowsRead)],
            ["Rows loaded", formatCount(table.rowsLoaded)],
            ["Rows rejected", formatCount(table.rowsRejected)],
          ]}
        />
        <p className="mt-4 text-sm">
          <Link to={href(paths.databases.entry(projectId, entry.id))} className="text-brand underline underline-offset-2">
            The whole load
          </Link>
        </p>
      </Card>

      <Card aria-labelledby="rejected-title">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="rejected-title" className="text-lg font-semibold">
            Rejected rows
          </h2>
          {rejected.total > 0 ? (
            <DownloadLink
              to={href(paths.databases.rejectedRowsCsv(projectId, entry.id, table.table))}
              className="text-sm font-medium text-brand underline underline-offset-2"
            >
              Download rejected rows
            </DownloadLink>
          ) : null}
        </div>
        {rejected.total === 0 ? (
          <p className="mt-2 text-sm text-muted-foreground">{entry.status === "Loading" ? "None so far." : "No row of this file was rejected."}</p>
        ) : (
          <>
            <p className="mt-1 text-sm text-muted-foreground">
              Each row of the file that did not fit, with why. The download has the rows as the file had them, in its delimiter (a workbook's as comma-separated
              text), and two columns saying which row and why, which a load leaves out: correct the rows and load the file again.
            </p>
            <PageSizeForm action={here} label="Rejected rows page size" pageSize={rejected.pageSize} pageSizeId="rejected-page-size" className="mt-4" />
            <div className="mt-4">
              <RejectedRowsTable label="Rejected rows" rows={rejected.items} />
            </div>
            <Pagination
              page={rejected.page}
              pageSize={rejected.pageSize}
              total={rejected.total}
              noun={["rejected row", "rejected rows"]}
              href={(page) => href(here, pagingParams(PAGING_KEYS, { page, pageSize: rejected.pageSize }))}
            />
          </>
        )}
      </Card>
    </div>
  );
}
