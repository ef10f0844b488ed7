import type * as React from "react";
import { Form, Link, useFormAction, useNavigation } from "react-router";
import { useCompanyHref, useCompanyId } from "~/lib/company-href";
import { cn } from "~/lib/utils";
import { CLEAR_SEARCH, DEFAULT_PAGE_SIZE, PAGE_SIZES } from "../../../contracts/values/common";
import { Button } from "./button";

/** Parameters a search keeps: an array repeats its name. */
type Kept = Record<string, string | number | string[] | undefined>;

/**
 * The GET search form of a list (projects, applications, dictionaries): the selected company and a non-default
 * sort travel as hidden fields, the page size and "Search" close the row, and a clear link keeps
 * sort and page size. The list's own filters come in as `children` (in the row) and `below`.
 */
export function ListSearchForm({
  id,
  action,
  label,
  sort,
  defaultSort,
  pageSize,
  pageSizeId,
  pageSizeName = "pageSize",
  keep = {},
  clearSubmits = false,
  method = "get",
  inForm = false,
  filtered,
  clearLabel = "Clear filters",
  className,
  children,
  below,
}: {
  /** The form's id, for controls outside it that it submits (a list's ticks and page buttons: AssignTemplatesForm). */
  id?: string;
  action: string;
  label: string;
  sort: string;
  defaultSort: string;
  pageSize: number;
  pageSizeId: string;
  /** The page size's parameter: another than `pageSize` for the second list of a page. */
  pageSizeName?: string;
  /** The parameters of the page's other list, which a search keeps: hidden fields, and in the clear link. */
  keep?: Kept;
  /**
   * Clear is a submit button of the form (CLEAR_SEARCH), not a link: for a list whose checkboxes belong to the
   * form (AssignTemplatesForm), so that the ticks of the page shown go with it. Its loader drops the search (clearedSearchHref).
   */
  clearSubmits?: boolean;
  /**
   * "post": the form posts to this URL, its search kept (TickedTemplates, whose ticks may outgrow a URL): its action
   * answers the redirect to the page asked for, or refuses it. Its fields are never restored by the browser after Back
   * (autocomplete off): without JavaScript Chromium ticked again a box the page's URL leaves out, which its counts
   * ("2 more chosen on other pages") did not count; the page shows what its URL carries.
   */
  method?: "get" | "post";
  /**
   * The search is part of an enclosing form (TicksForm), not a form of its own: a search landmark whose fields
   * and buttons that form submits. Text browsers (w3m, lynx) ignore the `form` attribute, so the controls a
   * search's form submits must sit inside the form element itself.
   */
  inForm?: boolean;
  filtered: boolean;
  clearLabel?: string;
  className?: string;
  children: React.ReactNode;
  below?: React.ReactNode;
}) {
  const href = useCompanyHref();
  const searching = useLoadingPath(action);
  const postAction = useFormAction();
  const fields = (
    <>
      <KeptFields keep={{ ...keep, sort: sort === defaultSort ? undefined : sort }} />
      <div className="flex flex-wrap items-end gap-4">
        {children}
        <PageSizeSelect id={pageSizeId} value={pageSize} name={pageSizeName} />
        <Button type="submit" aria-busy={searching || undefined}>
          Search
        </Button>{" "}
        {filtered && clearSubmits ? (
          // Looks as the clear link does: it does what that link does, with the form's fields.
          <button type="submit" name={CLEAR_SEARCH.name} value={CLEAR_SEARCH.value} className="text-sm text-brand hover:underline">
            {clearLabel}
          </button>
        ) : filtered ? (
          <Link
            to={href(action, {
              ...keep,
              sort: sort === defaultSort ? undefined : sort,
              [pageSizeName]: pageSize === DEFAULT_PAGE_SIZE ? undefined : pageSize,
            })}
            className="text-sm text-brand hover:underline"
          >
            {clearLabel}
          </Link>
        ) : null}
      </div>
      {below}
    </>
  );
  const box = cn("rounded-lg border border-border bg-white p-4", className);
  if (inForm)
    return (
      <div role="search" aria-label={label} className={box}>
        {fields}
      </div>
    );
  return (
    <Form
      id={id}
      method={method}
      action={method === "post" ? postAction : action}
      autoComplete={method === "post" ? "off" : undefined}
      role="search"
      aria-label={label}
      className={box}
    >
      {fields}
    </Form>
  );
}

/**
 * The page size alone, for a paged list with no search (the translations, the wizard's tables): a GET
 * form like ListSearchForm's, whose "Show" goes back to the list's first page at the chosen size.
 * `keep` are the page's other parameters (another list's place, a table search), sent as hidden fields;
 * `children`, a list's own filters (a comparison's "Only tables that differ"), before the size.
 */
export function PageSizeForm({
  action,
  label,
  pageSize,
  pageSizeId,
  pageSizeName = "pageSize",
  keep = {},
  className,
  children,
}: {
  action: string;
  /** The form's name, which says whose page size it is: "Translations page size". */
  label: string;
  pageSize: number;
  pageSizeId: string;
  pageSizeName?: string;
  keep?: Record<string, string | number | undefined>;
  className?: string;
  children?: React.ReactNode;
}) {
  const showing = useLoadingPath(action);
  return (
    <Form method="get" action={action} aria-label={label} className={cn("flex flex-wrap items-end gap-4", className)}>
      <KeptFields keep={keep} />
      {children}
      <PageSizeSelect id={pageSizeId} value={pageSize} name={pageSizeName} />
      <Button type="submit" variant="outline" aria-busy={showing || undefined}>
        Show
      </Button>
    </Form>
  );
}

/**
 * The hidden fields of a GET form: the selected company (a GET form's action loses its search) and the
 * parameters it keeps (a list's place, for a form beside the list: script History's Compare).
 */
export function KeptFields({ keep }: { keep: Kept }) {
  const companyId = useCompanyId();
  return (
    <>
      {companyId ? <input type="hidden" name="companyId" value={companyId} /> : null}
      {Object.entries(keep).flatMap(([name, value]) =>
        (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((v) => <input key={`${name}=${v}`} type="hidden" name={name} value={v} />),
      )}
    </>
  );
}

/** Whether the page is loading `path` (the form's submission under way). */
function useLoadingPath(path: string): boolean {
  const navigation = useNavigation();
  return navigation.state === "loading" && navigation.location?.pathname === path;
}

/** The page size select of a list's GET search form (`pageSize` unless named otherwise, one of PAGE_SIZES). */
export function PageSizeSelect({ id, value, name = "pageSize" }: { id: string; value: number; name?: string }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        Page size
      </label>
      <select id={id} name={name} defaultValue={String(value)} className="rounded-md border border-border bg-white px-3 py-2 text-sm">
        {PAGE_SIZES.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </div>
  );
}
