import { Icon } from "~/components/ui/icon";
import { Link, useMatches, type UIMatch } from "react-router";
import { useCompanyHref } from "~/lib/company-href";

/**
 * A route's `handle.breadcrumb`: a label, or a function of the route's match that returns one (for
 * names its loader resolved: project, template, script, dictionary).
 */
export type BreadcrumbHandle = {
  breadcrumb?: string | ((match: UIMatch<unknown, unknown>) => string | null | undefined);
  /** The page above, for a page registered beside it rather than below it (a column's value map beside its table's): its crumb comes first. */
  parentCrumb?: (match: UIMatch<unknown, unknown>) => { label: string; to: string } | null | undefined;
};

export function Breadcrumbs() {
  const matches = useMatches();
  const href = useCompanyHref();
  const crumbs = matches.flatMap((match) => {
    const handle = match.handle as BreadcrumbHandle | undefined;
    const label = typeof handle?.breadcrumb === "function" ? handle.breadcrumb(match) : handle?.breadcrumb;
    const parent = label ? handle?.parentCrumb?.(match) : null;
    return [...(parent ? [{ id: `${match.id}-parent`, ...parent }] : []), ...(label ? [{ id: match.id, label, to: match.pathname }] : [])];
  });
  if (crumbs.length === 0) return null;
  return (
    <nav aria-label="Breadcrumb" className="px-6 pt-4 text-sm">
      <ol className="flex flex-wrap items-center gap-1 text-muted-foreground">
        {crumbs.map((crumb, i) => {
          const last = i === crumbs.length - 1;
          return (
            <li key={crumb.id} className="flex items-center gap-1">
              {last ? (
                <span aria-current="page" className="font-medium text-slate-900">
                  {crumb.label}
                </span>
              ) : (
                <>
                  <Link to={href(crumb.to)} className="hover:underline" discover="none">
                    {crumb.label}
                  </Link>{" "}
                  <Icon name="chevron-right" className="size-3.5" />
                </>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
