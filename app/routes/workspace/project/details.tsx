import type { SubmissionResult } from "@conform-to/react";
import { Fragment } from "react";
import { data, Form, Link } from "react-router";
import { z } from "zod";
import { descriptionSchema, formBoolean, nameSchema, nameToEdit, versionSchema } from "../../../../contracts/common";
import { updateConfigurationSchema } from "../../../../contracts/configurations";
import { capitalised } from "../../../../contracts/values/common";
import { mappingProjectIdSchema, projectStatusSchema } from "../../../../contracts/projects";
import { nounInIds, WORKSPACES } from "../../../../contracts/workspaces";
import { mayEnterArea } from "~/lib/access";
import { DELIMITER_LABELS, ENCODING_LABELS } from "../../../../contracts/values/flat-files";
import {
  LOCK_REASON_LABELS,
  PROJECT_STATUS_LABELS,
  SOURCE_TYPE_LABELS,
  STATUS_CHANGES,
  UPLOAD_TYPE_LABELS,
  type ProjectStatus,
} from "../../../../contracts/values/projects";
import { CheckboxField, ErrorList, FormErrors, SelectField, TextareaField, TextField } from "~/components/forms/fields";
import { CheckboxGroupField } from "~/components/forms/choice-fields";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { StatusButton } from "~/components/forms/status-button";
import { formatTimestamp } from "~/components/projects/format";
import { ProjectStatusBadge } from "~/components/projects/project-status-badge";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { Card } from "~/components/ui/card";
import { adminDataSources, workspaceApi } from "~/lib/api/workspaces.server";
import { redirectWithFlash } from "~/lib/flash.server";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { getFormProps, useServerForm } from "~/lib/forms";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { invalid, parseFormData, readFormData, refusedByService, unknownIntent } from "~/lib/forms.server";
import { accessSettings, callerOf, requestedCompanyId } from "~/lib/guards.server";
import { projectScope, requireWorkspace, workspaceKind } from "../workspace.server";
import type { Route } from "./+types/details";

/**
 * Name and description, based on the version the page showed (a stale save is refused with 409); a
 * workspace with databases also names the mapping project whose value maps its scripts join.
 */
const editSchema = z.object({ version: versionSchema, name: nameSchema, description: descriptionSchema, mappingProjectId: mappingProjectIdSchema });
/** A configuration's edit also chooses its schemes and may make it the company's default (spec §3). */
const configurationEditSchema = editSchema.extend({
  schemeIds: updateConfigurationSchema.shape.schemeIds.unwrap(),
  isDefault: formBoolean.default(false),
});
/** A status change of DOMAIN.md (STATUS_CHANGES), based on the version too. */
const statusSchema = z.object({ version: versionSchema, status: projectStatusSchema });

export async function loader({ context }: Route.LoaderArgs) {
  // A configuration's schemes are chosen from the company's admin data sources (only needed to edit):
  // asked beside the workspace's own load, and waited for only when the user may edit.
  const { ws } = workspaceKind(context);
  const companyId = requestedCompanyId(context);
  const sources = ws.kind === "onboarding" && companyId ? adminDataSources(callerOf(context), companyId) : null;
  sources?.catch(() => undefined);
  // The company's mapping projects (issue 12), for a workspace with databases and a user of Translations.
  const mappings =
    ws.features.databases && companyId
      ? workspaceApi(WORKSPACES.translation, callerOf(context))
          .search({ companyId, status: [], sort: "name", page: 1, pageSize: 100 })
          .then((page) => page.items.map((m) => ({ value: m.id, label: m.name })))
      : null;
  mappings?.catch(() => undefined);
  const { project, access, shell } = await projectScope(context);
  const schemes = access.canWrite && sources ? await sources : [];
  const mayMap = mappings !== null && mayEnterArea("translations", shell.roles, accessSettings);
  const mappingProjects = mayMap ? await mappings.catch(() => null) : null;
  // The edit form's name: one stored with a tab or an invisible character (before names refused them) comes cleaned, with a note.
  const name = nameToEdit(project.name);
  return { project, canWrite: access.canWrite, name, schemes: schemes.map((s) => ({ value: s.id, label: s.name })), mappingProjects };
}

export async function action({ request, context }: Route.ActionArgs) {
  // Every write checks again: write permission (else back to this page, read-only), and no lock.
  const { project, companyId, api, paths, ws } = await requireWorkspace(context, { write: true, unlocked: true });
  const here = paths.page(project.id);
  const formData = await readFormData(request);
  const intent = formData.get("intent");

  if (intent === "update") {
    const submission = parseFormData(formData, ws.kind === "onboarding" ? configurationEditSchema : editSchema);
    if (submission.status !== "success") return invalid(submission);
    // Only `true` moves the default; leaving the box unticked never takes it away (a company keeps one).
    const { isDefault, ...changes } = submission.value as z.output<typeof configurationEditSchema>;
    try {
      await api.update(isDefault ? { ...changes, isDefault } : changes);
    } catch (err) {
      return refusedByService(submission, err);
    }
    return redirectWithFlash(companyHref(here, companyId), `${capitalised(ws.noun)} ${changes.name} saved.`);
  }

  if (intent === "status") {
    // The page draws its Status form only for a status that may change: a post that finds none (the workspace completed
    // in another tab meanwhile; a stale or forged form of one still in setup) is refused at the top, where it is read.
    if (!STATUS_CHANGES[project.status]?.length) {
      return data(
        { errors: [`Nothing was changed: a ${ws.noun} that is ${PROJECT_STATUS_LABELS[project.status]} cannot change its status.`] },
        { status: 409 },
      );
    }
    const submission = parseFormData(formData, statusSchema);
    if (submission.status !== "success") return invalid(submission);
    // A status its status cannot go to, mostly a tab left open on the status it had (made inactive meanwhile, "Mark as
    // inactive" pressed there): 409, so that the page is read again with JavaScript too, its buttons those of now.
    if (!STATUS_CHANGES[project.status]?.includes(submission.value.status)) {
      const message = `A ${ws.noun} that is ${PROJECT_STATUS_LABELS[project.status]} cannot change to that status.`;
      return data({ result: submission.reply({ fieldErrors: { status: [message] } }) }, { status: 409 });
    }
    try {
      await api.update(submission.value);
    } catch (err) {
      return refusedByService(submission, err);
    }
    return redirectWithFlash(companyHref(here, companyId), `Status changed to ${PROJECT_STATUS_LABELS[submission.value.status]}.`);
  }

  return unknownIntent(intent);
}

// After a refused save (409: the project changed meanwhile, in another tab or by someone else), show it as it is now.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export const handle = { breadcrumb: "Details" };

type ProjectData = Route.ComponentProps["loaderData"]["project"];
type Option = { value: string; label: string };

export default function ProjectDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { project, canWrite, name, schemes, mappingProjects } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const noun = paths.ws.noun;
  const lastResult = actionData && "result" in actionData ? (actionData.result as SubmissionResult<string[]>) : undefined;
  const refusal = actionData && "errors" in actionData ? actionData.errors : undefined;
  const statusResult = lastResult?.initialValue?.intent === "status" ? lastResult : undefined;
  const editResult = lastResult?.initialValue?.intent === "update" ? lastResult : undefined;

  return (
    <div className="grid gap-6 xl:grid-cols-2">
      {refusal ? (
        <RefusalAlert refusal={refusal} className="xl:col-span-2">
          {refusal.join(" ")}
        </RefusalAlert>
      ) : null}
      <Card aria-labelledby="details-title">
        <h2 id="details-title" className="text-lg font-semibold">
          Details
        </h2>
        <ProjectFacts project={project} mapping={paths.ws.kind === "translation"} mappingProjects={mappingProjects} />
      </Card>

      <div className="space-y-6">
        {!canWrite ? (
          <Card>
            <p className="text-sm text-muted-foreground">You can read this {noun}. A user with write access can change it.</p>
          </Card>
        ) : project.isLocked ? (
          <Card>
            <p className="text-sm">
              The {noun} is locked while a background process runs; it can be changed again when it ends.{" "}
              <Link to={href(paths.page(project.id, "background-process"))} className="text-brand underline underline-offset-2">
                Background process
              </Link>
            </p>
          </Card>
        ) : (
          <>
            <EditForm project={project} name={name} schemes={schemes} mappingProjects={mappingProjects} lastResult={editResult} />
            <StatusForm project={project} lastResult={statusResult} />
          </>
        )}
      </div>
    </div>
  );
}

function ProjectFacts({ project, mapping, mappingProjects }: { project: ProjectData; mapping: boolean; mappingProjects: Option[] | null }) {
  const p = project.flatFileParameters;
  const configuration = project.schemes !== undefined;
  // A mapping project has no source type, databases or jobs: its facts are its name, application and status.
  const project_ = !configuration && !mapping;
  const rows: [string, React.ReactNode][] = [
    ["Name", project.name],
    ["Application", project.applicationName],
  ];
  if (configuration) {
    rows.push(["Schemes", (project.schemes ?? []).map((s) => s.scheme.name).join(", ")], ["Default configuration", project.isDefault ? "Yes" : "No"]);
  } else if (project_) rows.push(["Source type", SOURCE_TYPE_LABELS[project.sourceType]]);
  rows.push(
    ["Status", <ProjectStatusBadge key="status" status={project.status} label={PROJECT_STATUS_LABELS[project.status]} />],
    ["Description", project.description ?? <span className="text-muted-foreground">None</span>],
  );
  if (project_) {
    rows.push(["Upload type", project.uploadType ? UPLOAD_TYPE_LABELS[project.uploadType] : <span className="text-muted-foreground">Not chosen yet</span>]);
  }
  if (project_ && project.sourceType === "FlatFile") {
    rows.push([
      "File format",
      p ? (
        `${p.extension}, ${DELIMITER_LABELS[p.delimiter]}, ${p.hasHeaderRow ? "header row" : "no header row"}, ${ENCODING_LABELS[p.encoding]}`
      ) : (
        <span className="text-muted-foreground">Not set yet</span>
      ),
    ]);
  }
  if (!mapping) {
    const linked = mappingProjects?.find((m) => m.value === project.mappingProjectId)?.label;
    rows.push(["Value maps from", project.mappingProjectId ? (linked ?? "A mapping project") : <span className="text-muted-foreground">None</span>]);
    rows.push(
      ["Current backup", project.currentBackupName ?? <span className="text-muted-foreground">None</span>],
      ["Locked", project.isLocked ? `Yes (${project.lockReason ? LOCK_REASON_LABELS[project.lockReason] : "no reason given"})` : "No"],
    );
  }
  rows.push(
    ["Created", formatTimestamp(project.createdAt)],
    ["Updated", formatTimestamp(project.updatedAt)],
  );
  return (
    <dl className="mt-4 label-values gap-x-6 gap-y-2 text-sm">
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-muted-foreground">{k}</dt>
          <dd className="min-w-0 break-words">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function EditForm({
  project,
  name,
  schemes,
  mappingProjects,
  lastResult,
}: {
  project: ProjectData;
  name: { name: string; note: string | null };
  schemes: Option[];
  mappingProjects: Option[] | null;
  lastResult?: SubmissionResult<string[]>;
}) {
  const pending = useIntentPending("update");
  const { ws } = useWorkspacePaths();
  const configuration = ws.kind === "onboarding";
  const [form, fields] = useServerForm({
    id: `edit-${nounInIds(ws)}`,
    lastResult,
    required: ["name"],
    defaultValue: {
      name: name.name,
      description: project.description ?? "",
      schemeIds: (project.schemes ?? []).map((s) => s.scheme.id),
      isDefault: project.isDefault ? "on" : undefined,
      mappingProjectId: project.mappingProjectId ?? "",
    },
  });
  return (
    <Card aria-labelledby="edit-title">
      <h2 id="edit-title" className="text-lg font-semibold">
        Edit {ws.noun}
      </h2>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
        <FormErrors form={form} />
        {/* The version this page showed, never the one a refused save sent (it is already stale). */}
        <input type="hidden" name="version" value={project.version} key={project.version} />
        <TextField label={`${capitalised(ws.noun)} name`} field={fields.name!} autoComplete="off" description={name.note} />
        <TextareaField label="Description" field={fields.description!} />
        {mappingProjects ? (
          <SelectField
            label="Translation mapping project"
            field={fields.mappingProjectId!}
            options={[{ value: "", label: "None" }, ...mappingProjects]}
            description="Its value maps become tables of schema maps (maps.table_column) that this workspace's scripts can join."
          />
        ) : null}
        {configuration ? (
          <>
            <CheckboxGroupField
              label="Schemes"
              field={fields.schemeIds!}
              options={schemes}
              description="The schemes this configuration serves: at least one."
            />
            {project.isDefault ? (
              <p className="text-sm text-muted-foreground">This is the company's default configuration.</p>
            ) : (
              <CheckboxField label="Make this the company's default configuration" field={fields.isDefault!} />
            )}
          </>
        ) : null}
        <StatusButton type="submit" name="intent" value="update" pending={pending}>
          Save changes
        </StatusButton>
      </Form>
    </Card>
  );
}

const STATUS_ACTIONS: Partial<Record<ProjectStatus, string>> = {
  Active: "Reactivate",
  Inactive: "Mark as inactive",
  Completed: "Mark as completed",
};

function StatusForm({ project, lastResult }: { project: ProjectData; lastResult?: SubmissionResult<string[]> }) {
  const pending = useIntentPending("status");
  const [form, fields] = useServerForm({ id: "project-status", lastResult });
  const changes = STATUS_CHANGES[project.status] ?? [];
  const { ws } = useWorkspacePaths();
  return (
    <Card aria-labelledby="status-title">
      <h2 id="status-title" className="text-lg font-semibold">
        Status
      </h2>
      {changes.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">
          {project.status === "Completed"
            ? `The ${ws.noun} is completed.`
            : `The status follows the ${ws.noun}'s setup until it is active; then it can be made inactive or completed.`}
        </p>
      ) : (
        <Form method="post" {...getFormProps(form)} className="mt-3 space-y-3">
          <FormErrors form={form} />
          <input type="hidden" name="intent" value="status" />
          <input type="hidden" name="version" value={project.version} key={project.version} />
          <div className="flex flex-wrap gap-2">
            {changes.map((status) => (
              <Fragment key={status}>
                <StatusButton type="submit" name="status" value={status} variant="outline" pending={pending}>
                  {STATUS_ACTIONS[status] ?? `Change to ${PROJECT_STATUS_LABELS[status]}`}
                </StatusButton>{" "}
              </Fragment>
            ))}
          </div>
          <ErrorList id={fields.status!.errorId} errors={fields.status!.errors} />
        </Form>
      )}
    </Card>
  );
}
