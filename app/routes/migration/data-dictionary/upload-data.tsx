import { callerOf } from "~/lib/guards.server";
import { Link } from "react-router";
import { dictionaryMessages } from "~/components/dictionary/messages";
import { PendingReviewNotice } from "~/components/dictionary/pending-review-notice";
import { UploadForm } from "~/components/dictionary/upload-form";
import { Card } from "~/components/ui/card";
import { submitDictionaryUpload } from "~/lib/api/dictionary-tables.server";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { uploadDictionaryFile } from "~/lib/api/dictionaries.server";
import { dictionaryOf, dictionaryPathsOfRequest, pendingReviewLink, requireMasterDataWrite } from "./dictionary.server";
import { REVIEW_PARAM } from "~/lib/workspace-paths";
import { dictionaryModeOf, useDictionaryPaths } from "./paths";
import type { Route } from "./+types/upload-data";

/**
 * Upload a dictionary file for review: create/{id}/upload-data (the draft's second step) and
 * edit/{id}/bulk-update. The file goes on to the data API, which answers the review; nothing is
 * applied until the review page says so.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const mode = dictionaryModeOf(new URL(request.url).pathname) === "create" ? ("create" as const) : ("edit" as const);
  // Asked beside the dictionary's own load; used only once the guards passed.
  const pendingLink = pendingReviewLink(callerOf(context), params.dataDictionaryId, mode);
  pendingLink.catch(() => undefined);
  const { id, tableCount } = await dictionaryOf(context);
  // The dictionary layout has sent anyone who may not write to the view pages.
  await requireMasterDataWrite(context, dictionaryPathsOfRequest(request).definition("view", id));
  const pending = await pendingLink;
  return { id, mode, tableCount, pending };
}

export async function action({ request, context }: Route.ActionArgs) {
  const dictionary = await dictionaryOf(context);
  const mode = dictionaryModeOf(new URL(request.url).pathname) === "create" ? "create" : "edit";
  const paths = dictionaryPathsOfRequest(request);
  const { shell, companyId } = await requireMasterDataWrite(context, paths.definition("view", dictionary.id));
  const { review, reply } = await submitDictionaryUpload(request, (upload) => uploadDictionaryFile(shell, dictionary.id, upload));
  if (reply) return reply;
  return redirectWithFlash(
    companyHref(paths.review(mode, dictionary.id), companyId, { [REVIEW_PARAM]: review.id }),
    dictionaryMessages.uploaded(review.fileName),
  );
}

export const handle = {
  breadcrumb: (match: { pathname: string }) => (dictionaryModeOf(match.pathname) === "create" ? "Upload data" : null),
};

export default function UploadData({ loaderData, actionData }: Route.ComponentProps) {
  const { id, mode, tableCount, pending } = loaderData;
  const href = useCompanyHref();
  const paths = useDictionaryPaths();
  return (
    <Card className="flex max-w-3xl flex-col gap-4">
      {pending ? <PendingReviewNotice review={pending.review} to={pending.to} /> : null}
      <div>
        <h2 className="text-base font-semibold">{mode === "create" ? "Upload data" : "Bulk update"}</h2>
        <p className="mt-1 text-sm text-muted-foreground">
          {tableCount === 0
            ? "Describe the application's tables and columns in one file. You will see what it adds before anything is saved."
            : "Upload tables and columns: you will see, table by table, which columns are added, changed and removed before anything is saved."}
        </p>
      </div>
      <UploadForm lastResult={actionData?.result} columnsNotInFile={tableCount > 0 ? "choose" : undefined} />
      {mode === "create" ? (
        <p className="text-sm text-muted-foreground">
          No file at hand?{" "}
          <Link to={href(paths.definition("edit", id))} className="text-brand underline">
            Define the tables one by one
          </Link>{" "}
          instead.
        </p>
      ) : null}
    </Card>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
