import { DEFAULT_PAGE_SIZE } from "../../../contracts/values/common";
import { useState } from "react";
import { Link, useLocation } from "react-router";
import type { TemplateSummary } from "../../../contracts/templates";
import { MAX_TEMPLATES_ASSIGNED_AT_ONCE } from "../../../contracts/values/templates";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { PastTheEnd } from "~/components/ui/pagination";
import { useCompanyHref } from "~/lib/company-href";
import type { ListPaging } from "~/lib/list-search";
import { namedTicks, TickedTemplates, TicksForm, TicksPostButton } from "./ticked-templates";

/**
 * What "Assign templates" was asked for (readAssignableSearch): a name contained, a page and its size,
 * and the templates ticked on any page (`selected`), cut at MAX_TEMPLATES_ASSIGNED_AT_ONCE, less those
 * that can no longer be assigned (assignableTemplates), the company's of them named in `leftOut`, the
 * others' names in `named`.
 */
export type AssignableSearch = ListPaging<"name"> & {
  name: string;
  selected: string[];
  selectionCapped: boolean;
  leftOut: string[];
  named: { id: string; name: string }[];
};

type TemplatePage = { items: readonly TemplateSummary[]; total: number; page: number; pageSize: number };

/** The one form of the page: its search, ticks, page buttons and assign button submit it, each from its place. */
const FORM_ID = "assign-templates";

const templates = (n: number) => `${n} ${n === 1 ? "template" : "templates"}`;

/**
 * "Assign templates": a page of the Available master templates the workspace does not hold yet, found
 * by name, each a checkbox, and the button. Used by a workspace's assigned/add page and by its
 * wizard's last step. Each chosen template is copied into the workspace with its levels and scripts.
 *
 * The ticks outlive paging and searching without JavaScript (TickedTemplates): they travel in the URL as
 * `selected`, repeated, and the assign button posts them all. Only "Clear selection", a link, drops them all.
 */
export function AssignTemplatesForm({
  search,
  result,
  errors,
  ticked,
  noun,
}: {
  search: AssignableSearch;
  result: TemplatePage;
  errors: readonly string[];
  /** The ticks of a refused post (assignFromForm's `selected`): the page shows them again as they were. */
  ticked?: readonly string[];
  noun: string;
}) {
  const pending = useIntentPending("assign");
  const location = useLocation();
  const here = location.pathname;
  const href = useCompanyHref();
  const listed = new Set(result.items.map((t) => t.id));
  const elsewhere = search.selected.filter((id) => !listed.has(id));
  const names = namedTicks(elsewhere, search.named);
  // ": “Alpha” and “Bravo”": which are ticked on other pages, after their count.
  const elsewhereNamed = names ? `: ${names}` : "";
  const query = {
    name: search.name || undefined,
    page: search.page === 1 ? undefined : search.page,
    pageSize: search.pageSize === DEFAULT_PAGE_SIZE ? undefined : search.pageSize,
  };
  return (
    <TicksForm id={FORM_ID}>
      <TickedTemplates
        formId={FORM_ID}
        label="Find master templates"
        search={search}
        keep={{ selected: elsewhere }}
        result={result}
        pagesLabel="Pages of master templates"
      >
        {errors.length ? <RefusalAlert refusal={errors}>{errors.join(" ")}</RefusalAlert> : null}
        {search.selectionCapped ? (
          <p className="text-sm">
            At most {MAX_TEMPLATES_ASSIGNED_AT_ONCE} templates can be assigned at once: the ticks past the {MAX_TEMPLATES_ASSIGNED_AT_ONCE}th were dropped.
          </p>
        ) : null}
        {search.leftOut.map((name) => (
          <p key={name} className="text-sm">{`“${name}” is no longer available to assign; it was left out.`}</p>
        ))}
        {result.total === 0 ? (
          <p className="text-sm">
            {search.name
              ? `No Available master template left to assign has a name containing “${search.name}”.`
              : `No Available master template is left to assign. Make one available on the Master Templates page (a Draft template cannot be assigned yet), or create a template in this ${noun}.`}
          </p>
        ) : result.items.length === 0 ? (
          <PastTheEnd page={result.page} />
        ) : null}
        {result.items.length || elsewhere.length ? (
          <div className="flex flex-col gap-4">
            {result.items.length ? (
              <TemplateChoices
                key={location.search}
                items={result.items}
                selected={ticked ?? search.selected}
                elsewhere={elsewhere.length}
                named={elsewhereNamed}
              />
            ) : null}
            {!result.items.length ? <p className="text-sm">{`${templates(elsewhere.length)} selected on other pages${elsewhereNamed}.`}</p> : null}
            <div className="flex flex-wrap items-center gap-4">
              <TicksPostButton form={FORM_ID} name="intent" value="assign" pending={pending}>
                Assign templates
              </TicksPostButton>
              {search.selected.length ? (
                <Link to={href(here, query)} className="text-sm text-brand hover:underline">
                  Clear selection
                </Link>
              ) : null}
            </div>
          </div>
        ) : null}
      </TickedTemplates>
    </TicksForm>
  );
}

/**
 * This page's checkboxes, and how many are ticked in all ("3 templates selected, 2 on other pages"),
 * counted again as the user ticks when JavaScript runs. Keyed by the URL's search: a new page, search
 * or "Clear selection" starts from the URL's ticks, a refused post keeps the user's.
 */
function TemplateChoices({
  items,
  selected,
  elsewhere,
  named,
}: {
  items: readonly TemplateSummary[];
  selected: readonly string[];
  elsewhere: number;
  /** ": “Alpha” and “Bravo”", those on other pages by name. */
  named: string;
}) {
  const [ticked, setTicked] = useState(() => new Set(selected));
  const tick = (id: string, on: boolean) =>
    setTicked((before) => {
      const after = new Set(before);
      if (on) after.add(id);
      else after.delete(id);
      return after;
    });
  const here = items.filter((t) => ticked.has(t.id)).length;
  return (
    <>
      <fieldset>
        <legend className="text-sm font-medium">Available master templates</legend>
        <ul className="mt-2 flex flex-col gap-2">
          {items.map((t) => (
            <li key={t.id}>
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  form={FORM_ID}
                  name="selected"
                  value={t.id}
                  defaultChecked={selected.includes(t.id)}
                  onChange={(e) => tick(t.id, e.currentTarget.checked)}
                  className="mt-0.5 size-4 accent-brand"
                />
                <span>
                  <span className="font-medium">{t.name}</span> · {t.type}, {t.levelCount} {t.levelCount === 1 ? "level" : "levels"}, {t.scriptCount}{" "}
                  {t.scriptCount === 1 ? "script" : "scripts"}
                  {t.description ? <span className="block text-xs text-muted-foreground">{t.description}</span> : null}
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <p aria-live="polite" className="text-sm">
        {`${templates(here + elsewhere)} selected${elsewhere ? `, ${elsewhere} on other ${elsewhere === 1 ? "page" : "pages"}${named}` : ""}.`}
      </p>
    </>
  );
}
