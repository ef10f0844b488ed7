import { updateFlatFileParametersSchema, type FlatFileParameters } from "../../../contracts/projects";
import { companyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { invalid, parseFormData, refusedByService } from "~/lib/forms.server";
import { readContains, readPage } from "~/lib/list-search.server";
import { WIDTHS_PAGING_KEYS, WIDTHS_PER_PAGE } from "~/components/projects/flat-file-parameter-fields";
import type { ProjectScopeOf, projectCalls } from "./workspace.server";

/**
 * The tables whose fixed-length widths the load page's form shows: a page (`?widthsPage=&widthsPageSize=`)
 * of those whose name contains the page's table search (`?name=`), asked of the data API, which reads no
 * more. The form saves the widths of these tables only; the others' saved widths are kept.
 */
export function columnWidthsPage(calls: ReturnType<typeof projectCalls>, params: URLSearchParams) {
  return calls.columnWidths({ name: readContains(params) || undefined, ...readPage(params, WIDTHS_PAGING_KEYS, WIDTHS_PER_PAGE) });
}

/**
 * The parameters a form posted, with the saved column widths of the tables it did not post kept: the
 * wizard posts none, the load page only once Fixed Length is saved. A table posted empty goes back
 * to its dictionary widths.
 */
export function withUnpostedWidthsKept<P extends FlatFileParameters>(parameters: P, formData: FormData, saved: FlatFileParameters | null): P {
  const kept = Object.entries(saved?.columnWidths ?? {}).filter(([table]) => !formData.has(`columnWidths.${table}`));
  return { ...parameters, columnWidths: { ...Object.fromEntries(kept), ...parameters.columnWidths } };
}

/**
 * Whether a parameters form shows the field the data API refused: not the widths of a table it did not post (kept as
 * saved by withUnpostedWidthsKept, for a table whose columns changed since), which refusedByService then says at the top.
 */
export function postedWidthsShown(formData: FormData) {
  return (field: string) => !field.startsWith("columnWidths.") || formData.has(field);
}

/**
 * The load page's parameters form: checked here and by the data API (widths against the dictionary, and
 * the version the page showed: a stale tab's save is refused with 409, nothing changed), saved, back to `back`.
 */
export async function saveFlatFileParameters(formData: FormData, scope: Pick<ProjectScopeOf, "project" | "api" | "companyId">, back: string) {
  const submission = parseFormData(formData, updateFlatFileParametersSchema);
  if (submission.status !== "success") return invalid(submission);
  try {
    await scope.api.setFlatFileParameters(withUnpostedWidthsKept(submission.value, formData, scope.project.flatFileParameters));
  } catch (err) {
    return refusedByService(submission, err, postedWidthsShown(formData));
  }
  return redirectWithFlash(companyHref(back, scope.companyId), "Flat-file parameters saved.");
}
