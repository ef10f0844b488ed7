import { data, Link, redirect, type UIMatch } from "react-router";
import { reviewTablesQuerySchema } from "../../../../../contracts/dictionary";
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
  // Asked beside the workspace's own load (one round trip); used only once the guard passed.
  const dictionary = projectCalls(context).dictionary;
  // A name longer than the data API reads (no table of an upload has one: a hand-edited or cut link) names no table of
  // the upload, said as for any other name it lacks, never in the contract's words; the review is still read (and guarded).
  const named = reviewTablesQuerySchema.shape.table.safeParse(params.tableName).success;
  const noTable = { items: [], total: 0, page: 1, pageSize: 10 };
  const reviewing = reviewId
    ? Promise.all([
        dictionary.getReview(reviewId),
        named ? dictionary.reviewTables(reviewId, { page: 1, pageSize: 10, table: params.tableName }) : Promise.resolve(noTable),
      ])
    : null;
  reviewing?.catch(() => undefined);
  const { project, companyId, paths } = await reviewGuard(context);
  if (!reviewing) throw redirect(companyHref(paths.dictionary.upload(project.id), companyId));
  const [review, found] = await reviewing;
  // Table names are one name in any case (a dictionary holds one Customers, whatever its case), and the data API
  // narrows the review to the table of this name in any case: the page shows it, under the name the file gives it.
  const [table] = found.items;
  if (!table) throw data({ errors: [`The upload has no table ${params.tableName}.`] }, { status: 404 });
  const tables = { items: [table], total: 1, page: 1, pageSize: 10 };
  const problems = { items: [], total: 0, page: 1, pageSize: 10 };
  // The summary as this one table's: it is what the page shows.
  const changingTableCount = table.status === "unchanged" ? 0 : 1;
  return { projectId: project.id, review: { ...review, tableCount: 1, changingTableCount }, tables, problems, tableName: table.name };
}

export const handle = {
  breadcrumb: (match: UIMatch) => (match.loaderData as Awaited<ReturnType<typeof loader>> | undefined)?.tableName ?? null,
};

export default function ProjectReviewTable({ loaderData }: Route.ComponentProps) {
  const { projectId, review, tables, problems, tableName } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  return (
    <div className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold">Changes to {tableName}</h2>
      <ReviewTables review={review} tables={tables} problems={problems} paginate={false} />
      <div>
        <Link to={href(paths.dictionary.review(projectId), { [REVIEW_PARAM]: review.id })} className={buttonVariants({ variant: "outline" })}>
          Back to the review
        </Link>
      </div>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
