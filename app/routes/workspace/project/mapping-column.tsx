import { data, Form, Link, redirect, type UIMatch } from "react-router";
import { z } from "zod";
import { versionSchema } from "../../../../contracts/common";
import { PAGE_SIZES } from "../../../../contracts/values/common";
import { UNMAPPED_RULE_LABELS, VALUE_SEARCH_MAX_LENGTH } from "../../../../contracts/values/mappings";
import { addValueSchema, type ValueMapImport, type ValueMapPage } from "../../../../contracts/mappings";
import { FileField, FormErrors, TextField } from "~/components/forms/fields";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { StatusButton, useIsPending } from "~/components/forms/status-button";
import { formatCount } from "~/components/projects/format";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { Button, buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Pagination } from "~/components/ui/pagination";
import { DownloadLink } from "~/components/ui/download-link";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { PAGING_KEYS, pagingParams } from "~/lib/list-search";
import { readPage } from "~/lib/list-search.server";
import { exactValue, getFormProps, useServerForm, type FormResult } from "~/lib/forms";
import { INCOMPLETE_REQUEST, invalid, parseFormData, readExactValues, readFormData, refusedByService, serviceFailure, submitUpload, unknownIntent } from "~/lib/forms.server";
import { afterGuard } from "~/lib/guards.server";
import { cn } from "~/lib/utils";
import { useWorkspacePaths, workspacePathsOf } from "~/lib/workspace-paths";
import { checkWorkspace, projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/mapping-column";
import { KeptFields, PageSizeSelect } from "~/components/ui/list-search-form";

/**
 * One column's value map (spec §2 …/mappingTable/{id}/column/{columnId}): every distinct source value
 * with its count and target, unmapped first and marked, searched and paged in SQL through the URL;
 * one form saves the page's targets; "Add value"; "Export" and "Import" of the map as CSV, an import
 * shown as what it adds, changes and leaves before "Apply this import".
 */
const IMPORT_PARAM = "import";

/**
 * Values to a page when the URL does not say: a map is filled in, a page of targets typed and saved at a
 * time, so a page holds more of them than a list to read does (the other sizes are offered too).
 */
const VALUE_MAP_PAGE_SIZE = 50;

function readQuery(url: URL) {
  const sp = url.searchParams;
  // At most what the data API searches for, as the lists' searches are (readContains): a longer one (a pasted value) was its 400, an error page.
  const search = sp.get("search")?.trim().slice(0, VALUE_SEARCH_MAX_LENGTH) || undefined;
  return { ...readPage(sp, PAGING_KEYS, VALUE_MAP_PAGE_SIZE), search, unmapped: sp.get("unmapped") === "true" };
}

/** The URL parameters of the map's search and page (defaults left out): links keep them, and a save goes back to them. */
function queryParams(q: ReturnType<typeof readQuery>) {
  return { search: q.search, unmapped: q.unmapped ? "true" : undefined, ...pagingParams(PAGING_KEYS, q, VALUE_MAP_PAGE_SIZE) };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = readQuery(url);
  const importId = url.searchParams.get(IMPORT_PARAM);
  const maps = projectCalls(context).valueMaps;
  const [{ project, access, companyId }, [page, preview]] = await afterGuard(
    projectScope(context),
    Promise.all([columnValues(maps, params, query), importId ? maps.getImport(params.columnId, importId).catch(goneImport) : null]),
  );
  return { projectId: project.id, companyId, tableId: params.mappingSourceTableId, page, query, preview, canWrite: access.canWrite };
}

type ValueMaps = ReturnType<typeof projectCalls>["valueMaps"];

/**
 * A page of the URL's column's values: 404 for a column of another project or company (the data API's)
 * and for one of another table than the URL's, which is not this page's either.
 */
async function columnValues(maps: ValueMaps, params: Route.LoaderArgs["params"], query: Parameters<ValueMaps["values"]>[1]) {
  const page = await maps.values(params.columnId, query);
  if (page.tableId !== params.mappingSourceTableId) throw data({ errors: ["Column not found."] }, { status: 404 });
  return page;
}

/** An import applied or discarded meanwhile (another tab): the page shows the map without it. */
function goneImport(err: unknown): null {
  if (serviceFailure(err)?.status === 404) return null;
  throw err;
}

// After a refused save (409: the map changed meanwhile, in another tab or by someone else), the table
// shows the targets saved now, and the version the form sends is read again: a deliberate second save
// is applied. What the user typed stays in the table (the refusal brings it back: see ValuesForm).
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

/** A map CSV holds at most 100,000 short lines: 20 MB is far beyond any. */
const IMPORT_MAX_BYTES = 20 * 1024 * 1024;

/** A save of the targets and an import's Apply are based on the map's version their page showed (a hidden field). */
const mapVersionSchema = z.object({ version: versionSchema });

export async function action({ request, params, context }: Route.ActionArgs) {
  const scope = await projectScope(context);
  const { project, companyId, api, paths } = scope;
  const here = paths.valueMaps.column(project.id, params.mappingSourceTableId, params.columnId);
  await checkWorkspace(scope, { write: here });
  const maps = api.valueMaps;
  // Every write names the URL's table and column to the data API, which refuses (404) a column of another table, project
  // or company before anything is written or streamed: the write is the action's one call.
  const { mappingSourceTableId: tableId, columnId } = params;
  // A write goes back to the page, search and page size the user was on (the form posts to this page's URL).
  const back = companyHref(here, companyId, queryParams(readQuery(new URL(request.url))));
  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
    const limit = { maxBytes: IMPORT_MAX_BYTES, tooLargeMessage: "The file is larger than 20 MB: import the map in parts", noFileMessage: "Choose a CSV file" };
    const { value, reply } = await submitUpload(request, limit, (upload) => maps.startImport(tableId, columnId, upload));
    return reply ?? redirect(companyHref(here, companyId, { [IMPORT_PARAM]: value.id }));
  }
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  /** `typed`: the targets a refused save changed, back into the table (see ValuesForm). */
  const refused = (err: unknown, form: string, typed?: TypedTarget[]) => {
    const failure = serviceFailure(err);
    if (!failure || failure.status >= 500) throw err;
    // The messages of the fields it names (values, values.3.sourceValue…), each naming its value: its
    // `errors` lines lead with those paths, which mean nothing to a user.
    const fieldMessages = [...new Set(Object.values(failure.body.fieldErrors ?? {}).flat())];
    const errors = fieldMessages.length ? fieldMessages : failure.body.errors;
    return data({ form, errors, ...(typed ? { typed, stale: failure.status === 409 } : {}) }, { status: failure.status });
  };
  // The map's version the page showed: a post without it (forged or cut short) is refused in words where the
  // form's refusals are said, never read as version 0, which the data API would refuse as a change made in another tab.
  const versioned = () => parseFormData(formData, mapVersionSchema);
  const incomplete = (form: string, typed?: TypedTarget[]) => data({ form, errors: [INCOMPLETE_REQUEST], ...(typed ? { typed } : {}) }, { status: 400 });

  if (intent === "save") {
    const sources = readExactValues(formData, "source");
    const targets = formData.getAll("targetValue").map(String);
    const before = formData.getAll("was").map(String);
    // Only what the user changed: a page's untouched rows are not written again. A text box shows its
    // target without line breaks (and a form post turns those of `was` into CRLF), so both are compared
    // without them, and before trimming: an untouched target with spaces around it is not rewritten.
    const typed: TypedTarget[] = sources
      .map((sourceValue, i) => ({ sourceValue, typed: targets[i] ?? "", was: before[i] ?? "" }))
      .filter((v) => v.typed !== withoutLineBreaks(v.was));
    const values = typed.map(({ sourceValue, typed }) => ({ sourceValue, targetValue: typed.trim() || null }));
    // Nothing to write: the column is read instead, as the loader reads it (a 404 for another table's, project's or company's).
    if (values.length === 0) {
      await columnValues(maps, params, { page: 1, pageSize: PAGE_SIZES[0], unmapped: false });
      return redirectWithFlash(back, "No value was changed.");
    }
    const submission = versioned();
    if (submission.status !== "success") return incomplete("save", typed);
    try {
      await maps.saveValues(tableId, columnId, { version: submission.value.version, values });
    } catch (err) {
      return refused(err, "save", typed);
    }
    return redirectWithFlash(back, `${values.length} ${values.length === 1 ? "value" : "values"} saved.`);
  }
  if (intent === "add") {
    const submission = parseFormData(formData, addValueSchema);
    if (submission.status !== "success") return invalid(submission);
    // The source value as typed, spaces and all (a sample's " Alice " is not "Alice"); the target trimmed, as the list's are.
    const { sourceValue, targetValue } = submission.value;
    try {
      await maps.addValue(tableId, columnId, { version: submission.value.version, sourceValue, targetValue: targetValue?.trim() || null });
    } catch (err) {
      // One the map holds already is refused at its field, with what it is mapped to.
      return refusedByService(submission, err);
    }
    return redirectWithFlash(back, `Value "${sourceValue}" added.`);
  }
  const importId = String(formData.get("importId") ?? "");
  if (intent === "apply") {
    const submission = versioned();
    if (submission.status !== "success") return incomplete("import");
    try {
      await maps.applyImport(tableId, columnId, importId, submission.value.version);
    } catch (err) {
      return refused(err, "import");
    }
    return redirectWithFlash(back, "Import applied.");
  }
  if (intent === "discard") {
    try {
      await maps.discardImport(tableId, columnId, importId);
    } catch (err) {
      return refused(err, "import");
    }
    return redirectWithFlash(back, "Import discarded: the map is as it was.");
  }
  return unknownIntent(intent);
}

type LoaderData = Route.ComponentProps["loaderData"] | undefined;

export const handle = {
  breadcrumb: (match: UIMatch<unknown, unknown>) => (match.loaderData as LoaderData)?.page.column.name,
  // Registered beside its table's page (not below it): the table's crumb, between the file data structure and the column.
  parentCrumb: (match: UIMatch<unknown, unknown>) => {
    const loaderData = match.loaderData as LoaderData;
    if (!loaderData) return null;
    return { label: loaderData.page.tableName, to: workspacePathsOf(match.pathname).valueMaps.table(loaderData.projectId, loaderData.tableId) };
  },
};

/** A target the user changed in the table (`was`: the target their page showed), sent back with a refused save. */
type TypedTarget = { sourceValue: string; typed: string; was: string };

/** A text box shows a target without its line breaks (and a form post turns those of `was` into CRLF). */
const withoutLineBreaks = (text: string) => text.replace(/[\r\n]/g, "");

type ActionData = { form?: string; errors?: string[]; result?: FormResult; typed?: TypedTarget[]; stale?: boolean } | undefined;

export default function MappingColumnPage({ loaderData, actionData }: Route.ComponentProps) {
  const { projectId, tableId, page, query, preview, canWrite } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const here = paths.valueMaps.column(projectId, tableId, page.column.id);
  const refused = actionData as ActionData;
  const errorsOf = (form: string) => (refused?.form === form ? (refused.errors ?? []) : []);
  // Two forms answer with a form result: "Add a value" says it is its own (formKey), the import's upload does not.
  const added = refused?.result?.initialValue?.formKey === "add";
  const { column } = page;
  const withQuery = (changes: Partial<typeof query>) => {
    const q = { ...query, ...changes };
    return href(here, queryParams(q));
  };
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="map-title">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h2 id="map-title" className="text-lg font-semibold">
              Map of {page.tableName}.{column.name}
            </h2>
            <p className="mt-1 text-sm text-muted-foreground">
              {formatCount(column.mappedCount)} of {formatCount(column.distinctCount)} values mapped. {column.translate ? "Translated" : "Not translated yet"};
              an unmapped value: {UNMAPPED_RULE_LABELS[column.unmappedRule].toLowerCase()}
              {column.unmappedRule === "Default" && column.defaultValue ? ` (${column.defaultValue})` : ""}.
            </p>
          </div>
          <div className="flex flex-wrap gap-2">
            <DownloadLink to={href(paths.valueMaps.csv(projectId, tableId, column.id))} className={buttonVariants({ variant: "outline" })}>
              Export CSV
            </DownloadLink>
            <Link to={href(paths.valueMaps.table(projectId, tableId))} className={buttonVariants({ variant: "outline" })}>
              Columns of {page.tableName}
            </Link>
          </div>
        </div>

        {preview ? (
          <ImportPreview preview={preview} errors={errorsOf("import")} canWrite={canWrite} />
        ) : errorsOf("import").length ? (
          // Applied or discarded meanwhile (another tab): the preview is gone, the refusal says why.
          <RefusalAlert refusal={errorsOf("import")} className="mt-4">
            {errorsOf("import").join(" ")}
          </RefusalAlert>
        ) : null}

        <Form method="get" className="mt-4 flex flex-wrap items-end gap-3" aria-label="Find values">
          <KeptFields keep={{}} />
          <div>
            <label htmlFor="value-search" className="mb-1 block text-sm font-medium">
              Search values
            </label>
            <input
              id="value-search"
              name="search"
              defaultValue={query.search ?? ""}
              maxLength={VALUE_SEARCH_MAX_LENGTH}
              className="rounded-md border border-input px-3 py-1.5 text-sm"
            />
          </div>
          <div className="flex items-center gap-2 pb-2 text-sm">
            <input id="value-unmapped" type="checkbox" name="unmapped" value="true" defaultChecked={query.unmapped} className="size-4" />
            <label htmlFor="value-unmapped">Only unmapped values</label>
          </div>
          <PageSizeSelect id="value-page-size" value={query.pageSize} />
          <Button type="submit" variant="outline">
            Search
          </Button>
        </Form>

        <ValuesForm page={page} canWrite={canWrite} errors={errorsOf("save")} refusal={refused?.form === "save" ? refused : undefined} />
        <Pagination page={page.page} pageSize={page.pageSize} total={page.total} noun={["value", "values"]} href={(p) => withQuery({ page: p })} />
      </section>

      {canWrite ? (
        <div className="grid gap-6 lg:grid-cols-2">
          {/* A blank form after each value added (the map's version moves on with every write), as without JavaScript. */}
          <AddValueForm key={column.version} version={column.version} lastResult={added ? refused?.result : undefined} />
          <ImportForm lastResult={added ? undefined : refused?.result} />
        </div>
      ) : null}
    </div>
  );
}

function ValuesForm({ page, canWrite, errors, refusal }: { page: ValueMapPage; canWrite: boolean; errors: string[]; refusal: ActionData }) {
  const pending = useIntentPending("save");
  const typed = new Map((refusal?.typed ?? []).map((t) => [t.sourceValue, t]));
  const elsewhere = [...typed.keys()].filter((source) => !page.items.some((v) => v.sourceValue === source));
  if (page.items.length === 0) {
    return (
      <p className="mt-4 text-sm">
        {page.total === 0 ? "No values yet: read a sample file of the table, import a map, or add a value." : "No value on this page."}
      </p>
    );
  }
  return (
    <Form method="post" className="mt-4 flex flex-col gap-3">
      {errors.length ? (
        <RefusalAlert refusal={errors}>{[...errors, ...typingKept(Boolean(refusal?.stale && typed.size), elsewhere)].join(" ")}</RefusalAlert>
      ) : null}
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="version" value={page.column.version} />
      <Table aria-label={`Values of ${page.column.name}`}>
        <TableHeader>
          <TableRow>
            <TableHead>Source value</TableHead>
            <TableHead className="text-right">Seen in samples</TableHead>
            <TableHead>Target value</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {page.items.map((v, i) => (
            <TableRow key={v.sourceValue} className={cn(v.targetValue === null && "bg-amber-50")}>
              {/* Spaces and line breaks as they are: " Alice " and "Bob⏎Junior" are values of their own. */}
              <TableCell className="font-mono text-[13px] whitespace-pre-wrap">
                {v.sourceValue}
                {v.targetValue === null ? <span className="ml-2 rounded bg-amber-200 px-1.5 py-0.5 font-sans text-xs text-amber-900">Unmapped</span> : null}
              </TableCell>
              <TableCell className="text-right tabular-nums">{formatCount(v.count)}</TableCell>
              <TableCell>
                {canWrite ? (
                  <TargetInput value={v} id={`target-${i}`} typed={typed.get(v.sourceValue)} stale={Boolean(refusal?.stale)} />
                ) : (
                  (v.targetValue ?? <span className="text-muted-foreground">Unmapped</span>)
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {canWrite ? (
        <div>
          <StatusButton type="submit" pending={pending}>
            Save values
          </StatusButton>
        </div>
      ) : null}
    </Form>
  );
}

/** What the refusal of a save adds to its message: the user's typing is kept, here or (moved to another page meanwhile) not. */
function typingKept(stale: boolean, elsewhere: string[]): string[] {
  const kept = stale
    ? [
        "The table shows the targets saved now and keeps the ones you typed; where a target was changed meanwhile, it is shown under yours. Check them and save again to keep yours.",
      ]
    : [];
  if (elsewhere.length === 0) return kept;
  const them = elsewhere.length === 1 ? "it" : "them";
  return [...kept, `Not on this page any more: what you typed for ${elsewhere.map((s) => `"${s}"`).join(", ")}; search for ${them} to type ${them} again.`];
}

/**
 * One value's target box. After a refused save it starts with what the user typed (`typed`), and its `was`
 * is the target saved now, so saving again sends it; after a stale save (409), the target saved meanwhile
 * is said under it where it differs from what the user's page showed, to compare before saving again.
 */
function TargetInput({ value, id, typed, stale }: { value: ValueMapPage["items"][number]; id: string; typed: TypedTarget | undefined; stale: boolean }) {
  const saved = value.targetValue ?? "";
  const changedMeanwhile = stale && typed !== undefined && withoutLineBreaks(typed.was) !== withoutLineBreaks(saved);
  return (
    <>
      <input type="hidden" name="source" value={exactValue(value.sourceValue)} />
      <input type="hidden" name="was" value={saved} />
      <label htmlFor={id} className="sr-only">
        Target value of {value.sourceValue}
      </label>
      <input
        id={id}
        name="targetValue"
        defaultValue={typed ? typed.typed : saved}
        aria-describedby={changedMeanwhile ? `${id}-saved` : undefined}
        className="w-full max-w-xs rounded-md border border-input px-2 py-1 text-sm"
      />
      {changedMeanwhile ? (
        <p id={`${id}-saved`} className="mt-1 text-xs whitespace-pre-wrap text-amber-900">
          Saved meanwhile: {value.targetValue ?? "Unmapped"}
        </p>
      ) : null}
    </>
  );
}

function AddValueForm({ version, lastResult }: { version: number; lastResult: FormResult | undefined }) {
  const pending = useIntentPending("add");
  const [form, fields] = useServerForm({ id: "add-value", lastResult, required: ["sourceValue"] });
  return (
    <Card aria-labelledby="add-title">
      <h2 id="add-title" className="text-base font-semibold">
        Add a value
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">A value the map does not hold yet, as it is written in the files (spaces count).</p>
      <Form method="post" {...getFormProps(form)} className="mt-3 flex flex-col gap-3">
        <FormErrors form={form} />
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="formKey" value="add" />
        <input type="hidden" name="version" value={version} />
        <TextField label="Source value" field={fields.sourceValue!} />
        <TextField label="Target value" field={fields.targetValue!} />
        <div>
          <StatusButton type="submit" variant="outline" pending={pending}>
            Add value
          </StatusButton>
        </div>
      </Form>
    </Card>
  );
}

function ImportForm({ lastResult }: { lastResult: FormResult | undefined }) {
  const pending = useIsPending();
  const [form, fields] = useServerForm({ id: "map-import", lastResult });
  return (
    <Card aria-labelledby="import-title">
      <h2 id="import-title" className="text-base font-semibold">
        Import a map
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        A CSV file with the header source_value,target_value. You see what it changes before anything is applied.
      </p>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="mt-3 flex flex-col gap-3">
        <FormErrors form={form} />
        <FileField label="Map CSV file" field={fields.file!} accept=".csv,text/csv" />
        <div>
          <StatusButton type="submit" variant="outline" pending={pending}>
            Preview import
          </StatusButton>
        </div>
      </Form>
    </Card>
  );
}

function ImportPreview({ preview, errors, canWrite }: { preview: ValueMapImport; errors: string[]; canWrite: boolean }) {
  const applying = useIntentPending("apply");
  return (
    <Card className="mt-4 border-brand/40" aria-labelledby="preview-title">
      <h3 id="preview-title" className="text-base font-semibold">
        Import of {preview.fileName}: not applied yet
      </h3>
      <p className="mt-1 text-sm">
        {formatCount(preview.adds)} to add, {formatCount(preview.changes)} to change, {formatCount(preview.unchanged)} left as they are (
        {formatCount(preview.rowCount)} in the file).
      </p>
      {errors.length ? (
        <RefusalAlert refusal={errors} className="mt-3">
          {errors.join(" ")}
        </RefusalAlert>
      ) : null}
      {preview.sampleChanges.length ? (
        <Table aria-label="Values the import changes" className="mt-3">
          <TableHeader>
            <TableRow>
              <TableHead>Source value</TableHead>
              <TableHead>Now</TableHead>
              <TableHead>After the import</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {preview.sampleChanges.map((c) => (
              <TableRow key={c.sourceValue}>
                <TableCell className="font-mono text-[13px] whitespace-pre-wrap">{c.sourceValue}</TableCell>
                <TableCell>{c.from ?? "Unmapped"}</TableCell>
                <TableCell>{c.to ?? "Unmapped"}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
      {preview.sampleAdds.length ? (
        <Table aria-label="Values the import adds" className="mt-3">
          <TableHeader>
            <TableRow>
              <TableHead>Source value</TableHead>
              <TableHead>Target value</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {preview.sampleAdds.map((a) => (
              <TableRow key={a.sourceValue}>
                <TableCell className="font-mono text-[13px] whitespace-pre-wrap">{a.sourceValue}</TableCell>
                <TableCell>{a.targetValue ?? "Unmapped"}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      ) : null}
      {canWrite ? (
        <div className="mt-4 flex flex-wrap gap-2">
          <Form method="post">
            <input type="hidden" name="intent" value="apply" />
            <input type="hidden" name="importId" value={preview.id} />
            <input type="hidden" name="version" value={preview.baseVersion} />
            <StatusButton type="submit" pending={applying}>
              Apply this import
            </StatusButton>
          </Form>
          <Form method="post">
            <input type="hidden" name="intent" value="discard" />
            <input type="hidden" name="importId" value={preview.id} />
            <Button type="submit" variant="outline">
              Discard
            </Button>
          </Form>
        </div>
      ) : null}
    </Card>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
