import { pageQuerySchema } from "../../contracts/common";
import { DEFAULT_PAGE_SIZE, type ListPaging } from "./list-search";

/**
 * A list's sort, page and page size as its loader reads them from the URL. A value the contract
 * refuses (an unknown sort, a page size not offered, page 0) falls back to its default instead of
 * failing the page. Server-only: the contract's schema stays out of the browser.
 */
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
