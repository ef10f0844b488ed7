import { Form, Link } from "react-router";
import { createTemplateSchema } from "../../../contracts/templates";
import { FormErrors, SelectField, TextareaField, TextField } from "~/components/forms/fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { createMasterTemplate } from "~/lib/api/templates.server";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { getFormProps, useServerForm } from "~/lib/forms";
import { submitForm } from "~/lib/forms.server";
import { templateTypesOf, useTemplatePaths } from "./paths";
import { requireTemplateWrite, workspaceTemplates } from "./templates.server";
import type { Route } from "./+types/create";

/** The company and area come from the page, never from the form. */
const formSchema = createTemplateSchema.omit({ companyId: true, area: true });

export async function loader({ context }: Route.LoaderArgs) {
  await requireTemplateWrite(context, (paths) => paths.list);
  // The form's own id (madeIdSchema): sent twice, it makes one template and both sendings go on to its page.
  return { madeId: crypto.randomUUID() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { shell, paths, companyId } = await requireTemplateWrite(context, (p) => p.list);
  const { owner } = paths;
  const { value: created, reply } = await submitForm(request, formSchema, (value) =>
    owner.kind === "master"
      ? createMasterTemplate(shell, { companyId: companyId!, area: owner.area, ...value })
      : workspaceTemplates(context, owner).create(value),
  );
  if (reply) return reply;
  return redirectWithFlash(companyHref(paths.edit(created.id), companyId), `Template ${created.name} created. Add its levels and scripts.`);
}

export const handle = { breadcrumb: "Create template" };

export default function CreateTemplate({ loaderData, actionData }: Route.ComponentProps) {
  const href = useCompanyHref();
  const paths = useTemplatePaths();
  const pending = useIsPending();
  const types = templateTypesOf(paths.owner);
  // A workspace's page sits under the workspace's own h1 (its name, over its tabs), whose id is page-title.
  const Title = paths.owner.kind === "master" ? "h1" : "h2";
  const [form, fields] = useServerForm({ id: "create-template", lastResult: actionData?.result, required: ["name", "type"], defaultValue: { type: types[0] } });
  return (
    <section aria-labelledby="create-template-title" className="flex flex-col gap-6">
      <Title id="create-template-title" className="text-2xl font-semibold tracking-tight">
        Create template
      </Title>
      <Card className="max-w-2xl">
        <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
          <FormErrors form={form} />
          <input type="hidden" name="id" value={loaderData.madeId} />
          <TextField label="Name" field={fields.name!} />
          <TextareaField label="Description" field={fields.description!} />
          <SelectField
            label="Type"
            field={fields.type!}
            options={types.map((t) => ({ value: t, label: t }))}
            description="Core scripts move the data; Mapping scripts translate codes and values."
          />
          <div className="flex gap-2">
            <StatusButton type="submit" pending={pending}>
              Create template
            </StatusButton>{" "}
            <Link to={href(paths.list)} className={buttonVariants({ variant: "outline" })}>
              Cancel
            </Link>
          </div>
        </Form>
      </Card>
    </section>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
