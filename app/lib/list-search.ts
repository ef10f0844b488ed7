import { PAGE_SIZES } from "../../contracts/values/common";

/**
 * What every paginated list reads from its URL (GET forms and links, so no JavaScript is needed):
 * the sort, the page and the page size. The loaders read them with list-search.server.ts; the page's
 * search form and pagination use what is here.
 */
export const DEFAULT_PAGE_SIZE: (typeof PAGE_SIZES)[number] = 25;

export type ListPaging<Sort extends string> = { sort: Sort; page: number; pageSize: number };

/** The number of pages `total` items fill (at least one, so "page 1 of 1" for an empty list). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
