import { getFormProps } from "@conform-to/react";
import { Form, Link, redirect } from "react-router";
import { createProjectSchema, SOURCE_TYPES, SOURCE_TYPE_LABELS } from "../../../../contracts/projects";
import { SelectField, TextareaField, TextField, FormErrors } from "~/components/forms/fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { WizardSteps } from "~/components/projects/wizard-steps";
import { Button } from "~/components/ui/button";
import { Card, CardDescription } from "~/components/ui/card";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { useValidatedForm } from "~/lib/forms";
import { invalid, parseForm, refusedByService } from "~/lib/forms.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { workspaceKindScope } from "../workspace.server";
import { selectableApplications } from "../../migration/data-dictionary/api.server";
import type { Route } from "./+types/details";

/** Wizard step 1 (DOMAIN.md): the company comes from the scope, not from the form. */
const schema = createProjectSchema.omit({ companyId: true });

export async function loader({ context }: Route.LoaderArgs) {
  const { shell } = workspaceKindScope(context);
  // At most SELECT_LIMIT applications, by name (a searchable picker is the next step past that).
  const applications = shell.company ? await selectableApplications(shell, shell.company.id) : [];
  return { applications: applications.map((a) => ({ value: a.id, label: a.name })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { shell, api, paths } = workspaceKindScope(context);
  const { submission } = await parseForm(request, schema);
  if (submission.status !== "success") return invalid(submission);
  if (!shell.company) return invalid(submission);
  try {
    const project = await api.create({ ...submission.value, companyId: shell.company.id });
    return redirect(companyHref(paths.wizard(project.id, "data-dictionary"), shell.company.id));
  } catch (err) {
    return refusedByService(submission, err);
  }
}

export const handle = { breadcrumb: "Create project" };

export default function CreateProject({ loaderData, actionData }: Route.ComponentProps) {
  const href = useCompanyHref();
  const pending = useIsPending();
  const [form, fields] = useValidatedForm(schema, { id: "create-project", lastResult: actionData?.result });
  const { applications } = loaderData;
  const paths = useWorkspacePaths();

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
        Create project
      </h1>
      <WizardSteps current="details" />
      {applications.length === 0 ? (
        <Card className="mt-6 max-w-2xl">
          <h2 className="text-base font-semibold">No applications yet</h2>
          <CardDescription>
            A project migrates data from a legacy application, and no application is registered in this company yet. Register the application first.
          </CardDescription>
          <Button asChild className="mt-4">
            <Link to={href("/migration/application/create")}>Create application</Link>
          </Button>
        </Card>
      ) : (
        <Card className="mt-6 max-w-2xl">
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <FormErrors form={form} />
            <TextField label="Project name" field={fields.name!} autoComplete="off" />
            <SelectField label="Application" field={fields.applicationId!} options={applications} placeholder="Choose an application" />
            <SelectField
              label="Source type"
              field={fields.sourceType!}
              options={SOURCE_TYPES.map((t) => ({ value: t, label: SOURCE_TYPE_LABELS[t] }))}
              placeholder="Choose a source type"
              description="Backup: the legacy data arrives as a database backup. Flat file: as CSV, text, Stata or Excel files."
            />
            <TextareaField label="Description" field={fields.description!} />
            <div className="flex items-center gap-3">
              <StatusButton type="submit" pending={pending}>
                Save and continue
              </StatusButton>{" "}
              <Link to={href(paths.list)} className="text-sm text-brand hover:underline">
                Cancel
              </Link>
            </div>
          </Form>
        </Card>
      )}
    </section>
  );
}

export function meta() {
  return [{ title: "Create project · Data Transformation" }];
}
