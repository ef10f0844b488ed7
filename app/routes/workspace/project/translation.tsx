import { Link, type UIMatch } from "react-router";
import { UNMAPPED_RULE_LABELS } from "../../../../contracts/values/mappings";
import { formatCount, formatCountOf, formatTimestamp } from "~/components/projects/format";
import { AutoRefresh } from "~/components/projects/auto-refresh";
import { useLiveTranslation } from "~/components/projects/live-translation";
import { Alert } from "~/components/ui/alert";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { DownloadLink } from "~/components/ui/download-link";
import { RejectedRowsTable } from "~/components/loads/rejected-rows-table";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { useCompanyHref } from "~/lib/company-href";
import { afterGuard } from "~/lib/guards.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/translation";

/**
 * One translated file (translate/{translationId}): while it runs, how far it has read (the page keeps
 * itself current, with or without JavaScript); then its counts, the values that had no mapping per
 * column, the rows rejected (by a column's rule, or whole for their number of values), and the download.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const [{ project }, translation] = await afterGuard(projectScope(context), projectCalls(context).translations.get(params.translationId));
  return { projectId: project.id, translation, readAt: Date.now() };
}

export const handle = {
  breadcrumb: (match: UIMatch<unknown, unknown>) => (match.loaderData as Route.ComponentProps["loaderData"] | undefined)?.translation.fileName,
};

export default function TranslationPage({ loaderData }: Route.ComponentProps) {
  const { projectId } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const { translation: t, poll } = useLiveTranslation(loaderData, href(paths.translations.progress(projectId, loaderData.translation.id)));
  const running = t.status === "Running";
  const { tableId } = loaderData.translation;
  const percent = t.bytesTotal > 0 ? Math.min(100, Math.round((t.bytesRead / t.bytesTotal) * 100)) : 0;
  return (
    <div className="flex flex-col gap-6">
      <AutoRefresh active={running} poll={poll} />
      <section aria-labelledby="translation-title">
        <h2 id="translation-title" className="text-lg font-semibold">
          {t.fileName} into {t.tableName}: {t.status}
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Started {formatTimestamp(t.createdAt)}
          {t.finishedAt ? `, ended ${formatTimestamp(t.finishedAt)}` : ""}.
        </p>
        {running ? (
          <div className="mt-4 max-w-xl">
            <div
              role="progressbar"
              aria-label="Translation progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              className="h-2 rounded bg-muted"
            >
              <div className="h-2 rounded bg-brand" style={{ width: `${percent}%` }} />
            </div>
            <p className="mt-2 text-sm">{`${percent}% read, ${formatCountOf(t.rowsRead, "row")} so far.`}</p>
          </div>
        ) : null}
        {t.error ? <Alert className="mt-4">{t.error}</Alert> : null}
        {t.status === "Completed" ? (
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <p className="text-sm">
              {`${formatCountOf(t.rowsRead, "row")} read, ${formatCount(t.rowsWritten)} written, ${formatCount(t.rowsRejected)} rejected.`}
            </p>
            <DownloadLink to={href(paths.translations.file(projectId, t.id))} className={buttonVariants()}>
              Download the translated file
            </DownloadLink>
          </div>
        ) : null}
      </section>

      {t.report ? (
        <>
          <section aria-labelledby="unmapped-title">
            <h2 id="unmapped-title" className="text-lg font-semibold">
              Values without a mapping
            </h2>
            {/* The way to map them: the value maps' "Read a sample file" takes this very file and adds its values, unmapped. */}
            {t.report.columns.some((c) => c.unmappedCells > 0) ? (
              <p className="mt-1 text-sm">
                To map them, read {t.fileName} as a sample file on the{" "}
                {tableId ? (
                  <Link to={href(paths.valueMaps.table(projectId, tableId))} className="font-medium text-brand underline underline-offset-2">
                    value maps of {t.tableName}
                  </Link>
                ) : (
                  `value maps of ${t.tableName}`
                )}
                : its values join the maps, unmapped. Give them their targets there, then translate the file again.
              </p>
            ) : null}
            <div className="mt-3 grid gap-4 lg:grid-cols-2">
              {t.report.columns.map((c) => (
                <Card key={c.name}>
                  <h3 className="text-base font-semibold">{c.name}</h3>
                  <p className="mt-1 text-sm text-muted-foreground">
                    {c.unmappedCells === 0
                      ? "Every value had a mapping."
                      : `${formatCountOf(c.unmappedCells, "cell")}, ${formatCountOf(c.unmappedDistinct, "distinct value")}; ${UNMAPPED_RULE_LABELS[c.rule].toLowerCase()}.${
                          c.unmappedValues.length < c.unmappedDistinct ? ` The ${c.unmappedValues.length} most frequent:` : ""
                        }`}
                  </p>
                  {c.unmappedValues.length ? (
                    <Table aria-label={`Unmapped values of ${c.name}`} className="mt-2">
                      <TableHeader>
                        <TableRow>
                          <TableHead>Value</TableHead>
                          <TableHead className="text-right">Cells</TableHead>
                        </TableRow>
                      </TableHeader>
                      <TableBody>
                        {c.unmappedValues.map((v) => (
                          <TableRow key={v.value}>
                            <TableCell className="font-mono text-[13px]">{v.value}</TableCell>
                            <TableCell className="text-right tabular-nums">{v.count.toLocaleString("en-US")}</TableCell>
                          </TableRow>
                        ))}
                      </TableBody>
                    </Table>
                  ) : null}
                </Card>
              ))}
            </div>
          </section>
          {t.report.rejected.length ? (
            <section aria-labelledby="rejected-title">
              <h2 id="rejected-title" className="text-lg font-semibold">
                Rows rejected
              </h2>
              {t.report.rejected.length < t.rowsRejected ? (
                <p className="mt-1 text-sm text-muted-foreground">{`The first ${formatCount(t.report.rejected.length)} of ${formatCount(t.rowsRejected)}:`}</p>
              ) : null}
              {/* A row rejected whole (its number of values is not the file's) has no column, as on a load's page. */}
              <RejectedRowsTable
                label="Rows rejected"
                rows={t.report.rejected.map((r) =>
                  r.column === null
                    ? { line: r.row, column: null, value: null, reason: r.reason }
                    : { line: r.row, column: r.column, value: r.value, reason: "No mapping, and the column's rule rejects the row" },
                )}
                className="mt-3"
              />
            </section>
          ) : null}
        </>
      ) : null}
      <p className="text-sm">
        <Link to={href(paths.translations.root(projectId))} className="font-medium text-brand underline underline-offset-2">
          Translate another file
        </Link>
      </p>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
