import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { dictionaryUploadSchema, MAX_UPLOAD_MB } from "~/components/dictionary/schemas";
import { UploadForm } from "~/components/dictionary/upload-form";
import { Card } from "~/components/ui/card";
import { REVIEW_PARAM } from "~/lib/workspace-paths";
import { redirectWithFlash } from "~/lib/flash.server";
import { dictionaryMessages } from "~/components/dictionary/messages";
import { companyHref } from "~/lib/company-href";
import { invalid, readUploadFormData, refusedByService } from "~/lib/forms.server";
import { projectScope, requireWorkspace } from "../../workspace.server";
import { projectDictionary } from "./dictionary.server";
import type { Route } from "./+types/upload-data";

/** The bulk update of the project's dictionary: an edit page (write access, project not locked). */
function guard(context: Route.LoaderArgs["context"]) {
  const { paths, project } = projectScope(context);
  return requireWorkspace(context, { write: paths.dictionary.tables(project.id), unlocked: true });
}

export async function loader({ context }: Route.LoaderArgs) {
  guard(context);
  return { tableCount: projectDictionary(context).tableCount };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { project, companyId, api, paths } = guard(context);
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
    review = await api.dictionary.upload(submission.value.file, submission.value.mode);
  } catch (err) {
    // A file the API cannot read at all (not a CSV, not an XLSX, no header): its message, nothing changed.
    return refusedByService(submission, err);
  }
  return redirectWithFlash(companyHref(paths.dictionary.review(project.id), companyId, { [REVIEW_PARAM]: review.id }), dictionaryMessages.uploaded(review.fileName));
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
