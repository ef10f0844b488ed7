import { redirect } from "react-router";
import { dictionaryMessages } from "~/components/dictionary/messages";
import { ReviewActions, ReviewTables } from "~/components/dictionary/review-tables";
import { reviewActionSchema } from "~/components/dictionary/schemas.server";
import { COMPANY_PARAM, companyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { invalid, parseForm, refusedByService, unknownIntent } from "~/lib/forms.server";
import { callerOf } from "~/lib/guards.server";
import { applyReview, discardReview, getReview, loadReview } from "~/lib/api/dictionaries.server";
import { dictionaryOf, dictionaryPathsOfRequest, requireMasterDataWrite } from "./dictionary.server";
import { REVIEW_PARAM } from "~/lib/workspace-paths";
import { dictionaryModeOf } from "./paths";
import type { Route } from "./+types/review";

/**
 * The review of an uploaded file (create/{id}/review/tables, edit/{id}/bulk-update/review/tables):
 * per table what applying would change, or the file's problems, a page at a time (`?page=`), and
 * Apply or Discard.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const mode = dictionaryModeOf(url.pathname) === "create" ? "create" : "edit";
  const reviewId = url.searchParams.get(REVIEW_PARAM);
  // The summary and the page of its tables and problems, asked beside the dictionary's own load (one
  // round trip); used only once it passed its guards.
  const reviewing = reviewId ? loadReview(callerOf(context), params.dataDictionaryId, reviewId, url.searchParams) : null;
  reviewing?.catch(() => undefined);
  const dictionary = await dictionaryOf(context);
  // No upload to review (a bookmark, the back button after applying): the upload page.
  if (!reviewing) throw redirect(companyHref(dictionaryPathsOfRequest(request).upload(mode, dictionary.id), url.searchParams.get(COMPANY_PARAM)));
  return { ...(await reviewing), mode };
}

export async function action({ request, context }: Route.ActionArgs) {
  const dictionary = await dictionaryOf(context);
  const mode = dictionaryModeOf(new URL(request.url).pathname) === "create" ? "create" : "edit";
  const paths = dictionaryPathsOfRequest(request);
  const { shell, companyId } = await requireMasterDataWrite(context, paths.definition("view", dictionary.id));
  const { formData, submission } = await parseForm(request, reviewActionSchema);
  const intent = formData.get("intent");
  if (intent !== "apply" && intent !== "discard") return unknownIntent(intent);
  if (submission.status !== "success") return invalid(submission);
  const { reviewId } = submission.value;
  try {
    // Read first: the message says what applying changed, or which upload was dropped.
    const reviewed = await getReview(shell, dictionary.id, reviewId);
    if (intent === "apply") {
      await applyReview(shell, dictionary.id, reviewId);
      const next = paths.definition(mode === "create" ? "view" : "edit", dictionary.id);
      return redirectWithFlash(companyHref(next, companyId), dictionaryMessages.reviewApplied(reviewed));
    }
    await discardReview(shell, dictionary.id, reviewId);
    return redirectWithFlash(companyHref(paths.upload(mode, dictionary.id), companyId), dictionaryMessages.reviewDiscarded(reviewed.fileName));
  } catch (err) {
    // The dictionary changed since the upload (409), the review is gone (404): said at the top.
    return refusedByService(submission, err);
  }
}

export const handle = { breadcrumb: "Review" };

export default function ReviewUpload({ loaderData, actionData }: Route.ComponentProps) {
  const { review, tables, problems } = loaderData;
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h2 className="text-lg font-semibold">Review the upload</h2>
        <p className="mt-1 text-sm text-muted-foreground">Nothing has changed yet: apply the upload to save it to the dictionary, or discard it.</p>
      </div>
      <ReviewTables review={review} tables={tables} problems={problems} />
      <ReviewActions review={review} lastResult={actionData?.result} />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
