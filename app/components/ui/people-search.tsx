import { useCompanyHref } from "~/lib/company-href";
import { PEOPLE_PAGING_KEYS, peopleSearchParams, type PeopleSearch } from "~/lib/list-search";
import { ListSearchForm } from "./list-search-form";
import { Pagination } from "./pagination";
import { SearchField } from "./search-field";

type PageParams = Record<string, string | number | undefined>;

/**
 * The search of a people picker (a company of thousands): a GET form through the URL, by name or
 * e-mail, a page of them at a time; `keep`, the parameters of the page's own list, which it keeps.
 */
export function PeopleSearchForm({
  action,
  search,
  keep,
  id,
  className,
}: {
  action: string;
  search: PeopleSearch;
  keep: PageParams;
  /** Prefix of the form's field ids. */
  id: string;
  className?: string;
}) {
  return (
    <ListSearchForm
      action={action}
      label="Find users"
      sort={search.sort}
      defaultSort="name"
      pageSize={search.pageSize}
      pageSizeId={`${id}-page-size`}
      pageSizeName={PEOPLE_PAGING_KEYS.pageSize}
      keep={keep}
      filtered={Boolean(search.name)}
      className={className}
    >
      <SearchField id={`${id}-search`} label="Name or e-mail contains" value={search.name} placeholder="Name or e-mail…" />
    </ListSearchForm>
  );
}

/** The people picker's pages, as links that keep the page's own list where it is (`keep`). */
export function PeoplePagination({ here, search, total, keep }: { here: string; search: PeopleSearch; total: number; keep: PageParams }) {
  const href = useCompanyHref();
  return (
    <Pagination
      label="Pages of the company's users"
      page={search.page}
      pageSize={search.pageSize}
      total={total}
      noun={["user", "users"]}
      href={(page) => href(here, { ...keep, ...peopleSearchParams(search, page) })}
    />
  );
}
