import type { SubmissionResult } from "@conform-to/react";
import { Icon } from "~/components/ui/icon";
import { Form } from "react-router";
import { z } from "zod";
import { updateFlatFileParametersSchema, uploadTypeBodySchema, type Job, type Project } from "../../../../contracts/projects";
import { UPLOAD_TYPES, UPLOAD_TYPE_LABELS } from "../../../../contracts/values/projects";
import { versionSchema } from "../../../../contracts/common";
import { FormErrors, SelectField } from "~/components/forms/fields";
import { FlatFileParameterFields, flatFileParameterDefaults } from "~/components/projects/flat-file-parameter-fields";
import { StatusButton } from "~/components/forms/status-button";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { AutoRefresh, isRunning } from "~/components/projects/auto-refresh";
import { FollowedJob } from "~/components/projects/followed-job";
import { useLiveJob } from "~/components/projects/live-jobs";
import { WizardSteps } from "~/components/projects/wizard-steps";
import { LoadSourceLink } from "~/components/projects/load-source-link";
import { Card } from "~/components/ui/card";
import { redirectWithFlash } from "~/lib/flash.server";
import { companyHref } from "~/lib/company-href";
import { getFormProps, useServerForm } from "~/lib/forms";
import { invalid, parseFormData, readFormData, refusedByService, unknownIntent } from "~/lib/forms.server";
import { afterGuard } from "~/lib/guards.server";
import { projectCalls, requireWorkspace } from "../workspace.server";
import { withUserNames } from "~/lib/company-people.server";
import { postedWidthsShown, withUnpostedWidthsKept } from "../flat-file-parameters.server";
import type { Route } from "./+types/databases";
import { flatFileParameterRows } from "~/components/projects/flat-file-parameter-rows";
import { LabelValueList } from "~/components/ui/label-value-list";

/**
 * The settings form: the upload type, and for flat-file projects how the files are read, based on the
 * version the page showed (a stale tab's save is refused with 409).
 */
const backupSettingsSchema = uploadTypeBodySchema;
const flatFileSettingsSchema = uploadTypeBodySchema.and(updateFlatFileParametersSchema);
const settingsSchemaFor = (sourceType: Project["sourceType"]) => (sourceType === "FlatFile" ? flatFileSettingsSchema : backupSettingsSchema);

/** "Create databases" (and "Retry"): based on the version the page showed, so settings changed since (another tab) are refused with 409. */
const createSchema = z.object({ intent: z.literal("create-databases"), version: versionSchema });

/**
 * Step 3 is an edit page. It is lock-sensitive, with one exception: while the project is locked by
 * its own database creation, this page is where that job's progress shows; any other lock sends the
 * user to the background-process page. Writes are refused whenever the project is locked.
 */
async function guard(context: Route.LoaderArgs["context"], write: boolean) {
  const { project } = await requireWorkspace(context, { write: true });
  return await requireWorkspace(context, { unlocked: write || project.lockReason !== "DatabaseCreation", step: "databases" });
}

/** The workspace's latest database creation, which this step follows. */
function lastDatabaseCreation({ jobs }: { jobs: Job[] }): Job | null {
  return jobs.filter((j) => j.kind === "DatabaseCreation").sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0] ?? null;
}

export async function loader({ context }: Route.LoaderArgs) {
  // Started beside the workspace's own load; used only once the guard passed.
  const [{ project }, [job, names]] = await afterGuard(
    guard(context, false),
    withUserNames(context, projectCalls(context).jobs().then(lastDatabaseCreation), (job) => [job?.createdBy]),
  );
  return {
    project: {
      id: project.id,
      status: project.status,
      sourceType: project.sourceType,
      isLocked: project.isLocked,
      uploadType: project.uploadType,
      flatFileParameters: project.flatFileParameters,
      version: project.version,
    },
    // The settings in words, read here, for the summary shown instead of the form once the databases are being created
    // (or are): the page's code then carries no table of the flat-file parameters' labels beside its form's (issue 8's
    // initial JS bar). None while the page shows the form: a poll can end a creation, never start one.
    settings: settingsSettled(project, job) ? settingsRows(project) : null,
    // The upload types with their words, for the form's list: the page's code then carries no table of the project values (issue 8's bar).
    uploadTypes: UPLOAD_TYPES.map((value) => ({ value, label: UPLOAD_TYPE_LABELS[value] })),

    job,
    startedBy: job ? names[job.createdBy] : undefined,
    readAt: Date.now(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { project, companyId, api, paths } = await guard(context, true);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const back = companyHref(paths.wizard(project.id, "databases"), companyId);

  if (intent === "save") {
    const submission = parseFormData(formData, settingsSchemaFor(project.sourceType) as typeof flatFileSettingsSchema);
    if (submission.status !== "success") return invalid(submission);
    const { uploadType, ...parameters } = submission.value;
    try {
      // The parameters first: their version check refuses a stale tab's save before anything is written;
      // the upload type then goes on from the version they moved the project to.
      let { version } = parameters;
      if (project.sourceType === "FlatFile") {
        ({ version } = await api.setFlatFileParameters(withUnpostedWidthsKept(parameters, formData, project.flatFileParameters)));
      }
      await api.setUploadType({ uploadType, version });
    } catch (err) {
      return refusedByService(submission, err, postedWidthsShown(formData));
    }
    return redirectWithFlash(back, `Upload type saved: ${UPLOAD_TYPE_LABELS[uploadType]}.`);
  }

  if (intent === "create-databases") {
    const submission = parseFormData(formData, createSchema);
    if (submission.status !== "success") return invalid(submission);
    try {
      await api.tryCreateDatabases({ version: submission.value.version });
    } catch (err) {
      return refusedByService(submission, err);
    }
    return redirectWithFlash(back, "Creating the databases: this page follows the job.");
  }

  return unknownIntent(intent);
}

// After a refused save (409: the project changed meanwhile, in another tab or by someone else), show it as it is now.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export const handle = { breadcrumb: "Databases" };

export default function DatabasesStep({ loaderData, actionData }: Route.ComponentProps) {
  const { project, startedBy } = loaderData;
  const { job, poll } = useLiveJob(project.id, loaderData.job, { isLocked: project.isLocked, readAt: loaderData.readAt });
  const running = project.status === "DatabaseCreation" || isRunning(job);
  const created = project.status === "SetupRestoreDatabaseIncomplete";
  // running || created is the loader's settingsSettled with the job as this page follows it: the summary while the
  // databases are being created or are, the form again when a creation fails.
  const { settings } = loaderData;
  const failed = project.status === "DatabaseCreationFailed";
  const settled = Boolean(project.uploadType) && (project.sourceType !== "FlatFile" || Boolean(project.flatFileParameters));
  const lastResult = actionData?.result as SubmissionResult<string[]> | undefined;
  const isCreateResult = lastResult?.initialValue?.intent === "create-databases";

  return (
    <>
      <WizardSteps current="databases" project={project} />
      <AutoRefresh active={running} poll={poll} />

      {settings && (running || created) ? (
        <SettingsSummary rows={settings} />
      ) : (
        <SettingsForm project={project} uploadTypes={loaderData.uploadTypes} lastResult={isCreateResult ? undefined : lastResult} />
      )}

      <Card className="mt-6" aria-labelledby="create-title">
        <h2 id="create-title" className="text-lg font-semibold">
          Create databases
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          The project's source and destination databases get one table per dictionary table, with typed columns.
        </p>
        {job ? (
          <div className="mt-4">
            <FollowedJob job={job} startedBy={startedBy} />
          </div>
        ) : null}
        {created ? (
          <div className="mt-4 flex items-start gap-2 rounded-md border border-emerald-600/30 bg-emerald-50 px-4 py-3 text-sm text-emerald-900" role="status">
            <Icon name="circle-check" className="mt-0.5 size-4 shrink-0" />
            <p>
              The databases are created. Next, load the source data: <LoadSourceLink project={project} className="font-medium underline" />.
            </p>
          </div>
        ) : running ? (
          <p className="mt-4 text-sm" role="status">
            The databases are being created. This page follows the job until it ends.
          </p>
        ) : (
          <CreateForm failed={failed} disabled={!settled} version={project.version} lastResult={isCreateResult ? lastResult : undefined} />
        )}
      </Card>
    </>
  );
}

type StepProject = Route.ComponentProps["loaderData"]["project"];

function SettingsForm({
  project,
  uploadTypes,
  lastResult,
}: {
  project: StepProject;
  uploadTypes: Route.ComponentProps["loaderData"]["uploadTypes"];
  lastResult?: SubmissionResult<string[]>;
}) {
  const pending = useIntentPending("save");
  const flat = project.sourceType === "FlatFile";
  const params = project.flatFileParameters;
  const [form, fields] = useServerForm({
    id: "database-settings",
    lastResult,
    defaultValue: { uploadType: project.uploadType ?? "", ...flatFileParameterDefaults(params) },
  });
  return (
    <Card className="mt-6" aria-labelledby="settings-title">
      <h2 id="settings-title" className="text-lg font-semibold">
        Source files
      </h2>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
        <FormErrors form={form} />
        {/* The version this page showed, never the one a refused save sent (it is already stale). */}
        <input type="hidden" name="version" value={project.version} key={project.version} />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label="Upload type"
            field={fields.uploadType!}
            options={uploadTypes}
            placeholder="Choose an upload type"
            description={flat ? "One file for all tables, or one file per table." : "One backup file, or a backup in several files."}
          />
          {flat ? <FlatFileParameterFields fields={fields} delimiterSaved={params?.delimiter} /> : null}
        </div>
        <StatusButton type="submit" name="intent" value="save" variant="outline" pending={pending}>
          Save
        </StatusButton>
      </Form>
    </Card>
  );
}

/** Whether the step shows its settings as a summary, not its form: the databases are being created, or are. */
function settingsSettled(project: Pick<Project, "status">, job: Job | null): boolean {
  return project.status === "DatabaseCreation" || project.status === "SetupRestoreDatabaseIncomplete" || isRunning(job);
}

/** The upload type and, for flat files, how they are read, as label and value pairs. */
function settingsRows(project: Pick<Project, "uploadType" | "sourceType" | "flatFileParameters">): [string, string][] {
  const p = project.flatFileParameters;
  const rows: [string, string][] = [["Upload type", project.uploadType ? UPLOAD_TYPE_LABELS[project.uploadType] : "Not chosen"]];
  if (project.sourceType === "FlatFile" && p) rows.push(...flatFileParameterRows(p));
  return rows;
}

function SettingsSummary({ rows }: { rows: [string, string][] }) {
  return (
    <Card className="mt-6" aria-labelledby="settings-title">
      <h2 id="settings-title" className="text-lg font-semibold">
        Source files
      </h2>
      <LabelValueList rows={rows} className="mt-3" />
    </Card>
  );
}

function CreateForm({
  failed,
  disabled,
  version,
  lastResult,
}: {
  failed: boolean;
  disabled: boolean;
  version: number;
  lastResult?: SubmissionResult<string[]>;
}) {
  const pending = useIntentPending("create-databases");
  const [form] = useServerForm({ id: "create-databases", lastResult });
  return (
    <Form method="post" {...getFormProps(form)} className="mt-4 space-y-3">
      <FormErrors form={form} />
      {/* The settings' version this page showed: the databases are made for those settings or not at all. */}
      <input type="hidden" name="version" value={version} key={version} />
      {disabled ? <p className="text-sm text-muted-foreground">Choose and save the upload type first.</p> : null}
      <StatusButton type="submit" name="intent" value="create-databases" pending={pending} disabled={disabled}>
        {failed ? "Retry" : "Create databases"}
      </StatusButton>
    </Form>
  );
}
