import { Link } from "react-router";
import type { HistoryQuery } from "../../../../contracts/loads";
import { DEFAULT_HISTORY_SORT, HISTORY_SORTS, HISTORY_TYPES, HISTORY_TYPE_LABELS, LOAD_STATUSES, statusFilterLabel } from "../../../../contracts/values/loads";
import { backupContents } from "~/components/backups/backups-table";
import { historyEntryName, LoadStatusBadge } from "~/components/loads/load-status";
import { formatCount, formatDuration, formatTimestamp } from "~/components/projects/format";
import { Card } from "~/components/ui/card";
import { CheckboxFilter } from "~/components/ui/checkbox-filter";
import { ListSearchForm } from "~/components/ui/list-search-form";
import { Pagination, PastTheEnd } from "~/components/ui/pagination";
import { SortableHeader, sortDescription } from "~/components/ui/sortable-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow, tableHeadClassName } from "~/components/ui/table";
import { useCompanyHref } from "~/lib/company-href";
import { afterGuard } from "~/lib/guards.server";
import { readChoices, readPaging } from "~/lib/list-search.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { projectCalls, projectScope } from "../workspace.server";
import { withUserNames } from "~/lib/company-people.server";
import type { Route } from "./+types/databases-history";

/**
 * The filters, sort and page, all in the URL (a GET form and links: no JavaScript needed); the data
 * API filters, sorts and pages in SQL. A value it would refuse (an unknown type, status or sort, a
 * page size not offered) is left out instead of failing the page.
 */
function readSearch(url: URL): HistoryQuery {
  const sp = url.searchParams;
  return {
    type: readChoices(sp, "type", HISTORY_TYPES),
    status: readChoices(sp, "status", LOAD_STATUSES),
    ...readPaging(sp, HISTORY_SORTS, DEFAULT_HISTORY_SORT),
  };
}

/** databases/history/list: the workspace's loads (and later restores, backups, comparisons, undos), filtered by type and status. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const search = readSearch(new URL(request.url));
  const [{ project, access }, [history, names]] = await afterGuard(
    projectScope(context),
    withUserNames(context, projectCalls(context).history.list(search), (page) => page.items.map((e) => e.createdBy)),
  );
  return { projectId: project.id, canWrite: access.canWrite && !project.isLocked, search, history, names };
}

export const handle = { breadcrumb: "History" };

export default function History({ loaderData }: Route.ComponentProps) {
  const { projectId, canWrite, search, history, names } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const here = paths.databases.history(projectId);
  const filtered = search.type.length > 0 || search.status.length > 0;
  // Links keep every other parameter; arrays repeat the key.
  const withSearch = (changes: Partial<HistoryQuery>) => href(here, { ...search, ...changes });
  const sortBy = (sort: HistoryQuery["sort"]) => withSearch({ sort, page: 1 });

  return (
    <Card aria-labelledby="history-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="history-title" className="text-lg font-semibold">
          History
        </h2>
        {canWrite ? (
          <Link to={href(paths.databases.load(projectId))} className="text-sm font-medium text-brand underline underline-offset-2">
            Load a flat file
          </Link>
        ) : null}
      </div>
      <ListSearchForm
        action={here}
        label="Filter the history"
        sort={search.sort}
        defaultSort={DEFAULT_HISTORY_SORT}
        pageSize={search.pageSize}
        pageSizeId="history-page-size"
        filtered={filtered}
        className="mt-4"
        below={
          <>
            <CheckboxFilter legend="Type" name="type" options={HISTORY_TYPES.map((t) => [t, HISTORY_TYPE_LABELS[t]] as const)} checked={search.type} />
            <CheckboxFilter legend="Status" name="status" options={LOAD_STATUSES.map((s) => [s, statusFilterLabel(s)] as const)} checked={search.status} />
          </>
        }
      >
        {null}
      </ListSearchForm>

      {history.total === 0 ? (
        <p role="status" className="mt-4 text-sm text-muted-foreground">
          {filtered ? "Nothing in the history matches these filters. Change or clear them." : "Nothing has been loaded yet."}
        </p>
      ) : (
        <>
          {history.items.length === 0 ? (
            <PastTheEnd page={history.page} />
          ) : (
            <div className="mt-4">
              <Table aria-label="History">
                <caption className="sr-only">{`History, sorted by ${sortDescription(search.sort, SORT_LABELS)}`}</caption>
                <TableHeader>
                  <TableRow>
                    <SortableHeader label="Type" column="type" sort={search.sort} to={sortBy} className={tableHeadClassName} />
                    <TableHead>By</TableHead>
                    <SortableHeader label="When" column="createdAt" sort={search.sort} to={sortBy} className={tableHeadClassName} />
                    <SortableHeader label="Files" column="file" sort={search.sort} to={sortBy} className={tableHeadClassName} />
                    <SortableHeader label="Status" column="status" sort={search.sort} to={sortBy} className={tableHeadClassName} />
                    <SortableHeader label="Rows" column="rowsLoaded" sort={search.sort} to={sortBy} className={tableHeadClassName} />
                    <TableHead>Duration</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {history.items.map((entry) => (
                    <TableRow key={entry.id}>
                      <TableCell>
                        {/* Named with when, as the entry's breadcrumb is: a list of "Flat-file load" links does not say which is which. */}
                        <Link to={href(paths.databases.entry(projectId, entry.id))} className="row-link" aria-label={historyEntryName(entry)}>
                          {HISTORY_TYPE_LABELS[entry.type]}
                        </Link>
                      </TableCell>
                      <TableCell>{names[entry.createdBy] ?? "Someone else"}</TableCell>
                      <TableCell className="whitespace-nowrap">{formatTimestamp(entry.createdAt)}</TableCell>
                      <TableCell>
                        {entry.type === "FlatFile"
                          ? entry.tables.map((t) => (
                              <div key={t.table}>
                                {t.fileName} <span className="text-muted-foreground">into {t.table}</span>
                              </div>
                            ))
                          : entry.compared
                            ? `the data ${backupContents(entry.compared)}`
                            : entry.fileName}
                      </TableCell>
                      <TableCell>
                        <LoadStatusBadge status={entry.status} type={entry.type} />
                      </TableCell>
                      <TableCell className="tabular-nums">
                        {entry.type === "FlatFile"
                          ? entry.tables.map((t) => (
                              <div
                                key={t.table}
                              >{`${formatCount(t.rowsRead)} read, ${formatCount(t.rowsLoaded)} loaded, ${formatCount(t.rowsRejected)} rejected`}</div>
                            ))
                          : entry.status === "Loading" || entry.status === "Failed"
                            ? null
                            : `${formatCount(entry.type === "Comparison" ? entry.rowsRead : entry.rowsLoaded)} ${entry.type === "Comparison" ? "compared" : entry.type === "Backup" ? "backed up" : "restored"}`}
                      </TableCell>
                      <TableCell className="whitespace-nowrap tabular-nums">
                        {entry.finishedAt ? formatDuration((Date.parse(entry.finishedAt) - Date.parse(entry.createdAt)) / 1000) : "Running"}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          )}
          <Pagination page={history.page} pageSize={history.pageSize} total={history.total} noun={["entry", "entries"]} href={(page) => withSearch({ page })} />
        </>
      )}
    </Card>
  );
}

const SORT_LABELS = { createdAt: "when", type: "type", status: "status", file: "file", rowsLoaded: "rows loaded" } as const;
