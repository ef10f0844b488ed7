import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import type { ReviewHeader } from "../../../contracts/dictionary";
import { pageSizeChoice, previousHref } from "~/test/page-size-form";
import { renderPage } from "~/test/render-page";
import { PendingReviewNotice } from "./pending-review-notice";
import { ReviewActions, ReviewTables } from "./review-tables";

const header: ReviewHeader = {
  id: "r1",
  fileName: "big.csv",
  createdAt: "2026-11-23T10:00:00.000Z",
  baseVersion: 1,
  mode: "replace",
  rowCount: 120000,
  canApply: false,
  errorCount: 0,
  tableCount: 0,
  changingTableCount: 0,
  addedTableCount: 0,
  status: "parsing",
};
const empty = { items: [], total: 0, page: 1, pageSize: 10 };

const render = (review: ReviewHeader) =>
  renderToStaticMarkup(
    <MemoryRouter initialEntries={["/review?review=r1"]}>
      <ReviewTables review={review} tables={empty} problems={empty} />
    </MemoryRouter>,
  );

describe("ReviewTables", () => {
  it("while the file is being read: the rows read so far, announced, and a refresh that works without JavaScript", () => {
    const html = render(header);
    expect(html).toContain('role="status"');
    expect(html).toContain("120,000 rows so far");
    expect(html).toMatch(/<meta http-equiv="refresh" content="2"\/?>/);
  });

  it("once ready: the summary, and no refresh", () => {
    const html = render({ ...header, status: "ready", rowCount: 3, tableCount: 1 });
    expect(html).toContain("3 rows");
    expect(html).not.toContain("http-equiv");
  });

  it("counts the tables the file names, also when its problems leave none to review: never 0 tables for a file that names some", () => {
    const problems = { items: [{ row: 3, column: "type", message: "Unknown type 'varchar2'" }], total: 4, page: 1, pageSize: 50 };
    const review = { ...header, status: "ready" as const, rowCount: 5, tableCount: 1, errorCount: 4 };
    const withProblems = renderPage("/review", "/review?review=r1", () => <ReviewTables review={review} tables={empty} problems={problems} />, null);
    expect(withProblems).toContain("5 rows, 1 table, 0 to change.");
    // The second page of a clean review's tables: the file's count, not the page's.
    const secondPage = { items: [], total: 12, page: 2, pageSize: 10 };
    const clean = { ...header, status: "ready" as const, rowCount: 40, tableCount: 12, changingTableCount: 3, canApply: true };
    expect(renderPage("/review", "/review?review=r1&page=2", () => <ReviewTables review={clean} tables={secondPage} problems={empty} />, null)).toContain(
      "40 rows, 12 tables, 3 to change.",
    );
  });

  it("a page past the end of the tables or of the problems says there is nothing on it, above the way back", () => {
    const review = { ...header, status: "ready" as const, rowCount: 90, tableCount: 30 };
    const pastTables = renderPage(
      "/review",
      "/review?review=r1&page=4",
      () => <ReviewTables review={review} tables={{ items: [], total: 30, page: 4, pageSize: 10 }} problems={empty} />,
      null,
    );
    expect(pastTables).toContain("There is nothing on page 4. Go back with Previous.");
    const problems = { items: [], total: 11, page: 3, pageSize: 10 };
    const pastProblems = renderPage(
      "/review",
      "/review?review=r1&page=3",
      () => <ReviewTables review={{ ...review, errorCount: 11 }} tables={empty} problems={problems} />,
      null,
    );
    expect(pastProblems).toContain("There is nothing on page 3. Go back with Previous.");
    const onAPage = renderPage(
      "/review",
      "/review?review=r1",
      () => <ReviewTables review={review} tables={{ items: [], total: 0, page: 1, pageSize: 10 }} problems={empty} />,
      null,
    );
    expect(onAPage).not.toContain("There is nothing on page");
  });

  it("a file with many problems: their page size in a GET form that keeps the review, and page links that keep the size", () => {
    const problem = { row: 12, column: "Type", message: "Unknown type varchar3" };
    const problems = { items: [problem], total: 11, page: 2, pageSize: 10 };
    const review = { ...header, status: "ready" as const, errorCount: 11, rowCount: 11 };
    const html = renderPage("/review", "/review?review=r1&page=2&pageSize=10", () => <ReviewTables review={review} tables={empty} problems={problems} />, null);
    expect(pageSizeChoice(html, "Problems page size", "review-page-size")).toEqual({
      labelled: true,
      sizes: ["10*", "25", "50", "100"],
      sent: [
        ["review", "r1"],
        ["pageSize", "(chosen)"],
      ],
    });
    expect(previousHref(html)).toBe("/review?review=r1&page=1&pageSize=10");
  });

  it("a file with thousands of problems counts them as the rest of the page does, with a thousands separator", () => {
    const problems = { items: [{ row: 2, column: "type", message: "Unknown type 'money'" }], total: 200000, page: 1, pageSize: 50 };
    const review = { ...header, status: "ready" as const, errorCount: 200000, rowCount: 200000 };
    const html = renderPage(
      "/review",
      "/review?review=r1",
      () => (
        <>
          <ReviewTables review={review} tables={empty} problems={problems} />
          <ReviewActions review={review} />
        </>
      ),
      null,
    );
    expect(html).toContain("200,000 problems in the file</h3>");
    expect(html).toContain("The file has 200,000 problems (listed above)");
    expect(html).not.toContain("200000");
    // And the notice that links back to the review from the dictionary's pages.
    const notice = renderPage(
      "/upload",
      "/upload",
      () => (
        <PendingReviewNotice
          review={{ fileName: "big.csv", createdAt: header.createdAt, errorCount: 200000, uploaded: "2026-11-23 10:00 UTC" }}
          to={{ path: "/review", search: { review: "r1" } }}
        />
      ),
      null,
    );
    expect(notice).toContain("big.csv, uploaded");
    expect(notice).toContain(", 200,000 problems in the file.");
  });
});
