import { CLEAR_SEARCH, DEFAULT_PAGE_SIZE } from "../../contracts/values/common";
import { pageQuerySchema } from "../../contracts/common";
import { PAGING_KEYS, PEOPLE_PAGING_KEYS, type ListPaging, type PagingKeys, type PeopleSearch } from "./list-search";

/**
 * A list's sort, page and page size as its loader reads them from the URL. A value the contract
 * refuses (an unknown sort, a page size not offered, page 0) falls back to its default instead of
 * failing the page. Server-only: the contract's schema stays out of the browser.
 */
export function readPaging<Sort extends string>(
  params: URLSearchParams,
  sorts: readonly Sort[],
  defaultSort: Sort,
  keys: PagingKeys = PAGING_KEYS,
): ListPaging<Sort> {
  const sort = params.get("sort");
  return { sort: sorts.includes(sort as Sort) ? (sort as Sort) : defaultSort, ...readPage(params, keys) };
}

/**
 * The page and page size alone, for a list in one order (the translations, newest first); read as readPaging reads them.
 * `defaultSize` is for a list whose rows are large or few (a review's table cards, 10), as pagingParams takes it.
 */
export function readPage(params: URLSearchParams, keys: PagingKeys = PAGING_KEYS, defaultSize: number = DEFAULT_PAGE_SIZE): Omit<ListPaging<never>, "sort"> {
  const { page, pageSize } = pageQuerySchema.shape;
  const parsedPage = page.safeParse(params.get(keys.page) ?? undefined);
  const parsedSize = pageSize.safeParse(params.get(keys.pageSize) ?? defaultSize);
  return { page: parsedPage.success ? parsedPage.data : 1, pageSize: parsedSize.success ? parsedSize.data : defaultSize };
}

/**
 * Where a search form's "Clear search" submit (CLEAR_SEARCH) goes: the same URL without the search `key`, the
 * marker and the page, keeping everything else the form sent (the list's ticks, its page size). Null for any other URL.
 */
export function clearedSearchHref(url: URL, key = "name", pageKey = PAGING_KEYS.page): string | null {
  if (url.searchParams.get(CLEAR_SEARCH.name) !== CLEAR_SEARCH.value) return null;
  const params = new URLSearchParams(url.searchParams);
  for (const dropped of [CLEAR_SEARCH.name, key, pageKey]) params.delete(dropped);
  const search = params.toString();
  return search ? `${url.pathname}?${search}` : url.pathname;
}

/**
 * A filter's ticked values (`status=Active&status=Inactive`): those in `allowed` only, each once, in the order the URL gives
 * them. A value the contract would refuse (an old link, a hand-edited URL) is left out instead of failing the page.
 */
export function readChoices<V extends string>(params: URLSearchParams, key: string, allowed: readonly V[]): V[] {
  return [...new Set(params.getAll(key).filter((value): value is V => (allowed as readonly string[]).includes(value)))];
}

/** A "name contains" search box's value, as the contracts accept it (trimmed, at most `max` characters: 100 for a name). */
export function readContains(params: URLSearchParams, key = "name", max = 100): string {
  return (params.get(key) ?? "").trim().slice(0, max);
}

/** The people picker's search, page and page size (PEOPLE_PAGING_KEYS), beside the page's own list. */
export function readPeopleSearch(params: URLSearchParams): PeopleSearch {
  return { name: readContains(params), ...readPaging(params, ["name"], "name", PEOPLE_PAGING_KEYS) };
}
