import { DEFAULT_PAGE_SIZE } from "../../contracts/values/common";

/**
 * What every paginated list reads from its URL (GET forms and links, so no JavaScript is needed):
 * the sort, the page and the page size. The loaders read them with list-search.server.ts; the page's
 * search form and pagination use what is here.
 */

export type ListPaging<Sort extends string> = { sort: Sort; page: number; pageSize: number };

/** The URL parameters of a list's page and page size. */
export type PagingKeys = { page: string; pageSize: string };
export const PAGING_KEYS: PagingKeys = { page: "page", pageSize: "pageSize" };
/**
 * The people picker's ("Add a user", a SQL credential's User), beside the page's own list, which
 * keeps `page` and `pageSize`; its search is `name` (name or e-mail contains).
 */
export const PEOPLE_PAGING_KEYS: PagingKeys = { page: "usersPage", pageSize: "usersPageSize" };

/** The people picker's search as its loader read it (list-search.server.ts readPeopleSearch). */
export type PeopleSearch = ListPaging<"name"> & { name: string };

/** A list's page and page size as URL parameters under `keys`, the defaults left out (`defaultSize` as its loader's readPage has it). */
export function pagingParams(
  keys: PagingKeys,
  { page, pageSize }: { page: number; pageSize: number },
  defaultSize: number = DEFAULT_PAGE_SIZE,
): Record<string, number | undefined> {
  return { [keys.page]: page === 1 ? undefined : page, [keys.pageSize]: pageSize === defaultSize ? undefined : pageSize };
}

/** The URL parameters of the people picker at `page` (defaults left out), for a link that keeps or moves it. */
export function peopleSearchParams(search: PeopleSearch, page = search.page): Record<string, string | number | undefined> {
  return { name: search.name || undefined, ...pagingParams(PEOPLE_PAGING_KEYS, { page, pageSize: search.pageSize }) };
}

/** The number of pages `total` items fill (at least one, so "page 1 of 1" for an empty list). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
