import { Form, Link } from "react-router";
import { createApplicationSchema } from "../../../../contracts/applications";
import { FormErrors, TextareaField, TextField } from "~/components/forms/fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { createApplication } from "~/lib/api/applications.server";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { getFormProps, useServerForm } from "~/lib/forms";
import { submitForm } from "~/lib/forms.server";
import { requireMasterDataWrite } from "../data-dictionary/dictionary.server";
import { APPLICATIONS_PATH, CREATED_PARAM } from "./paths";
import type { Route } from "./+types/create";

/** The company comes from the page's scope, never from the form. */
const formSchema = createApplicationSchema.omit({ companyId: true });

export async function loader({ context }: Route.LoaderArgs) {
  await requireMasterDataWrite(context, APPLICATIONS_PATH);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { shell, companyId } = await requireMasterDataWrite(context, APPLICATIONS_PATH);
  // A duplicate name (409) comes back next to Name.
  const { value: created, reply } = await submitForm(request, formSchema, (value) => createApplication(shell, { companyId, ...value }));
  if (reply) return reply;
  return redirectWithFlash(companyHref(APPLICATIONS_PATH, companyId, { [CREATED_PARAM]: created.id }), `Application ${created.name} created.`);
}

export const handle = { breadcrumb: "Create application" };

export default function CreateApplication({ actionData }: Route.ComponentProps) {
  const href = useCompanyHref();
  const pending = useIsPending();
  const [form, fields] = useServerForm({ id: "create-application", lastResult: actionData?.result, required: ["name"] });
  return (
    <section aria-labelledby="page-title" className="flex flex-col gap-6">
      <h1 id="page-title" className="text-2xl font-semibold tracking-tight">
        Create application
      </h1>
      <Card className="max-w-2xl">
        <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
          <FormErrors form={form} />
          <TextField label="Name" field={fields.name!} />
          <TextareaField label="Description" field={fields.description!} />
          <div className="flex gap-2">
            <StatusButton type="submit" pending={pending}>
              Create application
            </StatusButton>{" "}
            <Link to={href(APPLICATIONS_PATH)} className={buttonVariants({ variant: "outline" })}>
              Cancel
            </Link>
          </div>
        </Form>
      </Card>
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
