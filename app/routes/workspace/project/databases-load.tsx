import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "react-router";
import { LOAD_MODE_LABELS, LOAD_MODES, MAX_UPLOAD_BYTES_DEFAULT, ON_REJECTED, ON_REJECTED_LABELS } from "../../../../contracts/values/loads";
import { FlatFileParametersForm, SAVE_PARAMETERS } from "~/components/projects/flat-file-parameters-form";
import { FileField, FormErrors, RadioGroupField, SelectField } from "~/components/forms/fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { Card } from "~/components/ui/card";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { getFormProps, useServerForm } from "~/lib/forms";
import { readFormData, submitUpload, unknownIntent } from "~/lib/forms.server";
import { afterGuard } from "~/lib/guards.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { checkWorkspace, projectCalls, projectScope } from "../workspace.server";
import { saveFlatFileParameters } from "../flat-file-parameters.server";
import type { Route } from "./+types/databases-load";

/** Loading changes the source database: write access, and the workspace not locked (spec §5). */
async function guard(context: Route.LoaderArgs["context"]) {
  const scope = await projectScope(context);
  return checkWorkspace(scope, { write: scope.paths.databases.current(scope.project.id), unlocked: true });
}

/** databases/flat-file/update-source: upload a file into one table of the source database, as a job. */
export async function loader({ context }: Route.LoaderArgs) {
  // The tables a file can go into are the source database's: asked beside the workspace's own load.
  const calls = projectCalls(context);
  const [{ project }, [databases, widths]] = await afterGuard(guard(context), Promise.all([calls.databases(), calls.columnWidths()]));
  const source = databases.databases.find((d) => d.kind === "source");
  return {
    projectId: project.id,
    created: Boolean(source?.exists),
    tables: source?.tables.map((t) => t.name) ?? [],
    parameters: project.flatFileParameters,
    widths: widths.tables,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { project, companyId, api, paths } = await guard(context);
  // The parameters form is a plain form post; the load form a multipart upload, streamed through unread.
  if (!/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
    const formData = await readFormData(request);
    if (formData.get("intent") !== SAVE_PARAMETERS) return unknownIntent(formData.get("intent"));
    return saveFlatFileParameters(formData, { project, api, companyId }, paths.databases.load(project.id));
  }
  const maxGb = MAX_UPLOAD_BYTES_DEFAULT / 1024 ** 3;
  const { value, reply } = await submitUpload(
    request,
    {
      maxBytes: MAX_UPLOAD_BYTES_DEFAULT + 1024 * 1024,
      tooLargeMessage: `The file is larger than ${maxGb} GB, the most a load takes`,
      noFileMessage: "Choose a file to load",
    },
    (body, contentType) => api.loads.start(body, contentType),
  );
  if (reply) return reply;
  const { load } = value;
  return redirectWithFlash(companyHref(paths.databases.entry(project.id, load.id), companyId), `Loading ${load.fileName} into ${load.tableName}.`);
}

export const handle = { breadcrumb: "Load a flat file" };

const MODE_OPTIONS = LOAD_MODES.map((value) => ({
  value,
  label: LOAD_MODE_LABELS[value],
  description: value === "replace" ? "The table's rows are deleted, then the file's are loaded." : "The file's rows are added to the table's.",
}));
const REJECTED_OPTIONS = ON_REJECTED.map((value) => ({
  value,
  label: ON_REJECTED_LABELS[value],
  description:
    value === "loadNothing" ? "If any row is rejected, the table stays exactly as it was." : "The rows that fit are loaded; the rejected ones are listed.",
}));

export default function LoadFlatFile({ loaderData, actionData }: Route.ComponentProps) {
  const { projectId, created, tables, parameters, widths } = loaderData;
  const result = (actionData as { result?: SubmissionResult<string[]> } | undefined)?.result;
  const parametersResult = result?.initialValue?.intent === SAVE_PARAMETERS ? result : undefined;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const pending = useIsPending();
  const [form, fields] = useServerForm({
    id: "flat-file-load",
    lastResult: parametersResult ? undefined : result,
    defaultValue: { mode: "replace", onRejected: "loadNothing" },
    required: ["file", "table"],
  });
  return (
    <Card aria-labelledby="load-title" className="max-w-3xl">
      <h2 id="load-title" className="text-lg font-semibold">
        Load a flat file
      </h2>
      {!created ? (
        <p className="mt-2 text-sm text-muted-foreground">The databases are not created yet: a file can be loaded once they are.</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-muted-foreground">
            Columns are matched to the table&apos;s by header name (any case), or by position without a header row. Nothing changes until the whole file has
            been checked.
          </p>
          <FlatFileParametersForm parameters={parameters} widths={widths} lastResult={parametersResult} />
          <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="flex flex-col gap-5">
            <FormErrors form={form} />
            <FileField
              label="File"
              field={fields.file!}
              accept={parameters?.extension === ".xlsx" ? ".xlsx" : ".csv,.txt,.dta"}
              description={
                parameters?.extension === ".xlsx" ? "An .xlsx workbook, at most 5 GB." : "Delimited or fixed-length text (.csv, .txt, .dta), at most 5 GB."
              }
            />
            <SelectField label="Table" field={fields.table!} placeholder="Choose a table" options={tables.map((t) => ({ value: t, label: t }))} />
            <RadioGroupField label="Mode" field={fields.mode!} options={MODE_OPTIONS} />
            <RadioGroupField label="When rows are rejected" field={fields.onRejected!} options={REJECTED_OPTIONS} />
            <div className="flex items-center gap-4">
              <StatusButton type="submit" pending={pending}>
                Load
              </StatusButton>
              <Link to={href(paths.databases.history(projectId))} className="text-sm text-brand underline underline-offset-2">
                History of loads
              </Link>
            </div>
          </Form>
        </>
      )}
    </Card>
  );
}
