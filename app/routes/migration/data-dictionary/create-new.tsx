import { Form, Link } from "react-router";
import { createDictionarySchema } from "../../../../contracts/dictionary";
import { DictionarySteps } from "~/components/dictionary/dictionary-steps";
import { FormErrors, SelectField, TextareaField, TextField } from "~/components/forms/fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { getFormProps, useServerForm } from "~/lib/forms";
import { submitForm } from "~/lib/forms.server";
import { CREATE_APPLICATION_PATH } from "../application/paths";
import { selectableApplications } from "~/lib/api/applications.server";
import { createDictionary } from "~/lib/api/dictionaries.server";
import { dictionaryPathsOfRequest, requireMasterDataWrite } from "./dictionary.server";
import { useDictionaryPaths } from "./paths";
import { forSelectedCompany } from "~/lib/guards.server";
import type { Route } from "./+types/create-new";

/** The company comes from the page's scope, never from the form. */
const formSchema = createDictionarySchema.omit({ companyId: true });

export async function loader({ request, context }: Route.LoaderArgs) {
  // At most SELECT_LIMIT applications, by name: see there. Asked beside the shell's data, used once the write guard passed.
  const loading = forSelectedCompany(context, selectableApplications);
  loading.catch(() => undefined);
  await requireMasterDataWrite(context, dictionaryPathsOfRequest(request).list);
  const applications = (await loading).value ?? [];
  // From an application's page: that application is chosen already.
  const applicationId = new URL(request.url).searchParams.get("applicationId");
  return {
    // The form's own id (madeIdSchema): sent twice, it makes one dictionary and both sendings go on to its upload step.
    madeId: crypto.randomUUID(),
    applications: applications.map((a) => ({ value: a.id, label: a.name })),
    applicationId: applications.some((a) => a.id === applicationId) ? applicationId : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const paths = dictionaryPathsOfRequest(request);
  const { shell, companyId } = await requireMasterDataWrite(context, paths.list);
  // A name the application's dictionaries already use (409), an application of another company (400): each at its field.
  const { value: created, reply } = await submitForm(request, formSchema, (value) => createDictionary(shell, { companyId, ...value }));
  if (reply) return reply;
  return redirectWithFlash(companyHref(paths.upload("create", created.id), companyId), `Data dictionary ${created.name} created.`);
}

export const handle = { breadcrumb: "Create data dictionary" };

export default function CreateDataDictionary({ loaderData, actionData }: Route.ComponentProps) {
  const href = useCompanyHref();
  const paths = useDictionaryPaths();
  const pending = useIsPending();
  const [form, fields] = useServerForm({
    id: "create-dictionary",
    lastResult: actionData?.result,
    defaultValue: { applicationId: loaderData.applicationId ?? "" },
    required: ["name", "applicationId"],
  });
  return (
    <section aria-labelledby="page-title" className="flex flex-col gap-6">
      <div>
        <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
          Create data dictionary
        </h1>
        <DictionarySteps current="application" />
      </div>
      <Card className="max-w-2xl">
        {loaderData.applications.length === 0 ? (
          <p className="text-sm">
            A data dictionary describes one application, and this company has none yet.{" "}
            <Link to={href(CREATE_APPLICATION_PATH)} className="text-brand underline">
              Create application
            </Link>{" "}
            first.
          </p>
        ) : (
          <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
            <FormErrors form={form} />
            <input type="hidden" name="id" value={loaderData.madeId} />
            <SelectField label="Application" field={fields.applicationId!} options={loaderData.applications} placeholder="Choose an application" />
            <TextField label="Name" field={fields.name!} />
            <TextareaField label="Description" field={fields.description!} />
            <div className="flex gap-2">
              <StatusButton type="submit" pending={pending}>
                Save and continue
              </StatusButton>{" "}
              <Link to={href(paths.list)} className={buttonVariants({ variant: "outline" })}>
                Cancel
              </Link>
            </div>
          </Form>
        )}
      </Card>
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
