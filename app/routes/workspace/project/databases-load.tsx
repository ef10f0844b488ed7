import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "react-router";
import { FindTableForm, tableOptionsOf } from "~/components/databases/find-table-form";
import { ADD_COLUMNS_INTENT } from "~/components/loads/load-intents";
import { FlatFileParametersForm, SAVE_PARAMETERS } from "~/components/projects/flat-file-parameters-form";
import { WIDTHS_PAGING_KEYS } from "~/components/projects/flat-file-parameter-fields";
import { flatFileParameterRows } from "~/components/projects/flat-file-parameter-rows";
import { DEFAULT_FLAT_FILE_PARAMETERS } from "../../../../contracts/values/flat-files";
import { FileField, FormErrors, SelectField } from "~/components/forms/fields";
import { RadioGroupField } from "~/components/forms/choice-fields";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { Card } from "~/components/ui/card";
import { useCompanyHref } from "~/lib/company-href";
import { lazyWidget } from "~/lib/lazy-widget";
import { getFormProps, useServerForm } from "~/lib/forms";
import { serviceFailure, unknownIntent } from "~/lib/forms.server";
import { afterGuard } from "~/lib/guards.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { checkWorkspace, projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/databases-load";
import { LOAD_CHOICES, loadPageAction } from "./databases-load.server";
import { databaseTableChoices } from "./table-choices.server";
import { columnWidthsPage } from "../flat-file-parameters.server";

/** Loading changes the source database: write access, and the workspace not locked (spec §5). */
async function guard(context: Route.LoaderArgs["context"]) {
  const scope = await projectScope(context);
  return checkWorkspace(scope, { write: scope.paths.databases.current(scope.project.id), unlocked: true });
}

/** databases/flat-file/update-source: upload a file into one table of the source database, as a job. */
export async function loader({ request, context }: Route.LoaderArgs) {
  // The tables a file can go into are the source database's (the first that match `?name=`), their
  // fixed-length widths (a page of the same search, once Fixed Length is saved), and a preview the
  // upload's (`?upload=`): asked beside the workspace's own load.
  const params = new URL(request.url).searchParams;
  const uploadId = params.get("upload");
  const calls = projectCalls(context);
  const [{ project }, [tables, widths, preview]] = await afterGuard(
    guard(context),
    Promise.all([
      databaseTableChoices(calls, params),
      projectScope(context).then(({ project }) => (project.flatFileParameters?.delimiter === "FixedLength" ? columnWidthsPage(calls, params) : null)),
      uploadId ? calls.loads.staged(uploadId).catch(goneUpload) : null,
    ]),
  );
  const { created, ...choices } = tables;
  return {
    projectId: project.id,
    created,
    tables: choices,
    // The table chosen in a link (`?table=`), kept when a search no longer lists it.
    chosenTable: params.get("table")?.trim() || null,
    parameters: project.flatFileParameters,
    parameterRows: flatFileParameterRows(project.flatFileParameters ?? DEFAULT_FLAT_FILE_PARAMETERS),
    // The parameters form's save is based on it (a stale tab's is refused with 409).
    version: project.version,
    uploadType: project.uploadType ?? "SingleFile",
    preview: preview && "gone" in preview ? null : preview,
    previewGone: Boolean(preview && "gone" in preview),
    widths,
    // Paging or sizing the widths keeps their form open.
    widthsPaged: params.has(WIDTHS_PAGING_KEYS.page) || params.has(WIDTHS_PAGING_KEYS.pageSize),
    choices: LOAD_CHOICES,
  };
}

/** A preview loaded or expired meanwhile: the page says so and offers the upload again, rather than an error page. */
function goneUpload(err: unknown): { gone: true } {
  if (serviceFailure(err)?.status === 404) return { gone: true };
  throw err;
}

/**
 * The upload form's own action carries it, and the Load button's formaction leaves it out: the file is previewed, not
 * loaded (the body is streamed through unread), unless Load is pressed. Previewing is what a browser that ignores
 * formaction does: w3m and lynx (which also send the form as soon as a file is chosen, w3m reading `accept` as "submit
 * on Enter") loaded the file at once, with no preview, and never offered Preview at all.
 */
const PREVIEW_INTENT = "preview";

// Shown once a file is chosen and previewed (decision 029).
const FilePreview = lazyWidget(() => import("~/components/loads/file-preview").then((m) => m.FilePreview));

export async function action({ request, context }: Route.ActionArgs) {
  const scope = await guard(context);
  // The upload form previews (its action's intent) or loads (Load's formaction, none): any other is refused, never a load.
  const intent = new URL(request.url).searchParams.get("intent");
  if (intent !== null && intent !== PREVIEW_INTENT) unknownIntent(intent);
  return loadPageAction(request, scope, intent === PREVIEW_INTENT);
}

// After a refused parameters save (409: changed meanwhile, in another tab or by someone else), show them as they are now.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export const handle = { breadcrumb: "Load a flat file" };

export default function LoadFlatFile({ loaderData, actionData }: Route.ComponentProps) {
  const { projectId, created, tables, chosenTable, parameters, parameterRows, version, uploadType, preview, previewGone, widths, widthsPaged, choices: options } = loaderData;
  const result = (actionData as { result?: SubmissionResult<string[]> } | undefined)?.result;
  const parametersResult = result?.initialValue?.intent === SAVE_PARAMETERS ? result : undefined;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const pending = useIsPending();
  const [form, fields] = useServerForm({
    id: preview ? "flat-file-load-previewed" : "flat-file-load",
    lastResult: parametersResult ? undefined : result,
    // Under a preview, the choices sent with its files: a reload or a shared link shows them too.
    defaultValue: {
      mode: preview?.mode ?? "replace",
      onRejected: preview?.onRejected ?? "loadNothing",
      uploadType,
      table: preview?.files[0]?.table ?? chosenTable ?? undefined,
    },
    required: preview ? [] : ["file"],
  });
  const tableOptions = tableOptionsOf(tables, preview?.files[0]?.table ?? chosenTable);
  const findTable = <FindTableForm action={paths.databases.load(projectId)} choices={tables} keep={{ upload: preview?.uploadId, table: chosenTable }} />;
  const choices = (
    <>
      <RadioGroupField label="Mode" field={fields.mode!} options={options.mode} />
      <RadioGroupField label="When rows are rejected" field={fields.onRejected!} options={options.onRejected} />
    </>
  );
  const historyLink = (
    <Link to={href(paths.databases.history(projectId))} className="text-sm text-brand underline underline-offset-2">
      History
    </Link>
  );
  return (
    <Card aria-labelledby="load-title" className="max-w-5xl">
      <h2 id="load-title" className="text-lg font-semibold">
        Load a flat file
      </h2>
      {!created ? (
        <p className="mt-2 text-sm text-muted-foreground">The databases are not created yet: a file can be loaded once they are.</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-muted-foreground">
            Columns are matched to the table&apos;s by header name (any case), or by position without a header row. Nothing changes until the whole file has
            been checked. &ldquo;Preview&rdquo; shows the first rows as they will be read, before anything is loaded.
          </p>
          <FlatFileParametersForm rows={parameterRows} parameters={parameters} version={version} widths={widths} search={tables.search} open={widthsPaged} lastResult={parametersResult} />
          {previewGone ? (
            <p role="alert" className="mb-4 rounded-md border border-destructive/40 bg-destructive/5 px-4 py-3 text-sm text-destructive">
              That upload is no longer here (it was loaded, or a day has passed): choose the file again.
            </p>
          ) : null}
          {preview ? (
            <section aria-labelledby="preview-title" className="flex flex-col gap-5">
              <h3 id="preview-title" className="text-base font-semibold">
                Preview
              </h3>
              {preview.unmatchedTables.length ? (
                <p className="text-sm">
                  No file for {preview.unmatchedTables.length === 1 ? "the table" : "the tables"} {preview.unmatchedTables.join(", ")}: left as{" "}
                  {preview.unmatchedTables.length === 1 ? "it is" : "they are"}.
                </p>
              ) : null}
              {preview.files.map((file) => (
                <FilePreview key={file.name} file={file} />
              ))}
              {preview.files.length === 1 ? findTable : null}
              {preview.files.some((f) => f.table && f.extraColumns.length) ? (
                <Form method="post" className="flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm">
                  <input type="hidden" name="intent" value={ADD_COLUMNS_INTENT} />
                  <input type="hidden" name="uploadId" value={preview.uploadId} />
                  <p className="grow">
                    The file has columns its table lacks. Add them to the {paths.ws.noun}&apos;s dictionary (as text of up to 4,000 characters, which you can narrow
                    later), and the databases with it, before loading?
                  </p>
                  <StatusButton type="submit" variant="outline" pending={pending}>
                    Add these columns to the dictionary
                  </StatusButton>
                </Form>
              ) : null}
              <Form method="post" {...getFormProps(form)} className="flex flex-col gap-5">
                <FormErrors form={form} />
                <input type="hidden" name="uploadId" value={preview.uploadId} />
                {preview.files.length === 1 ? <SelectField label="Table" field={fields.table!} placeholder="Choose a table" options={tableOptions} /> : null}
                {choices}
                <div className="flex items-center gap-4">
                  <StatusButton type="submit" pending={pending}>
                    Load
                  </StatusButton>{" "}
                  <Link to={href(paths.databases.load(projectId))} className="text-sm text-brand underline underline-offset-2">
                    Choose another file
                  </Link>{" "}
                  {historyLink}
                </div>
              </Form>
            </section>
          ) : (
            <>
              {findTable}
              <Form
                method="post"
                encType="multipart/form-data"
                action={href(paths.databases.load(projectId), { intent: PREVIEW_INTENT })}
                {...getFormProps(form)}
                className="flex flex-col gap-5"
              >
                <FormErrors form={form} />
                <RadioGroupField label="Upload type" field={fields.uploadType!} options={options.uploadType} />
                <SelectField
                  label="Table"
                  field={fields.table!}
                  placeholder="Choose a table"
                  description="For a single file. Left empty, the table the file's name names. The search above narrows the list."
                  options={tableOptions}
                />
                {choices}
                {/* Last: a browser sends the fields in this order, and with every choice ahead of the file
                  the data API starts the load as the file arrives (decision 016). */}
                <FileField
                  label="File"
                  field={fields.file!}
                  accept={parameters?.extension === ".xlsx" ? ".xlsx,.zip" : ".csv,.txt,.dta,.zip"}
                  multiple
                  description={`${parameters?.extension === ".xlsx" ? "An .xlsx workbook" : "Delimited or fixed-length text (.csv, .txt, .dta)"}, at most 5 GB; for multiple files, several files or one .zip.`}
                />
                <div className="flex items-center gap-4">
                  <StatusButton type="submit" variant="outline" pending={pending}>
                    Preview
                  </StatusButton>{" "}
                  <StatusButton type="submit" pending={pending} formAction={href(paths.databases.load(projectId))}>
                    Load
                  </StatusButton>{" "}
                  {historyLink}
                </div>
              </Form>
            </>
          )}
        </>
      )}
    </Card>
  );
}
