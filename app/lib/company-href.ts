import { useRouteLoaderData } from "react-router";

/** The search parameter that carries the company scope (spec §9). */
export const COMPANY_PARAM = "companyId";

type Search = Record<string, string | number | boolean | null | undefined | (string | number)[]>;

/**
 * The one way to build a portal href: `path` plus the company scope plus any other search
 * parameters (arrays repeat the key). Every link, redirect and form action goes through it.
 */
export function companyHref(path: string, companyId: string | null | undefined, search: Search = {}): string {
  const [pathname, existing = ""] = path.split("?", 2);
  const params = new URLSearchParams(existing);
  if (companyId) params.set(COMPANY_PARAM, companyId);
  for (const [key, value] of Object.entries(search)) {
    params.delete(key);
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v !== undefined && v !== null && v !== "") params.append(key, String(v));
    }
  }
  const query = params.toString();
  return query ? `${pathname}?${query}` : (pathname ?? "/");
}

/** In components: the selected company's id (a GET form's hidden field carries it: its action's search is dropped). */
export function useCompanyId(): string | null {
  const shell = useRouteLoaderData("routes/shell") as { company: { id: string } | null } | undefined;
  return shell?.company?.id ?? null;
}

/** In components: `href(path, search?)` bound to the selected company. */
export function useCompanyHref() {
  const companyId = useCompanyId();
  return (path: string, search?: Search) => companyHref(path, companyId, search);
}
