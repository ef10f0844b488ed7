import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, data } from "react-router";
import { isAdmin } from "../../../../contracts/roles";
import { FormErrors, TextareaField } from "~/components/forms/fields";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { getFormProps, useServerForm } from "~/lib/forms";
import { Button } from "~/components/ui/button";
import { redirectWithFlash } from "~/lib/flash.server";
import { invalid, parseFormData, readFormData, refusedByService, serviceFailure, unknownIntent } from "~/lib/forms.server";
import { LOCK_REASON_LABELS } from "../../../../contracts/values/projects";
import { AutoRefresh, isRunning } from "~/components/projects/auto-refresh";
import { JobAnnouncer, JobProgress } from "~/components/projects/job-progress";
import { useLiveJobs } from "~/components/projects/live-jobs";
import { Card } from "~/components/ui/card";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { afterGuard } from "~/lib/guards.server";
import { checkWorkspace, projectCalls, projectScope } from "../workspace.server";
import { withUserNames } from "~/lib/company-people.server";
import { forceUnlockForm } from "./force-unlock.server";
import type { Route } from "./+types/background-process";

const LOCK_STATE_LABELS = { Unlocked: "Unlocked", Locked: "Locked", ForceUnlocked: "Force-unlocked" } as const;

/** The project's lock and its jobs (DOMAIN.md "Databases and jobs"); where the lock guard sends pages. */
export async function loader({ context }: Route.LoaderArgs) {
  // Started beside the workspace's own load; used only once its guard passed.
  const [{ project, access, shell }, [jobs, names]] = await afterGuard(
    projectScope(context),
    withUserNames(context, projectCalls(context).jobs(), (answer) => answer.jobs.map((j) => j.createdBy)),
  );
  return {
    project: { id: project.id, status: project.status },
    ...jobs,
    names,
    canCancel: access.canWrite,
    canForceUnlock: isAdmin(shell.roles),
    readAt: Date.now(),
  };
}

export const FORCE_UNLOCK_REFUSED = "Only a SuperAdmin or Support may force unlock: nothing was changed.";

/**
 * "Cancel" on a running job (writers) and "Force unlock" (SuperAdmin, Support), both answered with
 * this page; the data API checks each again.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const scope = await projectScope(context);
  const { project, companyId, api, paths, shell } = scope;
  const here = companyHref(paths.page(project.id, "background-process"), companyId);
  const formData = await readFormData(request);
  const intent = formData.get("intent");

  if (intent === "cancel") {
    await checkWorkspace(scope, { write: paths.page(project.id, "background-process") });
    try {
      await api.cancelJob(String(formData.get("jobId") ?? ""));
    } catch (err) {
      const failure = serviceFailure(err);
      // Ended meanwhile (409) or not this workspace's (404): the page tells what is true now.
      if (!failure || failure.status >= 500) throw err;
      return redirectWithFlash(here, failure.body.errors[0] ?? "The job could not be cancelled.");
    }
    return redirectWithFlash(here, "The job is being cancelled.");
  }

  if (intent === "force-unlock") {
    // Said, not ignored: a forged or stale form must not look as if it had worked.
    if (!isAdmin(shell.roles)) return data({ errors: [FORCE_UNLOCK_REFUSED] }, { status: 403 });
    const submission = parseFormData(formData, forceUnlockForm);
    if (submission.status !== "success") return invalid(submission);
    try {
      await api.forceUnlock(submission.value.reason);
    } catch (err) {
      // Not locked (409): unlocked meanwhile (another tab, another administrator, the job's end) or this post sent
      // again (Back and resend). The page draws no Force unlock form then: the refusal is said at its top.
      const failure = serviceFailure(err);
      if (failure?.status === 409) return data({ errors: failure.body.errors }, { status: 409 });
      return refusedByService(submission, err);
    }
    return redirectWithFlash(here, `The ${paths.ws.noun} is unlocked.`);
  }

  return unknownIntent(intent);
}

// After a refused force unlock (409: unlocked meanwhile), show the lock as it is now, without its form.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export const handle = { breadcrumb: "Background process" };

export default function BackgroundProcess({ loaderData, actionData }: Route.ComponentProps) {
  const { project, isLocked, lockReason, lockState, jobs, names, canCancel } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const { shown, poll } = useLiveJobs(project.id, loaderData);
  const running = jobs.filter(isRunning).map(shown);
  const recent = jobs.filter((j) => !isRunning(j));

  return (
    <div className="space-y-6">
      <AutoRefresh active={isLocked || running.length > 0} poll={poll} />
      <JobAnnouncer jobs={[...running, ...recent]} />
      {actionData && "errors" in actionData ? <RefusalAlert refusal={actionData.errors}>{actionData.errors.join(" ")}</RefusalAlert> : null}
      <Card aria-labelledby="lock-title">
        <h2 id="lock-title" className="text-lg font-semibold">
          Lock
        </h2>
        <dl className="mt-3 label-values gap-x-6 gap-y-1 text-sm">
          <dt className="text-muted-foreground">Locked</dt>
          <dd>{isLocked ? "Yes" : "No"}</dd>
          <dt className="text-muted-foreground">Reason</dt>
          <dd>{lockReason ? LOCK_REASON_LABELS[lockReason] : "None"}</dd>
          <dt className="text-muted-foreground">State</dt>
          <dd>{LOCK_STATE_LABELS[lockState]}</dd>
        </dl>
        <p className="mt-3 text-sm text-muted-foreground" role="status">
          {isLocked
            ? `While a background process holds the lock, the pages that change the ${paths.ws.noun} wait here; this page follows the job until it ends.`
            : `No background process holds the ${paths.ws.noun}.`}
        </p>
        {/* The setup's steps are edit pages (canCancel is write access): a reader is not sent to be refused. */}
        {!isLocked && canCancel && paths.setupIncomplete(project.status) ? (
          <p className="mt-2 text-sm">
            <Link to={href(paths.nextStep(project))} className="font-medium text-brand underline underline-offset-2">
              Continue setup
            </Link>
          </p>
        ) : null}
      </Card>

      {isLocked && loaderData.canForceUnlock ? <ForceUnlock lastResult={(actionData as { result?: SubmissionResult<string[]> } | undefined)?.result} /> : null}

      <Card aria-labelledby="running-title">
        <h2 id="running-title" className="text-lg font-semibold">
          Running
        </h2>
        {running.length === 0 ? (
          <p className="mt-2 text-sm text-muted-foreground">No job is running.</p>
        ) : (
          <ul className="mt-4 space-y-6">
            {running.map((job) => (
              <li key={job.id}>
                <JobProgress job={job} startedBy={names[job.createdBy]} />
                {loaderData.canCancel ? (
                  <Form method="post" className="mt-3">
                    <input type="hidden" name="intent" value="cancel" />
                    <input type="hidden" name="jobId" value={job.id} />
                    <Button type="submit" variant="outline" size="sm">
                      Cancel
                    </Button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Card>

      <Card aria-labelledby="recent-title">
        <h2 id="recent-title" className="text-lg font-semibold">
          Recent
        </h2>
        {recent.length === 0 ? (
          <p className="mt-2 text-sm text-muted-foreground">
            {/* Its first job is shown running above: "no job has run" would deny it. */}
            {running.length > 0 ? `No job has ended for this ${paths.ws.noun} yet.` : `No job has run for this ${paths.ws.noun} yet.`}
          </p>
        ) : (
          <ul className="mt-4 divide-y divide-border">
            {recent.map((job) => (
              <li key={job.id} className="py-4 first:pt-0">
                <JobProgress job={job} startedBy={names[job.createdBy]} />
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}

/** SuperAdmin and Support: release the lock whatever holds it, saying why (recorded with who and when). */
function ForceUnlock({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useServerForm({ id: "force-unlock", lastResult, required: ["reason"] });
  return (
    <Card aria-labelledby="force-unlock-title">
      <h2 id="force-unlock-title" className="text-lg font-semibold">
        Force unlock
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">The running job is stopped and nothing it did is kept. Who, when and why are recorded.</p>
      <Form method="post" {...getFormProps(form)} className="mt-4 flex max-w-xl flex-col gap-4">
        <input type="hidden" name="intent" value="force-unlock" />
        <FormErrors form={form} />
        <TextareaField label="Reason" field={fields.reason!} />
        <div>
          <Button type="submit" variant="destructive">
            Force unlock
          </Button>
        </div>
      </Form>
    </Card>
  );
}
