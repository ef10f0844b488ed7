import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Fragment } from "react";
import { Form, Link, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { z } from "zod";
import { descriptionSchema, nameSchema, versionSchema } from "../../../../../contracts/common";
import {
  DELIMITER_LABELS,
  PROJECT_STATUS_LABELS,
  projectStatusSchema,
  SOURCE_TYPE_LABELS,
  STATUS_CHANGES,
  UPLOAD_TYPE_LABELS,
  type ProjectStatus,
} from "../../../../../contracts/projects";
import { ErrorList, FormErrors, TextareaField, TextField } from "~/components/forms/fields";
import { StatusButton } from "~/components/forms/status-button";
import { formatTimestamp, LOCK_REASON_LABELS } from "~/components/projects/format";
import { projectPath } from "~/components/projects/next-step";
import { ProjectStatusBadge } from "~/components/projects/project-status-badge";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { Card } from "~/components/ui/card";
import { callService } from "~/lib/api.server";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { useValidatedForm } from "~/lib/forms";
import { invalid, readFormData, refusedByService, unknownIntent } from "~/lib/forms.server";
import { projectApi, projectScope, requireProjectUnlocked, requireProjectWrite } from "../project.server";
import type { Route } from "./+types/details";

/** Name and description, based on the version the page showed (a stale save is refused with 409). */
const editSchema = z.object({ version: versionSchema, name: nameSchema, description: descriptionSchema });
/** A status change of DOMAIN.md (STATUS_CHANGES), based on the version too. */
const statusSchema = z.object({ version: versionSchema, status: projectStatusSchema });

export async function loader({ context }: Route.LoaderArgs) {
  const { project, access } = projectScope(context);
  return { project, canWrite: access.canWrite };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { project, companyId, as } = projectScope(context);
  const here = projectPath(project.id);
  // Every write checks again: write permission (else back to this page, read-only), and no lock.
  requireProjectWrite(context, here);
  requireProjectUnlocked(context);
  const formData = await readFormData(request);
  const intent = formData.get("intent");

  if (intent === "update") {
    const submission = parseWithZod(formData, { schema: editSchema });
    if (submission.status !== "success") return invalid(submission);
    try {
      await callService("data-api", projectApi(project.id), as, { schema: z.unknown(), method: "PATCH", body: submission.value });
    } catch (err) {
      return refusedByService(submission, err);
    }
    throw redirect(companyHref(here, companyId));
  }

  if (intent === "status") {
    const submission = parseWithZod(formData, {
      schema: statusSchema.refine((v) => (STATUS_CHANGES[project.status] ?? []).includes(v.status), {
        path: ["status"],
        message: `A project that is ${PROJECT_STATUS_LABELS[project.status]} cannot change to that status.`,
      }),
    });
    if (submission.status !== "success") return invalid(submission);
    try {
      await callService("data-api", projectApi(project.id), as, { schema: z.unknown(), method: "PATCH", body: submission.value });
    } catch (err) {
      return refusedByService(submission, err);
    }
    throw redirect(companyHref(here, companyId));
  }

  return unknownIntent(intent);
}

/** After a refused save (409: someone else changed the project), show the project as it is now. */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 || defaultShouldRevalidate;
}

export const handle = { breadcrumb: "Details" };

type ProjectData = Route.ComponentProps["loaderData"]["project"];

export default function ProjectDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { project, canWrite } = loaderData;
  const href = useCompanyHref();
  const lastResult = actionData?.result as SubmissionResult<string[]> | undefined;
  const statusResult = lastResult?.initialValue?.intent === "status" ? lastResult : undefined;
  const editResult = lastResult?.initialValue?.intent === "update" ? lastResult : undefined;

  return (
    <div className="grid gap-6 xl:grid-cols-2">
      <Card aria-labelledby="details-title">
        <h2 id="details-title" className="text-lg font-semibold">
          Details
        </h2>
        <ProjectFacts project={project} />
      </Card>

      <div className="space-y-6">
        {!canWrite ? (
          <Card>
            <p className="text-sm text-muted-foreground">You can read this project. A user with write access can change it.</p>
          </Card>
        ) : project.isLocked ? (
          <Card>
            <p className="text-sm">
              The project is locked while a background process runs; it can be changed again when it ends.{" "}
              <Link to={href(projectPath(project.id, "background-process"))} className="text-brand underline underline-offset-2">
                Background process
              </Link>
            </p>
          </Card>
        ) : (
          <>
            <EditForm project={project} lastResult={editResult} />
            <StatusForm project={project} lastResult={statusResult} />
          </>
        )}
      </div>
    </div>
  );
}

function ProjectFacts({ project }: { project: ProjectData }) {
  const p = project.flatFileParameters;
  const rows: [string, React.ReactNode][] = [
    ["Name", project.name],
    ["Application", project.applicationName],
    ["Source type", SOURCE_TYPE_LABELS[project.sourceType]],
    ["Status", <ProjectStatusBadge key="status" status={project.status} />],
    ["Description", project.description ?? <span className="text-muted-foreground">None</span>],
    ["Upload type", project.uploadType ? UPLOAD_TYPE_LABELS[project.uploadType] : <span className="text-muted-foreground">Not chosen yet</span>],
  ];
  if (project.sourceType === "FlatFile") {
    rows.push([
      "File format",
      p ? `${p.extension}, ${DELIMITER_LABELS[p.delimiter]}, ${p.hasHeaderRow ? "header row" : "no header row"}, ${p.encoding}` : <span className="text-muted-foreground">Not set yet</span>,
    ]);
  }
  rows.push(
    ["Current backup", project.currentBackupName ?? <span className="text-muted-foreground">None</span>],
    ["Locked", project.isLocked ? `Yes (${project.lockReason ? LOCK_REASON_LABELS[project.lockReason] : "no reason given"})` : "No"],
    ["Created", formatTimestamp(project.createdAt)],
    ["Updated", formatTimestamp(project.updatedAt)],
  );
  return (
    <dl className="mt-4 grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm">
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-muted-foreground">{k}</dt>
          <dd className="min-w-0 break-words">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function EditForm({ project, lastResult }: { project: ProjectData; lastResult?: SubmissionResult<string[]> }) {
  const pending = useIntentPending("update");
  const [form, fields] = useValidatedForm(editSchema, {
    id: "edit-project",
    lastResult,
    defaultValue: { name: project.name, description: project.description ?? "" },
  });
  return (
    <Card aria-labelledby="edit-title">
      <h2 id="edit-title" className="text-lg font-semibold">
        Edit project
      </h2>
      <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
        <FormErrors form={form} />
        {/* The version this page showed, never the one a refused save sent (it is already stale). */}
        <input type="hidden" name="version" value={project.version} key={project.version} />
        <TextField label="Project name" field={fields.name!} autoComplete="off" />
        <TextareaField label="Description" field={fields.description!} />
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
  const [form, fields] = useValidatedForm(statusSchema, { id: "project-status", lastResult });
  const changes = STATUS_CHANGES[project.status] ?? [];
  return (
    <Card aria-labelledby="status-title">
      <h2 id="status-title" className="text-lg font-semibold">
        Status
      </h2>
      {changes.length === 0 ? (
        <p className="mt-2 text-sm text-muted-foreground">
          {project.status === "Completed"
            ? "The project is completed."
            : "The status follows the project's setup until it is active; then it can be made inactive or completed."}
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
