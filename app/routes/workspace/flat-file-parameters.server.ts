import { parseWithZod } from "@conform-to/zod/v4";
import { flatFileParametersSchema, type FlatFileParameters } from "../../../contracts/projects";
import { companyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { invalid, refusedByService } from "~/lib/forms.server";
import type { ProjectScopeOf } from "./workspace.server";

/**
 * The parameters a form posted, with the saved column widths of the tables it did not post kept: the
 * wizard posts none, the load page only once Fixed Length is saved. A table posted empty goes back
 * to its dictionary widths.
 */
export function withUnpostedWidthsKept(parameters: FlatFileParameters, formData: FormData, saved: FlatFileParameters | null): FlatFileParameters {
  const kept = Object.entries(saved?.columnWidths ?? {}).filter(([table]) => !formData.has(`columnWidths.${table}`));
  return { ...parameters, columnWidths: { ...Object.fromEntries(kept), ...parameters.columnWidths } };
}

/** The load page's parameters form: checked here and by the data API (widths against the dictionary), saved, back to `back`. */
export async function saveFlatFileParameters(formData: FormData, scope: Pick<ProjectScopeOf, "project" | "api" | "companyId">, back: string) {
  const submission = parseWithZod(formData, { schema: flatFileParametersSchema });
  if (submission.status !== "success") return invalid(submission);
  try {
    await scope.api.setFlatFileParameters(withUnpostedWidthsKept(submission.value, formData, scope.project.flatFileParameters));
  } catch (err) {
    return refusedByService(submission, err);
  }
  return redirectWithFlash(companyHref(back, scope.companyId), "Flat-file parameters saved.");
}
