import { Form, Link, type UIMatch } from "react-router";
import { ComparisonTables } from "~/components/backups/comparison-tables";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { companyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { readFormData, serviceFailure, unknownIntent } from "~/lib/forms.server";
import { LoadBadge } from "~/components/loads/load-badge";
import { formatCount, formatTimestamp } from "~/components/projects/format";
import { AutoRefresh, isRunning } from "~/components/projects/auto-refresh";
import { FollowedJobProgress } from "~/components/projects/job-progress";
import { useLiveJob } from "~/components/projects/live-jobs";
import { Card } from "~/components/ui/card";
import { LabelValueList } from "~/components/ui/label-value-list";
import { PageSizeForm } from "~/components/ui/list-search-form";
import { Pagination, PastTheEnd } from "~/components/ui/pagination";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useCompanyHref } from "~/lib/company-href";
import { afterGuard } from "~/lib/guards.server";
import { PAGING_KEYS, pagingParams } from "~/lib/list-search";
import { readPage } from "~/lib/list-search.server";
import { PAGE_SIZES } from "../../../../contracts/values/common";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { checkWorkspace, projectCalls, projectScope } from "../workspace.server";
import { withUserNames } from "~/lib/company-people.server";
import { entryWords } from "./databases-history-entry.server";
import type { Route } from "./+types/databases-history-entry";

/** The tables of a comparison a page shows at once: each comes with its samples of rows added, removed and changed. */
const COMPARISON_PAGE_SIZE = 10;
/** The URL parameter (and the filter's box) that shows only the tables that differ. */
const DIFFERING = "differing";

/**
 * databases/history/{historyId}/details: one entry: what it did, the parameters it read its files
 * with (as they were then), its job's steps (and its progress while it runs), and each table's counts;
 * a comparison's summary and a page of its tables (`?page=&pageSize=&differing=true`), paged in SQL.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url).searchParams;
  const search = { ...readPage(url, PAGING_KEYS, COMPARISON_PAGE_SIZE), differing: url.get(DIFFERING) === "true" };
  const history = projectCalls(context).history;
  const [{ project, access }, [[details, names], tables]] = await afterGuard(
    projectScope(context),
    Promise.all([
      withUserNames(context, history.get(params.historyId), (d) => [d.entry.createdBy, d.job?.createdBy]),
      // Beside the entry (one round trip): an entry that compared nothing has an empty page.
      history.comparison(params.historyId, search),
    ]),
  );
  // The parameters and the entry an undo undid or a comparison compared reach the page as words only (said).
  const { parameters: _parameters, about: _about, ...shown } = details;
  return {
    projectId: project.id,
    ...shown,
    tables,
    differing: search.differing,
    names,
    canChange: access.canWrite && !project.isLocked,
    isLocked: project.isLocked,
    readAt: Date.now(),
    // What the page says of the entry, in words read here: its code then carries no table of the history's types,
    // modes, statuses and flat-file parameters (issue 8's initial JS bar).
    said: entryWords(details),
  };
}

const COMPARE = "compare";

/** "Compare with current": a comparison of the data as this entry left it with the current data; its own entry's page follows it. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const scope = await projectScope(context);
  const here = scope.paths.databases.entry(scope.project.id, params.historyId);
  const { project, api, companyId, paths } = await checkWorkspace(scope, { write: here, unlocked: true });
  const intent = (await readFormData(request)).get("intent");
  if (intent !== COMPARE) unknownIntent(intent);
  try {
    const { entry } = await api.compare({ historyId: params.historyId });
    return redirectWithFlash(companyHref(paths.databases.entry(project.id, entry.id), companyId), "Comparing with the current data.");
  } catch (err) {
    const failure = serviceFailure(err);
    if (failure && failure.status === 409)
      return redirectWithFlash(companyHref(here, companyId), { kind: "error", text: failure.body.errors[0] ?? "The comparison could not start." });
    throw err;
  }
}

export const handle = {
  // Not its title: that can be a long backup file name.
  breadcrumb: (match: UIMatch) => {
    return (match.loaderData as Route.ComponentProps["loaderData"] | undefined)?.said.name ?? null;
  },
};

export default function HistoryEntry({ loaderData }: Route.ComponentProps) {
  const { projectId, entry, said, names, backup, undoBackup, afterBackup, comparison, tables, differing, canChange, isLocked, readAt } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const { job, poll } = useLiveJob(projectId, loaderData.job, { isLocked, readAt });
  const pending = useIsPending();
  const loading = entry.status === "Loading";
  const flatFile = entry.type === "FlatFile";
  const here = paths.databases.entry(projectId, entry.id);
  return (
    <div className="space-y-6">
      {/* With JavaScript the page polls its job and reads its loaders again once the job ended and unlocked
          the project; without, a <meta> refresh reloads it until the load and its job end: the entry has its
          outcome a moment before its job ends and unlocks the project. */}
      <AutoRefresh active={loading || isRunning(job)} intervalMs={2000} poll={poll} />
      <Card aria-labelledby="entry-title">
        <div className="flex flex-wrap items-center gap-3">
          <h2 id="entry-title" className="text-lg font-semibold">
            {said.title}
          </h2>
          <LoadBadge status={entry.status} label={said.status} />
        </div>
        <p className="mt-2 text-sm" role="status">
          {said.outcome}
        </p>
        <LabelValueList
          className="mt-3"
          rows={[
            ...said.rows,
            ["Started", `${formatTimestamp(entry.createdAt)} by ${names[entry.createdBy] ?? "someone else"}`],
            ["Ended", entry.finishedAt ? formatTimestamp(entry.finishedAt) : "Not yet"],
          ]}
        />
        {canChange && (undoBackup || afterBackup) ? (
          <div className="mt-4 flex flex-wrap items-center gap-4">
            {afterBackup ? (
              <Form method="post">
                <input type="hidden" name="intent" value={COMPARE} />
                <StatusButton type="submit" variant="outline" pending={pending}>
                  Compare with current
                </StatusButton>
              </Form>
            ) : null}
            {undoBackup ? (
              <Link to={href(paths.databases.restore(projectId), { undo: entry.id })} className="text-sm font-medium text-brand underline underline-offset-2">
                Undo
              </Link>
            ) : null}
          </div>
        ) : null}
        <p className="mt-4 flex flex-wrap gap-4 text-sm">
          <Link to={href(paths.databases.history(projectId))} className="text-brand underline underline-offset-2">
            History
          </Link>{" "}
          <Link to={href(paths.databases.current(projectId))} className="text-brand underline underline-offset-2">
            Databases
          </Link>{" "}
          {entry.type === "Backup" && backup?.status === "Ready" ? (
            <a href={href(paths.databases.backupDownload(projectId, backup.id))} download className="text-brand underline underline-offset-2">
              Download the backup
            </a>
          ) : null}
        </p>
      </Card>

      {comparison ? (
        <ComparisonTables
          summary={comparison}
          tables={tables.items}
          controls={
            // A filter and a size for a comparison of more tables than a page shows (or filtered already, to undo it).
            comparison.tables > PAGE_SIZES[0] || differing ? (
              <PageSizeForm action={here} label="Tables shown" pageSize={tables.pageSize} pageSizeId="comparison-page-size" className="mt-4">
                <div className="flex items-center gap-2 pb-2 text-sm">
                  <input id="comparison-differing" type="checkbox" name={DIFFERING} value="true" defaultChecked={differing} className="size-4" />
                  <label htmlFor="comparison-differing">Only tables that differ</label>
                </div>
              </PageSizeForm>
            ) : null
          }
          pagination={
            <>
              {/* A page past the end (an old link, a smaller page size): said, as the other lists say it, above the way back. */}
              {tables.items.length === 0 && tables.total > 0 ? <PastTheEnd page={tables.page} /> : null}
              {tables.total > tables.pageSize || tables.page > 1 ? (
                <Pagination
                  page={tables.page}
                  pageSize={tables.pageSize}
                  total={tables.total}
                  noun={differing ? ["table that differs", "tables that differ"] : ["table", "tables"]}
                  href={(page) =>
                    href(here, {
                      ...pagingParams(PAGING_KEYS, { page, pageSize: tables.pageSize }, COMPARISON_PAGE_SIZE),
                      [DIFFERING]: differing ? "true" : undefined,
                    })
                  }
                />
              ) : null}
            </>
          }
        />
      ) : null}

      {!flatFile && entry.tables.length ? (
        <Card aria-labelledby="tables-title">
          <h2 id="tables-title" className="text-lg font-semibold">
            Tables
          </h2>
          <div className="mt-4">
            <Table aria-label={entry.type === "Backup" ? "Tables backed up" : "Tables restored"}>
              <TableHeader>
                <TableRow>
                  <TableHead>Table</TableHead>
                  <TableHead className="text-right">Rows</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {entry.tables.map((t) => (
                  <TableRow key={t.table}>
                    <TableCell>{t.table}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatCount(t.rowsLoaded)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        </Card>
      ) : null}

      {flatFile ? (
        <>
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
            {said.parameters ? (
              <LabelValueList label="Parameters of the load" rows={said.parameters} className="mt-3" />
            ) : (
              <p className="mt-2 text-sm text-muted-foreground">Not recorded: this load ran before the parameters of each load were kept.</p>
            )}
          </Card>
        </>
      ) : null}

      {job ? (
        <Card aria-labelledby="job-title">
          <h2 id="job-title" className="sr-only">
            Job
          </h2>
          <FollowedJobProgress job={job} startedBy={names[job.createdBy]} />
        </Card>
      ) : null}
    </div>
  );
}
