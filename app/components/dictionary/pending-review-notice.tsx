import { Link } from "react-router";
import type { ReviewSummary } from "../../../contracts/dictionary";
import { formatCountOf } from "~/components/projects/format";
import { useCompanyHref } from "~/lib/company-href";

export type PendingReviewNoticeProps = {
  /** The newest pending review (GET …/bulk-uploads answers them newest first), and when it was uploaded in words (the loader's formatTimestamp). */
  review: Pick<ReviewSummary, "fileName" | "createdAt" | "errorCount"> & { uploaded: string };
  /** The review page of this dictionary, with the review in its search (the company is added here). */
  to: { path: string; search: Record<string, string> };
};

/**
 * An uploaded file nobody applied or discarded yet, on a dictionary's pages (master or project): a
 * plain link back to its review, so leaving the review page does not lose it.
 */
export function PendingReviewNotice({ review, to }: PendingReviewNoticeProps) {
  const href = useCompanyHref();
  return (
    <div className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      <p>
        A bulk update is waiting for review —{" "}
        <Link to={href(to.path, to.search)} className="font-medium underline">
          Review it
        </Link>
      </p>
      <p className="mt-0.5 text-amber-800">
        {review.fileName}, uploaded <time dateTime={review.createdAt}>{review.uploaded}</time>
        {review.errorCount > 0 ? `, ${formatCountOf(review.errorCount, "problem")} in the file` : ""}. Nothing changes until it is applied.
      </p>
    </div>
  );
}
