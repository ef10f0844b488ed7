import { parseWithZod } from "@conform-to/zod/v4";
import { Link, redirect } from "react-router";
import { ReviewActions, ReviewTables } from "~/components/dictionary/review-tables";
import { reviewActionSchema } from "~/components/dictionary/schemas";
import { projectDictionaryPaths, REVIEW_PARAM } from "~/components/projects/next-step";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { invalid, readFormData, refusedByService, unknownIntent } from "~/lib/forms.server";
import { applyProjectReview, discardProjectReview, getProjectReview, reviewGuard } from "./dictionary.server";
import type { Route } from "./+types/review";

/** The review of an uploaded file: per table what applying would change, every row error, Apply or Discard. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { project, companyId, as } = reviewGuard(context);
  const reviewId = new URL(request.url).searchParams.get(REVIEW_PARAM);
  // No upload to review (a bookmark, the back button after applying): the upload page.
  if (!reviewId) throw redirect(companyHref(projectDictionaryPaths.upload(project.id), companyId));
  return { projectId: project.id, review: await getProjectReview(as, project.id, reviewId) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { project, companyId, as } = reviewGuard(context);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  if (intent !== "apply" && intent !== "discard") return unknownIntent(intent);
  const submission = parseWithZod(formData, { schema: reviewActionSchema });
  if (submission.status !== "success") return invalid(submission);
  try {
    if (intent === "apply") await applyProjectReview(as, project.id, submission.value.reviewId);
    else await discardProjectReview(as, project.id, submission.value.reviewId);
  } catch (err) {
    // The dictionary changed since the upload (409), the review is gone (404): said at the top.
    return refusedByService(submission, err);
  }
  throw redirect(companyHref(intent === "apply" ? projectDictionaryPaths.tables(project.id) : projectDictionaryPaths.upload(project.id), companyId));
}

export const handle = { breadcrumb: "Review" };

export default function ProjectReview({ loaderData, actionData }: Route.ComponentProps) {
  const { projectId, review } = loaderData;
  const href = useCompanyHref();
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h2 className="text-lg font-semibold">Review the upload</h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Nothing has changed yet: apply the upload to save it to the project's dictionary, or discard it.
        </p>
      </div>
      {review.tables.length > 0 ? (
        <nav aria-label="Tables in the upload">
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {review.tables.map((t) => (
              <li key={t.name}>
                <Link to={href(projectDictionaryPaths.reviewTable(projectId, t.name), { [REVIEW_PARAM]: review.id })} className="text-brand hover:underline">
                  Details of {t.name}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <ReviewTables review={review} />
      <ReviewActions review={review} lastResult={actionData?.result} />
    </div>
  );
}
