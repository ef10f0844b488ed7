import { data, Form, Link, type UIMatch } from "react-router";
import { ON_ERROR_LABELS, type RunStepStatus, type RunType } from "../../../contracts/values/runs";
import { formatTimestamp } from "~/components/dictionary/column-format";
import { AutoRefresh } from "~/components/projects/auto-refresh";
import { formatCount } from "~/components/projects/format";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { CheckboxFilter } from "~/components/ui/checkbox-filter";
import { LabelValueList } from "~/components/ui/label-value-list";
import { ListSearchForm } from "~/components/ui/list-search-form";
import { Pagination, PastTheEnd } from "~/components/ui/pagination";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { readFormData, serviceFailure, unknownIntent } from "~/lib/forms.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { projectScope, requireWorkspace } from "../workspace/workspace.server";
import { useLiveRun } from "./live-run";
import { RunStatusBadge } from "./run-status-badge";
import { readStepSearch } from "./run-steps.server";
import type { Route } from "./+types/run-details";

/** Whether a run holds the workspace's lock (the lock's reason: not which run). */
const lockedByARun = (project: { isLocked: boolean; lockReason: string | null }) => project.isLocked && project.lockReason === "ProjectRun";

/**
 * One run (…/run-history/{runId}/details): its steps in order, a page at a time and filtered by status
 * through the URL, with status, rows changed, duration, notices and the error at its line, each step's
 * SQL as run; per destination table the rows before,
 * after, and after the run before. While it runs the page follows it (with JavaScript a poll of its
 * progress, without its SQL: useLiveRun; a meta refresh without) and offers "Cancel"; a run with a
 * failed step offers "Rerun from the failed step" (the steps that did not complete, not those that did), or, once
 * rerun, links to its rerun.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const search = readStepSearch(request);
  const { project, api, access } = await projectScope(context);
  const run = await api.runs.get(params.runId, search);
  // The project (and the layout's lock notice) was read before the run: a run that ended in between shows
  // ended under the lock it held. The page follows on until a read sees the lock released (useLiveRun).
  // A run's lock is released in the commit that ends it: read again after the run, a lock still held by a
  // run is a later run's, which this ended run's page does not follow (it would reload every second meanwhile).
  const lockedByRun = lockedByARun(project) && (run.status === "IN_PROGRESS" || !lockedByARun(await api.get()));
  return { projectId: project.id, run, canWrite: access.canWrite, lockedByRun, search, readAt: Date.now() };
}

const NO_JOB_TO_CANCEL = "This run has no job that runs it (it was recorded before runs had jobs): there is nothing to cancel.";

/** What a cancel undoes (decision 020): a Full run's scripts each commit alone; a Test run is one transaction, rolled back whole. */
const CANCELLING: Record<RunType, string> = {
  Full: "Cancelling: the running script is rolled back; the scripts that ran before it keep what they did.",
  Test: "Cancelling: the Test run stops, and everything it did is rolled back.",
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const intent = (await readFormData(request)).get("intent");
  const { project, api, paths, companyId } = await requireWorkspace(context, { write: true });
  const run = await api.runs.get(params.runId);
  try {
    if (intent === "cancel") {
      // A run recorded before runs had jobs has none to stop: said, never flashed as if it were being cancelled.
      if (!run.jobId) return data({ errors: [NO_JOB_TO_CANCEL] }, { status: 409 });
      await api.cancelJob(run.jobId);
      return redirectWithFlash(companyHref(paths.page(project.id, `templates/run-history/${run.id}/details`), companyId), CANCELLING[run.type]);
    }
    if (intent === "rerun") {
      const started = await api.runs.start({ type: run.type, rerunOf: run.id });
      return redirectWithFlash(
        companyHref(paths.page(project.id, `templates/run-history/${started.run.id}/details`), companyId),
        "Rerun started from the failed step: the steps that did not complete run again, those that completed do not.",
      );
    }
  } catch (err) {
    const failure = serviceFailure(err);
    if (!failure || failure.status >= 500) throw err;
    return data({ errors: failure.body.errors }, { status: failure.status });
  }
  unknownIntent(intent);
}

export const handle = {
  breadcrumb: (match: UIMatch) => {
    // Not found (another project's run, an unknown id): no loader data, so no crumb rather than "Run of" and nothing.
    const createdAt = (match.loaderData as { run?: { createdAt: string } } | undefined)?.run?.createdAt;
    return createdAt ? `Run of ${formatTimestamp(createdAt)}` : null;
  },
};

/**
 * A step's status (spec §4: Pending, Started, Completed, Failed). The spec has no status for a script a
 * stopped run never reached (stopped at a failure, cancelled, ended by a restart): it stays Pending in
 * the data, and only this page says that it will not run, so a reader does not wait for it.
 */
function StepStatus({ status, runEnded }: { status: RunStepStatus; runEnded: boolean }) {
  if (status !== "Pending" || !runEnded) return <>{status}</>;
  return (
    <>
      {status} <span className="block text-xs text-muted-foreground">Not reached: the run stopped before it</span>
    </>
  );
}

const duration = (ms: number | null) => (ms === null ? "" : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

export default function RunDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { projectId, canWrite, search } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const here = paths.page(projectId, `templates/run-history/${loaderData.run.id}/details`);
  const { run, poll } = useLiveRun(loaderData, href(paths.page(projectId, `templates/run-history/${loaderData.run.id}/progress`), search));
  const filtered = search.status.length > 0;
  const running = run.status === "IN_PROGRESS";
  const refusal = actionData?.errors;
  const [first, ...problems] = refusal ?? [];
  return (
    <section aria-labelledby="run-title" className="flex flex-col gap-4">
      <AutoRefresh active={running || loaderData.lockedByRun} poll={poll} />
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="run-title" className="text-xl font-semibold">
          {run.type === "Test" ? "Test run" : "Full run"}
        </h2>
        {/* Said as it changes (the page follows a running run), without taking the focus from where the user is. */}
        <span aria-live="polite" aria-atomic="true">
          <span className="sr-only">Run status: </span>
          <RunStatusBadge status={run.status} />
        </span>
      </div>
      {first ? (
        <RefusalAlert refusal={refusal}>
          {first}
          {problems.length ? (
            <ul className="mt-2 list-disc pl-5">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          ) : null}
        </RefusalAlert>
      ) : null}
      {run.message ? <p className="text-sm">{run.message}</p> : null}
      <Card>
        <LabelValueList
          label="Run"
          rows={[
            ["Started", `${formatTimestamp(run.createdAt)} by ${run.createdByName ?? run.createdBy}`],
            ["Finished", run.finishedAt ? `${formatTimestamp(run.finishedAt)} (${duration(run.durationMs)})` : "Still running"],
            ["On error", ON_ERROR_LABELS[run.onError]],
            ["Steps", `${run.stepCount}, ${run.failedSteps} failed`],
            ...(run.rerunOf
              ? ([
                  [
                    "Rerun of",
                    <Link
                      key="rerun-of"
                      to={href(paths.page(projectId, `templates/run-history/${run.rerunOf}/details`))}
                      className="text-brand hover:underline"
                    >
                      the earlier run, from its first failed step
                    </Link>,
                  ],
                ] as const)
              : []),
          ]}
        />
        <div className="mt-4 flex flex-wrap gap-2">
          {canWrite && running && run.jobId ? (
            <Form method="post">
              <input type="hidden" name="intent" value="cancel" />
              <Button type="submit" variant="outline">
                Cancel
              </Button>
            </Form>
          ) : null}
          {/* Rerun already: its scripts kept what they did, so the data API refuses another rerun (409); the page links to it. */}
          {run.rerunBy ? (
            <p className="self-center text-sm">
              Rerun as{" "}
              <Link to={href(paths.page(projectId, `templates/run-history/${run.rerunBy.id}/details`))} className="text-brand hover:underline">
                the run of {formatTimestamp(run.rerunBy.createdAt)}
              </Link>
            </p>
          ) : null}
          {/* A Test run kept nothing of the scripts before its failure: it is started again, not rerun from there. */}
          {canWrite && !running && run.failedSteps > 0 && run.type === "Full" && !run.rerunBy ? (
            <Form method="post" className="flex flex-wrap items-center gap-2">
              <input type="hidden" name="intent" value="rerun" />
              <Button type="submit" aria-describedby="rerun-what">
                Rerun from the failed step
              </Button>
              {/* A run that went on after a failure completed later scripts: they kept what they did, and are not run again. */}
              <span id="rerun-what" className="text-sm text-muted-foreground">
                Runs again the steps that failed or were not reached, each script at its newest version; the steps that completed are not
                run again.
              </span>
            </Form>
          ) : null}
          <Link to={href(paths.page(projectId, "templates/run-history"))} className={buttonVariants({ variant: "outline" })}>
            Run history
          </Link>
        </div>
      </Card>
      <ListSearchForm
        action={here}
        label="Filter steps"
        sort="position"
        defaultSort="position"
        pageSize={search.pageSize}
        pageSizeId="step-page-size"
        filtered={filtered}
      >
        {/* The failures are what a long run's reader looks for; the data API filters by any status. */}
        <CheckboxFilter legend="Show steps" name="status" options={[["Failed", "Failed only"]] as const} checked={search.status} />
      </ListSearchForm>
      {run.stepPage.total === 0 ? (
        <p role="status" className="rounded-lg border border-border bg-white p-4 text-sm">
          {filtered ? "No step of this run failed." : "This run has no steps."}
        </p>
      ) : run.steps.length === 0 ? (
        <PastTheEnd page={run.stepPage.page} />
      ) : (
        <Table aria-label="Steps">
          <TableHeader>
            <TableRow>
              <TableHead>#</TableHead>
              <TableHead>Script</TableHead>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">Rows changed</TableHead>
              <TableHead className="text-right">Duration</TableHead>
              <TableHead>Messages</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {run.steps.map((s) => (
              <TableRow key={s.position}>
                <TableCell className="tabular-nums">{s.position}</TableCell>
                <TableCell>
                  <span className="font-medium">{s.scriptName}</span>{" "}
                  <span className="block text-xs text-muted-foreground">
                    {s.templateName} / {s.levelName} · version {s.scriptVersion}
                  </span>{" "}
                  <details className="mt-1 text-xs">
                    <summary className="cursor-pointer text-brand">SQL as run</summary>
                    <pre className="mt-1 max-w-xl overflow-x-auto rounded bg-muted/40 p-2 font-mono">{s.sql}</pre>
                  </details>
                </TableCell>
                <TableCell>
                  <StepStatus status={s.status} runEnded={!running} />
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatCount(s.rowsAffected)}</TableCell>
                <TableCell className="text-right tabular-nums">{duration(s.durationMs)}</TableCell>
                <TableCell className="text-sm">
                  {s.error ? <p className="text-destructive">{s.errorLine ? `Line ${s.errorLine}: ${s.error}` : s.error}</p> : null}
                  {s.notices.map((n) => (
                    <p key={n} className="text-muted-foreground">
                      {n}
                    </p>
                  ))}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {run.stepPage.total > 0 ? (
        <Pagination
          page={run.stepPage.page}
          pageSize={run.stepPage.pageSize}
          total={run.stepPage.total}
          noun={["step", "steps"]}
          href={(page) => href(here, { status: search.status, pageSize: search.pageSize, page })}
        />
      ) : null}
      {run.tables.length ? (
        <Table aria-label="Destination tables">
          <caption className="mb-2 text-left text-sm font-semibold">
            {run.type === "Test" ? "Destination rows: what this test run would have left" : "Destination rows after this run"}
          </caption>
          <TableHeader>
            <TableRow>
              <TableHead>Table</TableHead>
              <TableHead className="text-right">Before</TableHead>
              <TableHead className="text-right">After</TableHead>
              {/* A Test run's rows were rolled back: a Full run is set beside the Full run before it. */}
              <TableHead className="text-right">{run.type === "Full" ? "After the Full run before" : "After the run before"}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {run.tables.map((t) => (
              <TableRow key={t.table}>
                <TableCell className="font-medium">{t.table}</TableCell>
                <TableCell className="text-right tabular-nums">{formatCount(t.rowsBefore)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatCount(t.rows)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatCount(t.previousRows)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
