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
  /** The whole document title where the crumbs do not say it (a wizard's step), given the page's own path. */
  title?: (match: UIMatch<unknown, unknown>, pathname: string) => string | null | undefined;
};

type Crumb = { id: string; label: string; to: string };

/** The trail of the matched routes' crumbs, outermost first. */
export function crumbsOf(matches: readonly UIMatch<unknown, unknown>[]): Crumb[] {
  return matches.flatMap((match) => {
    const handle = match.handle as BreadcrumbHandle | undefined;
    const label = typeof handle?.breadcrumb === "function" ? handle.breadcrumb(match) : handle?.breadcrumb;
    const parent = label ? handle?.parentCrumb?.(match) : null;
    return [...(parent ? [{ id: `${match.id}-parent`, ...parent }] : []), ...(label ? [{ id: match.id, label, to: match.pathname }] : [])];
  });
}

/** How many crumbs, nearest first, a document title names: the page, then what it belongs to ("Tables · Data dictionary · Alpha"). */
const TITLE_CRUMBS = 3;

/**
 * A page's document title (root's Layout renders it): the nearest route's own `title`, else the page's
 * crumbs, nearest first, so that each tab and a screen reader's reading of the title name the page and
 * not only its project ("Tables · Data dictionary · Alpha · Data Transformation"); `fallback` where
 * no route names one (sign-in, errors).
 */
export function pageTitleOf(matches: readonly UIMatch<unknown, unknown>[], fallback: string): string {
  const pathname = matches.at(-1)?.pathname ?? "/";
  for (const match of [...matches].reverse()) {
    const title = (match.handle as BreadcrumbHandle | undefined)?.title?.(match, pathname);
    if (title) return title;
  }
  const names = crumbsOf(matches)
    .map((crumb) => crumb.label)
    .reverse()
    .slice(0, TITLE_CRUMBS);
  return names.length ? [...names, "Data Transformation"].join(" · ") : fallback;
}

export function Breadcrumbs() {
  const matches = useMatches();
  const href = useCompanyHref();
  const crumbs = crumbsOf(matches);
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
