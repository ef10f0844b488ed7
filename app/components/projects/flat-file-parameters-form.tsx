import type { SubmissionResult } from "@conform-to/react";
import { Form, useLocation } from "react-router";
import type { ColumnWidthsResponse, FlatFileParameters } from "../../../contracts/projects";
import { PAGE_SIZES } from "../../../contracts/values/common";
import { DEFAULT_FLAT_FILE_PARAMETERS } from "../../../contracts/values/flat-files";
import { FormErrors } from "~/components/forms/fields";
import { StatusButton } from "~/components/forms/status-button";
import { FlatFileParameterFields, flatFileParameterDefaults, WIDTHS_PAGING_KEYS } from "~/components/projects/flat-file-parameter-fields";
import { flatFileParameterRows } from "~/components/projects/flat-file-parameter-rows";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { PageSizeForm } from "~/components/ui/list-search-form";
import { COMPANY_PARAM } from "~/lib/company-href";
import { getFormProps, useServerForm } from "~/lib/forms";

/** The intent the parameters form posts (the page's action tells it from the upload's multipart post). */
export const SAVE_PARAMETERS = "save-parameters";

/**
 * How the workspace's files are read (the load page): the saved parameters, and a form to change
 * them inside a disclosure that stays open while the form has errors or its widths are paged. Works without JavaScript.
 * The save is based on the workspace's `version` the page showed: a stale tab's is refused.
 */
export function FlatFileParametersForm({
  parameters,
  version,
  widths,
  search,
  open,
  lastResult,
}: {
  parameters: FlatFileParameters | null;
  version: number;
  /** A page of the tables whose widths the form edits (once Fixed Length is saved), those whose name contains `search`. */
  widths: ColumnWidthsResponse | null;
  search: string;
  /** Open at first (a link that paged the widths). */
  open: boolean;
  lastResult?: SubmissionResult<string[]>;
}) {
  const pending = useIntentPending(SAVE_PARAMETERS);
  const [form, fields] = useServerForm({ id: "flat-file-parameters", lastResult, defaultValue: flatFileParameterDefaults(parameters) });
  return (
    <section aria-labelledby="parameters-title" className="mt-3 mb-5">
      <h3 id="parameters-title" className="sr-only">
        How the file is read
      </h3>
      <dl aria-label="How the file is read" className="label-values gap-x-6 gap-y-1 text-sm">
        {flatFileParameterRows(parameters ?? DEFAULT_FLAT_FILE_PARAMETERS).map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <details className="mt-3 rounded-md border border-border px-4 py-2" open={lastResult?.error || open ? true : undefined}>
        <summary className="cursor-pointer text-sm font-medium">Change how files are read</summary>
        <Form method="post" {...getFormProps(form)} className="mt-3 space-y-4 pb-2">
          <FormErrors form={form} />
          {/* The version this page showed, never the one a refused save sent (it is already stale). */}
          <input type="hidden" name="version" value={version} key={version} />
          <div className="grid gap-4 sm:grid-cols-2">
            <FlatFileParameterFields fields={fields} delimiterSaved={parameters?.delimiter} widths={widths ? { page: widths, search } : undefined} />
          </div>
          <StatusButton type="submit" name="intent" value={SAVE_PARAMETERS} variant="outline" pending={pending}>
            Save
          </StatusButton>
        </Form>
        {parameters?.delimiter === "FixedLength" && widths && widths.total > PAGE_SIZES[0] ? <WidthsPageSizeForm pageSize={widths.pageSize} /> : null}
      </details>
    </section>
  );
}

/**
 * How many tables' widths the form shows: its own GET form, outside the POST form the widths' fields
 * belong to. Like a page link it goes back to the first page and keeps the page's other parameters
 * (the table search, the table chosen, a preview); widths typed and not saved are left behind, as a page link leaves them.
 */
function WidthsPageSizeForm({ pageSize }: { pageSize: number }) {
  const location = useLocation();
  const dropped: string[] = [COMPANY_PARAM, WIDTHS_PAGING_KEYS.page, WIDTHS_PAGING_KEYS.pageSize];
  const keep = Object.fromEntries([...new URLSearchParams(location.search)].filter(([name]) => !dropped.includes(name)));
  return (
    <PageSizeForm
      action={location.pathname}
      label="Column widths page size"
      pageSize={pageSize}
      pageSizeId="widths-page-size"
      pageSizeName={WIDTHS_PAGING_KEYS.pageSize}
      keep={keep}
      className="pb-2"
    />
  );
}
