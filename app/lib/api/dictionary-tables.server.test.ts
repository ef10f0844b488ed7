import { describe, expect, it } from "vitest";
import type { ReviewHeader } from "../../../contracts/dictionary";
import { loadReviewPage, REVIEW_PROBLEMS_PAGE_SIZE, REVIEW_TABLES_PAGE_SIZE } from "./dictionary-tables.server";

/** The pages loadReviewPage asks the data API for, its tables' and its problems', at the review page's URL query. */
async function asked(query: string) {
  const pages: Record<string, unknown> = {};
  const page = (list: string) => async (_id: string, paging: { page: number; pageSize: number }) => {
    pages[list] = paging;
    return { items: [], total: 0, ...paging };
  };
  const endpoints = { getReview: async () => ({}) as ReviewHeader, reviewTables: page("tables"), reviewProblems: page("problems") };
  await loadReviewPage(endpoints as unknown as Parameters<typeof loadReviewPage>[0], "r1", new URLSearchParams(query));
  return pages;
}

describe("loadReviewPage", () => {
  it("asks each list at its own default size, and both at the size the URL chose (one list shows: a file with problems has no tables)", async () => {
    expect(await asked("review=r1")).toEqual({
      tables: { page: 1, pageSize: REVIEW_TABLES_PAGE_SIZE },
      problems: { page: 1, pageSize: REVIEW_PROBLEMS_PAGE_SIZE },
    });
    expect(await asked("review=r1&page=2&pageSize=100")).toEqual({ tables: { page: 2, pageSize: 100 }, problems: { page: 2, pageSize: 100 } });
    // A size not offered (or page 0) is the default, as every list reads it, not a refusal of the page.
    expect(await asked("page=0&pageSize=7")).toEqual({ tables: { page: 1, pageSize: 10 }, problems: { page: 1, pageSize: 50 } });
  });
});
