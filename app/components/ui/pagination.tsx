import { Link } from "react-router";
import { formatCount } from "~/components/projects/format";
import { Button, buttonVariants } from "~/components/ui/button";
import { pageCount } from "~/lib/list-search";

/**
 * The pagination of a list, as links (no JavaScript needed): "Page 2 of 5 · 117 projects" ("Page 1 of 40,000 ·
 * 1,000,000 rows": counts grouped as every other count of rows is), then
 * Previous and Next. `href(page)` answers the list's URL at that page, keeping every other parameter.
 * Given `form` (the id of the list's GET form), Previous and Next submit it with `page` instead, so
 * what the user ticked on this page goes along (a link cannot carry it without JavaScript).
 */
export function Pagination({
  page,
  pageSize,
  total,
  noun,
  href,
  label = "Pagination",
  form,
}: {
  page: number;
  pageSize: number;
  total: number;
  /** The singular and plural of what the list holds: ["project", "projects"]. */
  noun: readonly [string, string];
  /** The navigation's name: another on a page of two lists, so that each landmark has its own. */
  label?: string;
} & ({ href: (page: number) => string; form?: never } | { form: string; href?: never })) {
  const pages = pageCount(total, pageSize);
  const move = (to: number, rel: "prev" | "next", name: string) =>
    href ? (
      <Link to={href(to)} rel={rel} className={buttonVariants({ variant: "outline", size: "sm" })}>
        {name}
      </Link>
    ) : (
      <Button type="submit" form={form} name="page" value={to} variant="outline" size="sm">
        {name}
      </Button>
    );
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm">
      {/* One string, one text node: React marks each boundary between text parts with a comment. */}
      {/* Past the end (an old link), "Page 999 of 1" would contradict the note above it: the count of pages instead. */}
      <p>{`${page > pages ? `${formatCount(pages)} ${pages === 1 ? "page" : "pages"}` : `Page ${formatCount(page)} of ${formatCount(pages)}`} · ${formatCount(total)} ${total === 1 ? noun[0] : noun[1]}`}</p>{" "}
      <div className="flex gap-2">
        {/* From past the end (an old link), Previous goes to the last page there is. */}
        {page > 1 ? (
          move(Math.min(page - 1, pages), "prev", "Previous")
        ) : (
          <Button variant="outline" size="sm" disabled>
            Previous
          </Button>
        )}{" "}
        {page < pages ? (
          move(page + 1, "next", "Next")
        ) : (
          <Button variant="outline" size="sm" disabled>
            Next
          </Button>
        )}
      </div>
    </nav>
  );
}

/** Instead of the table, on a page past the end of a list that is not empty (an old link): Pagination follows. */
export function PastTheEnd({ page }: { page: number }) {
  return (
    <p role="status" className="mt-6 rounded-lg border border-border bg-white p-4 text-sm">
      There is nothing on page {page}. Go back with Previous.
    </p>
  );
}
