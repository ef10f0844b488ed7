import type * as React from "react";
import { Form, useFormAction, useLocation } from "react-router";
import { StatusButton } from "~/components/forms/status-button";
import { ListSearchForm } from "~/components/ui/list-search-form";
import { Pagination } from "~/components/ui/pagination";
import { SearchField } from "~/components/ui/search-field";

/** Parameters the search keeps as hidden fields: the ticks of other pages (an array repeats its name). */
type Kept = Record<string, string | string[] | undefined>;

/**
 * A page of templates found by name whose ticks outlive paging and searching without JavaScript ("Assign
 * templates", "Run the templates"), inside its TicksForm. The search, the page's checkboxes (and any other field
 * of the page), the page buttons and the post button belong to that one form, `formId`: its Search, Clear
 * search and Previous/Next post them all to this URL, whose action answers the redirect to the next URL carrying
 * them (ticksNavigation), or refuses more ticks than the page takes at once, where a GET of a page's hundreds of
 * ticks would outgrow what a server reads (431); the ticks of other pages travel as hidden fields (`keep`), this
 * page's are its checkboxes; the post button (TicksPostButton, with its `intent`) posts them all. Its loader reads
 * the URL with readTickedSearch. `children` sit between the search and the pages.
 */
export function TickedTemplates({
  formId,
  label,
  search,
  keep,
  result,
  pagesLabel,
  children,
}: {
  formId: string;
  /** The search's landmark: "Find master templates". */
  label: string;
  search: { name: string; pageSize: number };
  keep: Kept;
  result: { total: number; page: number; pageSize: number };
  /** The pages' landmark: "Pages of master templates". */
  pagesLabel: string;
  children: React.ReactNode;
}) {
  const here = useLocation().pathname;
  return (
    <div className="flex flex-col gap-4">
      <ListSearchForm
        inForm
        action={here}
        label={label}
        sort="name"
        defaultSort="name"
        pageSize={search.pageSize}
        pageSizeId={`${formId}-page-size`}
        keep={keep}
        clearSubmits
        filtered={Boolean(search.name)}
        clearLabel="Clear search"
      >
        <SearchField id={`${formId}-search`} label="Template name contains" value={search.name} />
      </ListSearchForm>
      {children}
      {result.total > 0 ? (
        <Pagination label={pagesLabel} page={result.page} pageSize={result.pageSize} total={result.total} noun={["template", "templates"]} form={formId} />
      ) : null}
    </div>
  );
}

/**
 * The one form of a page of TickedTemplates, around all of the page's fields and buttons: posted to this URL with
 * its search (the action redirects to the page asked for, or answers the post button's intent). Its fields are
 * never restored by the browser after Back (autocomplete off): the page shows what its URL carries. The controls
 * also name it in their `form` attribute, but text browsers (w3m, lynx) ignore that attribute: a checkbox or a
 * button outside the form element was not there at all for them, and neither "Assign templates" nor "Start the
 * run" could be pressed.
 */
export function TicksForm({ id, className, children }: { id: string; className?: string; children: React.ReactNode }) {
  const postAction = useFormAction();
  return (
    <Form id={id} method="post" action={postAction} autoComplete="off" className={className}>
      {children}
    </Form>
  );
}

/**
 * TickedTemplates' post (give it its `intent`): submits its form to this URL with its search (useFormAction), so
 * that a refusal shows the same page and ticks.
 */
export function TicksPostButton({ form, ...props }: Omit<React.ComponentProps<typeof StatusButton>, "type" | "formMethod" | "formAction"> & { form: string }) {
  const postAction = useFormAction();
  return <StatusButton type="submit" form={form} formMethod="post" formAction={postAction} {...props} />;
}

/** How many names namedTicks spells out before "and 3 more". */
const NAMED_TICKS = 3;

/**
 * The ticks of other pages by name, for the sentence that counts them: "“Alpha”, “Bravo”, “Charlie” and 2 more", the
 * names as the data API found them (`named`, in its order; a tick it did not find, removed meanwhile, is counted only).
 * Empty when it found none.
 */
export function namedTicks(ids: readonly string[], named: readonly { id: string; name: string }[]): string {
  const ticked = new Set(ids);
  const names = named.filter((n) => ticked.has(n.id)).map((n) => `“${n.name}”`);
  if (!names.length) return "";
  // All of them when "and 1 more" would take the place of the last name.
  const shown = names.length === ids.length && names.length <= NAMED_TICKS + 1 ? names : names.slice(0, NAMED_TICKS);
  const list = shown.length < ids.length ? [...shown, `${ids.length - shown.length} more`] : shown;
  return list.length > 1 ? `${list.slice(0, -1).join(", ")} and ${list.at(-1)}` : list[0]!;
}
