import { data, Link, redirect, type UIMatch } from "react-router";
import { ReviewTables } from "~/components/dictionary/review-tables";
import { buttonVariants } from "~/components/ui/button";
import { REVIEW_PARAM, useWorkspacePaths } from "~/lib/workspace-paths";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { projectCalls } from "../../workspace.server";
import { reviewGuard } from "./dictionary.server";
import type { Route } from "./+types/review-table";

/** One table of an upload's review: its columns added, changed and removed. Applying is on the review page. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const reviewId = new URL(request.url).searchParams.get(REVIEW_PARAM);
  // Asked beside the workspace's own load; used only once the guard passed.
  const reviewing = reviewId ? projectCalls(context).dictionary.getReview(reviewId) : null;
  reviewing?.catch(() => undefined);
  const { project, companyId, paths } = await reviewGuard(context);
  if (!reviewing) throw redirect(companyHref(paths.dictionary.upload(project.id), companyId));
  const review = await reviewing;
  const table = review.tables.find((t) => t.name === params.tableName);
  if (!table) throw data({ errors: [`The upload has no table ${params.tableName}.`] }, { status: 404 });
  return { projectId: project.id, review: { ...review, tables: [table], errors: [] }, tableName: table.name };
}

export const handle = {
  breadcrumb: (match: UIMatch) => (match.loaderData as Awaited<ReturnType<typeof loader>> | undefined)?.tableName ?? null,
};

export default function ProjectReviewTable({ loaderData }: Route.ComponentProps) {
  const { projectId, review, tableName } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  return (
    <div className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold">Changes to {tableName}</h2>
      <ReviewTables review={review} />
      <div>
        <Link to={href(paths.dictionary.review(projectId), { [REVIEW_PARAM]: review.id })} className={buttonVariants({ variant: "outline" })}>
          Back to the review
        </Link>
      </div>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
