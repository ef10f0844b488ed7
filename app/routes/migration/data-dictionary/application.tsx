import type { SubmissionResult } from "@conform-to/react";
import { Form, Link, redirect } from "react-router";
import { nameToEdit } from "../../../../contracts/common";
import { updateDictionarySchema } from "../../../../contracts/dictionary";
import { FormErrors, TextareaField, TextField } from "~/components/forms/fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { getFormProps, useServerForm } from "~/lib/forms";
import { invalid, parseForm, refusedByService } from "~/lib/forms.server";
import { updateDictionary } from "~/lib/api/dictionaries.server";
import { dictionaryOf, dictionaryPathsOfRequest, requireMasterDataWrite } from "./dictionary.server";
import { dictionaryModeOf, useDictionaryPaths } from "./paths";
import type { Route } from "./+types/application";

/**
 * The dictionary's application, name and description: step 1 of a draft (create/{id}/application),
 * the edit form (edit/{id}/application, based on the version it was read at) and the read-only view.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { id, name, description, applicationName, version } = await dictionaryOf(context);
  // The edit form's name: one stored with a tab or an invisible character (before names refused them) comes cleaned, with a note.
  return { dictionary: { id, name, description, applicationName, version }, name: nameToEdit(name), mode: dictionaryModeOf(new URL(request.url).pathname) };
}

// After a refusal (409: the dictionary changed meanwhile), the version the form sends is read again: the next try is applied.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export async function action({ request, context }: Route.ActionArgs) {
  const dictionary = await dictionaryOf(context);
  const mode = dictionaryModeOf(new URL(request.url).pathname);
  const paths = dictionaryPathsOfRequest(request);
  const { shell, companyId } = await requireMasterDataWrite(context, paths.application("view", dictionary.id));
  if (mode === "view") throw redirect(companyHref(paths.application("edit", dictionary.id), companyId));
  const { submission } = await parseForm(request, updateDictionarySchema);
  if (submission.status !== "success") return invalid(submission);
  try {
    await updateDictionary(shell, dictionary.id, submission.value);
  } catch (err) {
    // A stale version (409) shows at the top and nothing changed; a duplicate name next to Name.
    return refusedByService(submission, err);
  }
  const next = mode === "create" ? paths.upload("create", dictionary.id) : paths.application("view", dictionary.id);
  return redirectWithFlash(companyHref(next, companyId), `Data dictionary ${submission.value.name} saved.`);
}

export const handle = { breadcrumb: "Application" };

export default function DictionaryApplication({ loaderData, actionData }: Route.ComponentProps) {
  const { dictionary, name, mode } = loaderData;
  if (mode === "view") {
    return (
      <Card className="max-w-2xl">
        <h2 className="sr-only">Application</h2>
        <dl className="grid grid-cols-[10rem_1fr] gap-y-3 text-sm">
          <dt className="text-muted-foreground">Application</dt>
          <dd>{dictionary.applicationName}</dd>
          <dt className="text-muted-foreground">Name</dt>
          <dd>{dictionary.name}</dd>
          <dt className="text-muted-foreground">Description</dt>
          <dd className="whitespace-pre-line">{dictionary.description ?? "—"}</dd>
        </dl>
      </Card>
    );
  }
  return <ApplicationForm dictionary={dictionary} name={name} mode={mode} lastResult={actionData?.result} />;
}

function ApplicationForm({
  dictionary,
  name,
  mode,
  lastResult,
}: {
  dictionary: { id: string; name: string; description: string | null; applicationName: string; version: number };
  name: { name: string; note: string | null };
  mode: "create" | "edit";
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const href = useCompanyHref();
  const paths = useDictionaryPaths();
  const pending = useIsPending();
  const [form, fields] = useServerForm({
    id: `dictionary-application-${dictionary.id}`,
    lastResult,
    defaultValue: { name: name.name, description: dictionary.description ?? "" },
    required: ["name"],
  });
  return (
    <Card className="max-w-2xl">
      <h2 className="mb-4 text-base font-semibold">Application</h2>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <FormErrors form={form} />
        {/* The version this page showed (read again after a 409), never the one a refused save sent (it is already stale). */}
        <input type="hidden" name="version" value={dictionary.version} />
        <div className="text-sm">
          <div className="mb-1 font-medium">Application</div>{" "}
          <div>{dictionary.applicationName}</div>
        </div>
        <TextField label="Name" field={fields.name!} description={name.note} />
        <TextareaField label="Description" field={fields.description!} />
        <div className="flex gap-2">
          <StatusButton type="submit" pending={pending}>
            {mode === "create" ? "Save and continue" : "Save"}
          </StatusButton>{" "}
          <Link
            to={href(mode === "create" ? paths.upload("create", dictionary.id) : paths.application("view", dictionary.id))}
            className={buttonVariants({ variant: "outline" })}
          >
            Cancel
          </Link>
        </div>
      </Form>
    </Card>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
