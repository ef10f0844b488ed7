import type { SubmissionResult } from "@conform-to/react";
import { Form, useLocation } from "react-router";
import type { ColumnWidthsResponse, FlatFileParameters } from "../../../contracts/projects";
import { PAGE_SIZES } from "../../../contracts/values/common";
import { FormErrors } from "~/components/forms/fields";
import { StatusButton } from "~/components/forms/status-button";
import { FlatFileParameterFields, flatFileParameterDefaults, WIDTHS_PAGING_KEYS } from "~/components/projects/flat-file-parameter-fields";
import { SAVE_PARAMETERS } from "~/components/projects/flat-file-parameters-form";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { PageSizeForm } from "~/components/ui/list-search-form";
import { COMPANY_PARAM } from "~/lib/company-href";
import { getFormProps, useServerForm } from "~/lib/forms";

/**
 * The form inside the load page's "Change how files are read" (FlatFileParametersForm): a widget of its
 * own chunk, loaded once the page is shown (decision 029), the parameters and, once Fixed Length is saved,
 * a page of the tables' widths.
 */
export function FlatFileParametersEditor({
  parameters,
  version,
  widths,
  search,
  lastResult,
}: {
  parameters: FlatFileParameters | null;
  version: number;
  widths: ColumnWidthsResponse | null;
  search: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const pending = useIntentPending(SAVE_PARAMETERS);
  const [form, fields] = useServerForm({ id: "flat-file-parameters", lastResult, defaultValue: flatFileParameterDefaults(parameters) });
  return (
    <>
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
    </>
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
