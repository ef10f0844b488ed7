import { PAGE_SIZES, pageQuerySchema } from "../../contracts/common";

/**
 * What every paginated list reads from its URL (GET forms and links, so no JavaScript is needed):
 * the sort, the page and the page size. A value the contract refuses (an unknown sort, a page size
 * not offered, page 0) falls back to its default instead of failing the page.
 */
export const DEFAULT_PAGE_SIZE: (typeof PAGE_SIZES)[number] = 25;

export type ListPaging<Sort extends string> = { sort: Sort; page: number; pageSize: number };

export function readPaging<Sort extends string>(params: URLSearchParams, sorts: readonly Sort[], defaultSort: Sort): ListPaging<Sort> {
  const { page, pageSize } = pageQuerySchema.shape;
  const sort = params.get("sort");
  const parsedPage = page.safeParse(params.get("page") ?? undefined);
  const parsedSize = pageSize.safeParse(params.get("pageSize") ?? undefined);
  return {
    sort: sorts.includes(sort as Sort) ? (sort as Sort) : defaultSort,
    page: parsedPage.success ? parsedPage.data : 1,
    pageSize: parsedSize.success ? parsedSize.data : DEFAULT_PAGE_SIZE,
  };
}

/** A "name contains" search box's value, as the contracts accept it (trimmed, at most 100 characters). */
export function readContains(params: URLSearchParams, key = "name"): string {
  return (params.get(key) ?? "").trim().slice(0, 100);
}

/** The number of pages `total` items fill (at least one, so "page 1 of 1" for an empty list). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
