import { getFormProps } from "@conform-to/react";
import { Form, Link, redirect } from "react-router";
import { createConfigurationSchema } from "../../../../contracts/configurations";
import { CheckboxGroupField, FormErrors, SelectField, TextareaField, TextField } from "~/components/forms/fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { WizardSteps } from "~/components/projects/wizard-steps";
import { Button } from "~/components/ui/button";
import { Card, CardDescription } from "~/components/ui/card";
import { adminDataSources, checkDefaultConfiguration } from "~/lib/api/workspaces.server";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { useValidatedForm } from "~/lib/forms";
import { invalid, parseForm, refusedByService } from "~/lib/forms.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { selectableApplications } from "../../migration/data-dictionary/api.server";
import { workspaceKindScope } from "../workspace.server";
import type { Route } from "./+types/configuration-details";

/**
 * Onboarding wizard step 1 (spec §2 "configurations: create"): name (unique in the company),
 * description, application, and at least one scheme of the company's admin data sources. The company
 * comes from the scope, not from the form. The company's first configuration becomes its default; a
 * later one is made the default from its details page (which moves it). The other steps are the
 * workspace's shared modules.
 */
const schema = createConfigurationSchema.omit({ companyId: true, isDefault: true });

export async function loader({ context }: Route.LoaderArgs) {
  const { shell, as } = workspaceKindScope(context);
  if (!shell.company) return { applications: [], schemes: [], defaultConfiguration: null };
  const [applications, schemes, defaults] = await Promise.all([
    selectableApplications(as, shell.company.id),
    adminDataSources(as, shell.company.id),
    checkDefaultConfiguration(as, shell.company.id),
  ]);
  return {
    applications: applications.map((a) => ({ value: a.id, label: a.name })),
    schemes: schemes.map((s) => ({ value: s.id, label: s.name })),
    defaultConfiguration: defaults.defaultConfiguration,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { shell, api, paths } = workspaceKindScope(context);
  const { submission } = await parseForm(request, schema);
  if (submission.status !== "success") return invalid(submission);
  if (!shell.company) return invalid(submission);
  try {
    const configuration = await api.create({ ...submission.value, companyId: shell.company.id });
    return redirect(companyHref(paths.wizard(configuration.id, "data-dictionary"), shell.company.id));
  } catch (err) {
    return refusedByService(submission, err);
  }
}

export const handle = { breadcrumb: "Create configuration" };

export default function CreateConfiguration({ loaderData, actionData }: Route.ComponentProps) {
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const pending = useIsPending();
  const [form, fields] = useValidatedForm(schema, { id: "create-configuration", lastResult: actionData?.result });
  const { applications, schemes, defaultConfiguration } = loaderData;

  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
        Create configuration
      </h1>
      <WizardSteps current="details" />
      {applications.length === 0 || schemes.length === 0 ? (
        <Card className="mt-6 max-w-2xl">
          <h2 className="text-base font-semibold">{applications.length === 0 ? "No applications yet" : "No schemes yet"}</h2>
          <CardDescription>
            {applications.length === 0
              ? "A configuration takes a client's data from an application, and no application is registered in this company yet. Register the application first."
              : "A configuration serves at least one of the company's schemes, and the client portal lists none for this company yet."}
          </CardDescription>
          {applications.length === 0 ? (
            <Button asChild className="mt-4">
              <Link to={href("/migration/application/create")}>Create application</Link>
            </Button>
          ) : null}
        </Card>
      ) : (
        <Card className="mt-6 max-w-2xl">
          <p className="mb-4 text-sm" role="note">
            {defaultConfiguration
              ? `The company's default configuration is ${defaultConfiguration.name}. To make this one the default instead, mark it on its details page once it is created.`
              : "This will be the company's default configuration: it is the first one."}
          </p>
          <Form method="post" {...getFormProps(form)} className="space-y-4">
            <FormErrors form={form} />
            <TextField label="Configuration name" field={fields.name!} autoComplete="off" />
            <SelectField label="Application" field={fields.applicationId!} options={applications} placeholder="Choose an application" />
            <CheckboxGroupField label="Schemes" field={fields.schemeIds!} options={schemes} description="The schemes whose deliveries this configuration takes: at least one." />
            <TextareaField label="Description" field={fields.description!} />
            <div className="flex items-center gap-3">
              <StatusButton type="submit" pending={pending}>
                Save and continue
              </StatusButton>
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
  return [{ title: "Create configuration · Data Transformation" }];
}
