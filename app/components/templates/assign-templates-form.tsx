import { Form, useLocation } from "react-router";
import type { TemplateSummary } from "../../../contracts/templates";
import { StatusButton } from "~/components/forms/status-button";
import { useIntentPending } from "~/components/projects/use-intent-pending";
import { RefusalAlert } from "~/components/forms/fields";
import { ListSearchForm } from "~/components/ui/list-search-form";
import { Pagination, PastTheEnd } from "~/components/ui/pagination";
import { SearchField } from "~/components/ui/search-field";
import { useCompanyHref } from "~/lib/company-href";
import { DEFAULT_PAGE_SIZE, type ListPaging } from "~/lib/list-search";

/** What "Assign templates" was asked for (readAssignableSearch): a name contained, a page and its size. */
export type AssignableSearch = ListPaging<"name"> & { name: string };

type TemplatePage = { items: readonly TemplateSummary[]; total: number; page: number; pageSize: number };

/**
 * "Assign templates": a page of the Available master templates the workspace does not hold yet, found
 * by name (a GET form and Previous/Next links: the URL holds the search), each a checkbox (one
 * repeated field, `templateIds`), and the button. Used by a workspace's assigned/add page and by its
 * wizard's last step. Each chosen template is copied into the workspace with its levels and scripts.
 */
export function AssignTemplatesForm({
  search,
  result,
  errors,
  noun,
}: {
  search: AssignableSearch;
  result: TemplatePage;
  errors: readonly string[];
  noun: string;
}) {
  const pending = useIntentPending("assign");
  const here = useLocation().pathname;
  const href = useCompanyHref();
  const pageHref = (page: number) =>
    href(here, {
      name: search.name || undefined,
      page: page === 1 ? undefined : page,
      pageSize: search.pageSize === DEFAULT_PAGE_SIZE ? undefined : search.pageSize,
    });
  return (
    <div className="flex flex-col gap-4">
      <ListSearchForm
        action={here}
        label="Find master templates"
        sort="name"
        defaultSort="name"
        pageSize={search.pageSize}
        pageSizeId="assign-templates-page-size"
        filtered={Boolean(search.name)}
        clearLabel="Clear search"
      >
        <SearchField id="assign-templates-search" label="Template name contains" value={search.name} />
      </ListSearchForm>
      {errors.length ? <RefusalAlert refusal={errors}>{errors.join(" ")}</RefusalAlert> : null}
      {result.total === 0 ? (
        <p className="text-sm">
          {search.name
            ? `No Available master template left to assign has a name containing “${search.name}”.`
            : `No Available master template is left to assign. Make one available on the Master Templates page (a Draft template cannot be assigned yet), or create a template in this ${noun}.`}
        </p>
      ) : result.items.length === 0 ? (
        <PastTheEnd page={result.page} />
      ) : (
        <Form method="post" className="flex flex-col gap-4">
          <input type="hidden" name="intent" value="assign" />
          <fieldset>
            <legend className="text-sm font-medium">Available master templates</legend>
            <ul className="mt-2 flex flex-col gap-2">
              {result.items.map((t) => (
                <li key={t.id}>
                  <label className="flex items-start gap-2 text-sm">
                    <input type="checkbox" name="templateIds" value={t.id} className="mt-0.5 size-4 accent-brand" />
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
          <div>
            <StatusButton type="submit" pending={pending}>
              Assign templates
            </StatusButton>
          </div>
        </Form>
      )}
      {result.total > 0 ? (
        <Pagination
          label="Pages of master templates"
          page={result.page}
          pageSize={result.pageSize}
          total={result.total}
          noun={["template", "templates"]}
          href={pageHref}
        />
      ) : null}
    </div>
  );
}
