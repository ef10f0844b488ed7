import { data, Form, Link, type UIMatch } from "react-router";
import { z } from "zod";
import { versionSchema } from "../../../../contracts/common";
import { UNMAPPED_RULE_LABELS, UNMAPPED_RULES } from "../../../../contracts/values/mappings";
import type { MappingColumn, SampleResult } from "../../../../contracts/mappings";
import { formatColumnType } from "~/components/dictionary/column-format";
import { formatCount } from "~/components/projects/format";
import { FileField, FormErrors } from "~/components/forms/fields";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { Card } from "~/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { getFormProps, useServerForm } from "~/lib/forms";
import { INCOMPLETE_REQUEST, parseFormData, readFormData, serviceFailure, submitUpload, unknownIntent } from "~/lib/forms.server";
import { afterGuard } from "~/lib/guards.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { checkWorkspace, projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/mapping-table";

/**
 * A table of a mapping project's file data structure (spec §2 file-data-structure/mappingTable/{id}):
 * its columns, each marked "Translate" or not with the rule for a value its map lacks, how far each
 * map is, and a sample file's upload, whose values join the translated columns' maps.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const [{ project, access }, table] = await afterGuard(projectScope(context), projectCalls(context).valueMaps.table(params.mappingSourceTableId));
  return { projectId: project.id, table, canWrite: access.canWrite };
}

/** A sample file is at most this large: it shows the codes a file holds, not the whole delivery (that is "Translate a file"). */
const SAMPLE_MAX_BYTES = 200 * 1024 * 1024;

/** A row's Save is based on the column's version its page showed (a hidden field). */
const settingsVersionSchema = z.object({ version: versionSchema });

export async function action({ request, params, context }: Route.ActionArgs) {
  const scope = await projectScope(context);
  const { project, companyId, api, paths } = scope;
  const here = paths.valueMaps.table(project.id, params.mappingSourceTableId);
  await checkWorkspace(scope, { write: here });
  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
    const limit = {
      maxBytes: SAMPLE_MAX_BYTES,
      tooLargeMessage: "The sample is larger than 200 MB: a sample of the file is enough",
      noFileMessage: "Choose a sample file",
    };
    const { value, reply } = await submitUpload(request, limit, (upload) => api.valueMaps.addSample(params.mappingSourceTableId, upload));
    return reply ?? redirectWithFlash(companyHref(here, companyId), sampleSummary(value));
  }
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  if (intent !== "settings") return unknownIntent(intent);
  const columnId = String(formData.get("columnId") ?? "");
  const values = {
    translate: formData.get("translate") === "true",
    unmappedRule: String(formData.get("unmappedRule") ?? "Keep") as MappingColumn["unmappedRule"],
    defaultValue: String(formData.get("defaultValue") ?? ""),
  };
  // A post without the version (forged or cut short) is refused at the top in words, never read as version 0,
  // which the data API would refuse as a change made in another tab.
  const submission = parseFormData(formData, settingsVersionSchema);
  if (submission.status !== "success") return data({ errors: [INCOMPLETE_REQUEST] }, { status: 400 });
  let table;
  try {
    // Named with the URL's table: a column of another table (of this project) is not this page's, and the data API
    // refuses it as one removed meanwhile (404 "Column not found."), saving nothing.
    table = await api.valueMaps.saveSettings(params.mappingSourceTableId, columnId, { version: submission.value.version, ...values });
  } catch (err) {
    const failure = serviceFailure(err);
    if (!failure || failure.status >= 500) throw err;
    const fieldErrors = (failure.body as { fieldErrors?: Record<string, string[]> }).fieldErrors ?? {};
    // The row shows again what was sent (without JavaScript the page is new HTML), with the refusal beside it.
    return data({ settings: { columnId, errors: fieldErrors.defaultValue ?? failure.body.errors, values } }, { status: failure.status });
  }
  // The column as saved, not a name the form could carry: the data API answers the table after.
  const saved = table.columns.find((c) => c.id === columnId)!;
  return redirectWithFlash(companyHref(here, companyId), saved.translate ? `${saved.name} is translated.` : `${saved.name} is not translated.`);
}

// After a refused save (409: the column's map changed meanwhile, in another tab or by someone else), the
// versions the rows send are read again with JavaScript too, so saving the row again, on purpose, is
// applied; the refused row keeps what was sent either way.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

function sampleSummary(result: SampleResult): string {
  const columns = result.columns.map((c) => `${c.name}: ${c.distinct} ${c.distinct === 1 ? "value" : "values"}, ${c.added} new`).join("; ");
  return `Sample ${result.fileName} read: ${result.rows} ${result.rows === 1 ? "row" : "rows"}. ${columns}.`;
}

export const handle = {
  breadcrumb: (match: UIMatch<unknown, unknown>) => (match.loaderData as Route.ComponentProps["loaderData"] | undefined)?.table.name,
};

type SentSettings = Pick<MappingColumn, "translate" | "unmappedRule"> & { defaultValue: string };
type ActionData = { settings?: { columnId: string; errors: string[]; values: SentSettings }; errors?: string[]; result?: unknown } | undefined;

export default function MappingTablePage({ loaderData, actionData }: Route.ComponentProps) {
  const { projectId, table, canWrite } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const refused = (actionData as ActionData)?.settings;
  // A column removed meanwhile (another tab) has no row left to show its refusal beside; an incomplete post names none.
  const rowless = refused && !table.columns.some((c) => c.id === refused.columnId) ? refused.errors : ((actionData as ActionData)?.errors ?? []);
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="columns-title">
        <h2 id="columns-title" className="text-lg font-semibold">
          Value maps of {table.name}
        </h2>
        <p className="mt-1 max-w-3xl text-sm text-muted-foreground">
          Mark the columns whose codes are translated, and say what happens to a value the map does not know. Each translated column's map lists the values
          found in the samples.
        </p>
        {rowless.length ? (
          <RefusalAlert refusal={rowless} className="mt-4">
            {rowless.join(" ")}
          </RefusalAlert>
        ) : null}
        <Table aria-label={`Columns of ${table.name}`} className="mt-4">
          <TableHeader>
            <TableRow>
              <TableHead>Column</TableHead>
              <TableHead>Type</TableHead>
              <TableHead>Translate</TableHead>
              <TableHead>Unmapped values</TableHead>
              <TableHead>Default value</TableHead>
              <TableHead>Map</TableHead>
              {canWrite ? (
                <TableHead>
                  <span className="sr-only">Save</span>
                </TableHead>
              ) : null}
            </TableRow>
          </TableHeader>
          <TableBody>
            {table.columns.map((c) => (
              <ColumnRow
                key={c.id}
                column={c}
                canWrite={canWrite}
                errors={refused?.columnId === c.id ? refused.errors : []}
                sent={refused?.columnId === c.id ? refused.values : undefined}
                mapHref={href(paths.valueMaps.column(projectId, table.id, c.id))}
              />
            ))}
          </TableBody>
        </Table>
        {table.columns.length === 0 ? <p className="mt-3 text-sm">This table has no columns yet.</p> : null}
      </section>
      {canWrite ? <SampleForm tableName={table.name} lastResult={(actionData as ActionData)?.result} /> : null}
      <p className="text-sm">
        <Link to={href(paths.dictionary.tables(projectId))} className="font-medium text-brand underline underline-offset-2">
          All tables of the file data structure
        </Link>
      </p>
    </div>
  );
}

function ColumnRow({
  column: c,
  canWrite,
  errors,
  sent,
  mapHref,
}: {
  column: MappingColumn;
  canWrite: boolean;
  errors: string[];
  sent: SentSettings | undefined;
  mapHref: string;
}) {
  const shown = sent ?? { translate: c.translate, unmappedRule: c.unmappedRule, defaultValue: c.defaultValue ?? "" };
  const formId = `column-${c.id}`;
  const pending = useIntentPending("settings", { columnId: c.id });
  const ids = { translate: `${formId}-translate`, rule: `${formId}-rule`, value: `${formId}-default`, error: `${formId}-error` };
  return (
    <TableRow>
      <TableCell className="font-medium">{c.name}</TableCell>
      <TableCell className="text-muted-foreground">{formatColumnType(c)}</TableCell>
      {canWrite ? (
        <>
          <TableCell>
            <label htmlFor={ids.translate} className="sr-only">
              Translate {c.name}
            </label>
            <input id={ids.translate} type="checkbox" name="translate" value="true" form={formId} defaultChecked={shown.translate} className="size-4" />
          </TableCell>
          <TableCell>
            <label htmlFor={ids.rule} className="sr-only">
              Unmapped values of {c.name}
            </label>
            <select
              id={ids.rule}
              name="unmappedRule"
              form={formId}
              defaultValue={shown.unmappedRule}
              className="rounded-md border border-input bg-white px-2 py-1 text-sm"
            >
              {UNMAPPED_RULES.map((r) => (
                <option key={r} value={r}>
                  {UNMAPPED_RULE_LABELS[r]}
                </option>
              ))}
            </select>
          </TableCell>
          <TableCell>
            <label htmlFor={ids.value} className="sr-only">
              Default value of {c.name}
            </label>
            <input
              id={ids.value}
              name="defaultValue"
              form={formId}
              defaultValue={shown.defaultValue}
              aria-invalid={errors.length ? true : undefined}
              aria-describedby={errors.length ? ids.error : undefined}
              className="w-36 rounded-md border border-input px-2 py-1 text-sm"
            />
            {errors.length ? (
              <p id={ids.error} className="mt-1 text-xs text-destructive">
                {errors.join(" ")}
              </p>
            ) : null}
          </TableCell>
        </>
      ) : (
        <>
          <TableCell>{c.translate ? "Yes" : "No"}</TableCell>
          <TableCell>{UNMAPPED_RULE_LABELS[c.unmappedRule]}</TableCell>
          <TableCell>{c.defaultValue ?? "—"}</TableCell>
        </>
      )}
      <TableCell>
        {c.translate || c.distinctCount > 0 ? (
          <Link to={mapHref} className="text-brand hover:underline">
            {`${formatCount(c.mappedCount)} of ${formatCount(c.distinctCount)} mapped`}
            <span className="sr-only">{` (map of ${c.name})`}</span>
          </Link>
        ) : (
          <span className="text-muted-foreground">Not translated</span>
        )}
      </TableCell>
      {canWrite ? (
        <TableCell>
          <Form method="post" id={formId}>
            <input type="hidden" name="intent" value="settings" />
            <input type="hidden" name="columnId" value={c.id} />
            <input type="hidden" name="version" value={c.version} />
            <StatusButton type="submit" size="sm" variant="outline" pending={pending}>
              Save<span className="sr-only"> {c.name}</span>
            </StatusButton>
          </Form>
        </TableCell>
      ) : null}
    </TableRow>
  );
}

function SampleForm({ tableName, lastResult }: { tableName: string; lastResult: unknown }) {
  const pending = useIsPending();
  const [form, fields] = useServerForm({ id: "sample", lastResult: lastResult as never });
  return (
    <Card className="max-w-3xl" aria-labelledby="sample-title">
      <h2 id="sample-title" className="text-lg font-semibold">
        Read a sample file
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        A file of {tableName} as the client sends it (.csv, .txt, .dta or .xlsx; the delimiter and encoding are detected). The values of the translated columns
        join their maps, unmapped; pairs already mapped stay as they are.
      </p>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="mt-4 flex flex-col gap-4">
        <FormErrors form={form} />
        <FileField label="Sample file" field={fields.file!} accept=".csv,.txt,.dta,.xlsx" />
        <div className="flex items-center gap-2 text-sm">
          <input id="sample-no-header" type="checkbox" name="hasHeaderRow" value="false" className="size-4" />
          <label htmlFor="sample-no-header">The file has no header row: read its columns by position</label>
        </div>
        <div>
          <StatusButton type="submit" pending={pending}>
            Read the sample
          </StatusButton>
        </div>
      </Form>
    </Card>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
