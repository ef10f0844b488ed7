import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { dictionaryUploadSchema, MAX_UPLOAD_MB } from "~/components/dictionary/schemas";
import { UploadForm } from "~/components/dictionary/upload-form";
import { projectDictionaryPaths, REVIEW_PARAM } from "~/components/projects/next-step";
import { Card } from "~/components/ui/card";
import { companyHref } from "~/lib/company-href";
import { invalid, readUploadFormData, refusedByService } from "~/lib/forms.server";
import { projectScope, requireProjectUnlocked, requireProjectWrite } from "../../project.server";
import { projectDictionary, uploadProjectDictionaryFile } from "./dictionary.server";
import type { Route } from "./+types/upload-data";

/** The bulk update of the project's dictionary: an edit page (write access, project not locked). */
function guard(context: Route.LoaderArgs["context"]) {
  const scope = projectScope(context);
  requireProjectWrite(context, projectDictionaryPaths.tables(scope.project.id));
  requireProjectUnlocked(context);
  return scope;
}

export async function loader({ context }: Route.LoaderArgs) {
  guard(context);
  return { tableCount: projectDictionary(context).tableCount };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { project, companyId, as } = guard(context);
  // Read while it streams and never past 6 MB: an oversized upload never fills the portal's memory.
  const formData = await readUploadFormData(request);
  if (!formData) {
    const submission = parseWithZod(new FormData(), { schema: dictionaryUploadSchema });
    return data({ result: submission.reply({ fieldErrors: { file: [`The file is larger than ${MAX_UPLOAD_MB} MB`] } }) }, { status: 413 });
  }
  const submission = parseWithZod(formData, { schema: dictionaryUploadSchema });
  if (submission.status !== "success") return invalid(submission);
  let review;
  try {
    review = await uploadProjectDictionaryFile(as, project.id, submission.value.file);
  } catch (err) {
    // A file the API cannot read at all (not a CSV, not an XLSX, no header): its message, nothing changed.
    return refusedByService(submission, err);
  }
  throw redirect(companyHref(projectDictionaryPaths.review(project.id), companyId, { [REVIEW_PARAM]: review.id }));
}

export const handle = { breadcrumb: "Bulk update" };

export default function ProjectUploadData({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <Card className="max-w-3xl">
      <h2 className="text-lg font-semibold">Bulk update</h2>
      <p className="mt-1 mb-4 text-sm text-muted-foreground">
        {loaderData.tableCount === 0
          ? "Describe the project's tables and columns in one file. You will see what it adds before anything is saved."
          : "Upload tables and columns: you will see, table by table, which columns are added, changed and removed before anything is saved. Tables not in the file stay as they are. The master dictionary is not touched."}
      </p>
      <UploadForm lastResult={actionData?.result} />
    </Card>
  );
}
