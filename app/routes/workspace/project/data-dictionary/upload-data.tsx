import { PendingReviewNotice } from "~/components/dictionary/pending-review-notice";
import { UploadForm } from "~/components/dictionary/upload-form";
import { Card } from "~/components/ui/card";
import { REVIEW_PARAM } from "~/lib/workspace-paths";
import { redirectWithFlash } from "~/lib/flash.server";
import { dictionaryMessages } from "~/components/dictionary/messages";
import { newestPendingReview, submitDictionaryUpload } from "~/lib/api/dictionary-tables.server";
import { companyHref } from "~/lib/company-href";
import { afterGuard } from "~/lib/guards.server";
import { checkWorkspace, projectCalls, projectScope } from "../../workspace.server";
import { pendingReviewLinkOf, projectDictionary } from "./dictionary.server";
import type { Route } from "./+types/upload-data";

/** The bulk update of the project's dictionary: an edit page (write access, project not locked). */
async function guard(context: Route.LoaderArgs["context"]) {
  const scope = await projectScope(context);
  return checkWorkspace(scope, { write: scope.paths.dictionary.tables(scope.project.id), unlocked: true });
}

export async function loader({ context }: Route.LoaderArgs) {
  // Started beside the workspace's own load; used only once the guard passed.
  const newest = newestPendingReview(projectCalls(context).dictionary);
  const [scope, [dictionary, pending]] = await afterGuard(guard(context), Promise.all([projectDictionary(context), newest]));
  return { tableCount: dictionary.tableCount, pending: pendingReviewLinkOf(scope, pending) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { project, companyId, api, paths } = await guard(context);
  const { review, reply } = await submitDictionaryUpload(request, (upload) => api.dictionary.upload(upload));
  if (reply) return reply;
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
      {loaderData.pending ? (
        <div className="mb-4">
          <PendingReviewNotice review={loaderData.pending.review} to={loaderData.pending.to} />
        </div>
      ) : null}
      <UploadForm lastResult={actionData?.result} columnsNotInFile={loaderData.tableCount > 0 ? "choose" : undefined} />
    </Card>
  );
}
