import { data, Form, Link, type UIMatch } from "react-router";
import { createScriptSchema } from "../../../contracts/templates";
import { FormErrors, TextField } from "~/components/forms/fields";
import { SqlField } from "~/components/forms/sql-field";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { getFormProps, useServerForm } from "~/lib/forms";
import { submitForm } from "~/lib/forms.server";
import { afterGuard } from "~/lib/guards.server";
import { useTemplatePaths } from "./paths";
import { requireTemplateWrite, templateOf } from "./templates.server";
import type { Route } from "./+types/script-create";

/** The version is the template's, as the page showed it. */
const formSchema = createScriptSchema;

/** The level of the URL in the page's template, else 404. */
async function levelOf(context: Route.LoaderArgs["context"], levelId: string | undefined) {
  const { template, api } = await templateOf(context);
  const level = template.levels.find((l) => l.id === levelId);
  if (!level) throw data({ errors: ["Level not found."] }, { status: 404 });
  return { template, level, api };
}

/**
 * The level of the URL, and the write check started beside it (one round trip): a level the template has not is a
 * 404 whoever asks, before any refusal of the write (a reader is sent to the list only from a level that exists),
 * not whichever of the two answered first.
 */
const levelToWrite = (context: Route.LoaderArgs["context"], levelId: string | undefined) =>
  afterGuard(
    levelOf(context, levelId),
    requireTemplateWrite(context, (p) => p.list),
  );

export async function loader({ params, context }: Route.LoaderArgs) {
  const [{ template, level }] = await levelToWrite(context, params.levelId);
  return { templateId: template.id, templateVersion: template.version, level: { id: level.id, name: level.name } };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const [{ template, level, api }, { paths, companyId }] = await levelToWrite(context, params.levelId);
  // A syntax error comes back next to the SQL with its line and column; a taken name next to Name.
  const { value: created, reply } = await submitForm(request, formSchema, (value) => api.createScript(level.id, value));
  if (reply) return reply;
  return redirectWithFlash(companyHref(paths.script(template.id, level.id, created.id), companyId), `Script ${created.name} added to ${level.name}.`);
}

export const handle = {
  breadcrumb: (match: UIMatch) => `Add script to ${(match.loaderData as { level?: { name: string } } | undefined)?.level?.name ?? "level"}`,
};

export default function CreateScript({ loaderData, actionData }: Route.ComponentProps) {
  const { templateId, templateVersion, level } = loaderData;
  const href = useCompanyHref();
  const paths = useTemplatePaths();
  const pending = useIsPending();
  const [form, fields] = useServerForm({ id: "create-script", lastResult: actionData?.result, required: ["name", "sql"] });
  return (
    <Card className="max-w-4xl">
      <h2 className="text-lg font-semibold">Add a script to {level.name}</h2>
      <Form method="post" {...getFormProps(form)} className="mt-4 flex flex-col gap-4">
        <input type="hidden" name="version" value={templateVersion} />
        <FormErrors form={form} />
        <TextField label="Name" field={fields.name!} />
        <SqlField
          label="SQL"
          field={fields.sql!}
          description="Checked with PostgreSQL's own parser when you save: a syntax error is shown with its line and column."
        />
        <TextField label="Comment" field={fields.comment!} description="Why this version: shown in the script's history." />
        <div className="flex gap-2">
          <StatusButton type="submit" pending={pending}>
            Add script
          </StatusButton>{" "}
          <Link to={href(paths.edit(templateId))} className={buttonVariants({ variant: "outline" })}>
            Cancel
          </Link>
        </div>
      </Form>
    </Card>
  );
}

// After a 409 (the template changed meanwhile) the page is read again: its forms then send the version it shows, so the next try is applied.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
