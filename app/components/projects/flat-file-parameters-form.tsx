import type { SubmissionResult } from "@conform-to/react";
import type { ColumnWidthsResponse, FlatFileParameters } from "../../../contracts/projects";
import { lazyWidget } from "~/lib/lazy-widget";

/** The intent the parameters form posts (the page's action tells it from the upload's multipart post). */
export const SAVE_PARAMETERS = "save-parameters";

// The form opens on demand: its fields (and the widths' paging) are not needed to read the page.
const FlatFileParametersEditor = lazyWidget(() => import("./flat-file-parameters-editor").then((m) => m.FlatFileParametersEditor));

/**
 * How the workspace's files are read (the load page): the saved parameters, and a form to change
 * them inside a disclosure that stays open while the form has errors or its widths are paged. Works without JavaScript.
 * The save is based on the workspace's `version` the page showed: a stale tab's is refused.
 */
export function FlatFileParametersForm({
  rows,
  parameters,
  version,
  widths,
  search,
  open,
  lastResult,
}: {
  /** The parameters in words (flatFileParameterRows, in the page's loader: the labels stay on the server). */
  rows: [string, string][];
  parameters: FlatFileParameters | null;
  version: number;
  /** A page of the tables whose widths the form edits (once Fixed Length is saved), those whose name contains `search`. */
  widths: ColumnWidthsResponse | null;
  search: string;
  /** Open at first (a link that paged the widths). */
  open: boolean;
  lastResult?: SubmissionResult<string[]>;
}) {
  return (
    <section aria-labelledby="parameters-title" className="mt-3 mb-5">
      <h3 id="parameters-title" className="sr-only">
        How the file is read
      </h3>
      <dl aria-label="How the file is read" className="label-values gap-x-6 gap-y-1 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted-foreground">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <details className="mt-3 rounded-md border border-border px-4 py-2" open={lastResult?.error || open ? true : undefined}>
        <summary className="cursor-pointer text-sm font-medium">Change how files are read</summary>
        <FlatFileParametersEditor parameters={parameters} version={version} widths={widths} search={search} lastResult={lastResult} />
      </details>
    </section>
  );
}
