import { Link, redirect } from "react-router";
import { ReviewActions, ReviewTables } from "~/components/dictionary/review-tables";
import { reviewActionSchema } from "~/components/dictionary/schemas.server";
import { REVIEW_PARAM, useWorkspacePaths } from "~/lib/workspace-paths";
import { redirectWithFlash } from "~/lib/flash.server";
import { dictionaryMessages } from "~/components/dictionary/messages";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { invalid, parseFormData, readFormData, unknownIntent } from "~/lib/forms.server";
import { loadReviewPage } from "~/lib/api/dictionary-tables.server";
import { projectCalls } from "../../workspace.server";
import { confirmationOf, refusedWrite, reviewGuard } from "./dictionary.server";
import { DataLossConfirmation } from "~/components/dictionary/data-loss-confirmation";
import type { Route } from "./+types/review";

/** The review of an uploaded file: per table what applying would change, or its problems, a page at a time; Apply or Discard. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const reviewId = new URL(request.url).searchParams.get(REVIEW_PARAM);
  // The summary and the page of its tables and problems, asked beside the workspace's own load (one
  // round trip); used only once the guard passed.
  const reviewing = reviewId ? loadReviewPage(projectCalls(context).dictionary, reviewId, new URL(request.url).searchParams) : null;
  reviewing?.catch(() => undefined);
  const { project, companyId, paths } = await reviewGuard(context);
  // No upload to review (a bookmark, the back button after applying): the upload page.
  if (!reviewing) throw redirect(companyHref(paths.dictionary.upload(project.id), companyId));
  return { projectId: project.id, ...(await reviewing) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { project, companyId, api, paths } = await reviewGuard(context);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  if (intent !== "apply" && intent !== "discard") return unknownIntent(intent);
  const submission = parseFormData(formData, reviewActionSchema);
  if (submission.status !== "success") return invalid(submission);
  try {
    // Read first: the message says what applying changed, or which upload was dropped.
    const reviewed = await api.dictionary.getReview(submission.value.reviewId);
    if (intent === "apply") {
      await api.dictionary.applyReview(submission.value.reviewId, confirmationOf(formData));
      // Uploaded from the wizard's dictionary step (its setup is still there): back to it, where setup goes on.
      const inWizard = project.status === "SetupDataDictionaryIncomplete" || project.status === "SetupAddColumnsIncomplete";
      const next = inWizard ? paths.wizard(project.id, paths.ws.dictionaryStep) : paths.dictionary.tables(project.id);
      return redirectWithFlash(companyHref(next, companyId), dictionaryMessages.reviewApplied(reviewed));
    }
    await api.dictionary.discardReview(submission.value.reviewId);
    return redirectWithFlash(companyHref(paths.dictionary.upload(project.id), companyId), dictionaryMessages.reviewDiscarded(reviewed.fileName));
  } catch (err) {
    // The dictionary changed since the upload (409), the review is gone (404): said at the top;
    // data the databases would lose: listed at the top with the confirmation.
    return refusedWrite(submission, err, formData, "apply");
  }
}

export const handle = { breadcrumb: "Review" };

export default function ProjectReview({ loaderData, actionData }: Route.ComponentProps) {
  const { projectId, review, tables, problems } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  return (
    <div className="flex flex-col gap-6">
      <DataLossConfirmation actionData={actionData} backUpHref={href(paths.databases.current(projectId))} />
      <div>
        <h2 className="text-lg font-semibold">Review the upload</h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Nothing has changed yet: apply the upload to save it to the {paths.ws.noun}'s {paths.ws.dictionaryLabel.toLowerCase()}, or discard it.
          {paths.ws.kind === "translation" ? " A column it removes takes its value map with it." : null}
        </p>
      </div>
      {tables.items.length > 0 ? (
        <nav aria-label="Tables in the upload">
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {tables.items.map((t) => (
              <li key={t.name}>
                <Link to={href(paths.dictionary.reviewTable(projectId, t.name), { [REVIEW_PARAM]: review.id })} className="text-brand hover:underline">
                  Details of {t.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <ReviewTables review={review} tables={tables} problems={problems} />
      <ReviewActions review={review} lastResult={actionData?.result} />
    </div>
  );
}
