/**
 * A load's table page, rendered on the server as a browser without JavaScript gets it: its rejected
 * rows paged through the URL, their page size chosen as every list's is.
 */
import { describe, expect, it } from "vitest";
import { pageSizeChoice } from "~/test/page-size-form";
import { renderPage } from "~/test/render-page";
import HistoryTable from "./databases-history-table";

const here = "/migration/projects/p1/databases/history/h1/table/Customers/details";
const table = { table: "Customers", fileName: "Customers.csv", rowsRead: 20, rowsLoaded: 9, rowsRejected: 11 };
const loaderData = {
  projectId: "p1",
  entry: { id: "h1", status: "Completed", type: "Load", tables: [table] },
  table,
  rejected: { items: [{ line: 21, column: "Id", value: "x", reason: "Not a whole number" }], page: 2, pageSize: 10, total: 11 },
};

describe("a load's rejected rows", () => {
  it("choose their page size in a GET form, and their page links keep it", () => {
    const html = renderPage(here, `${here}?page=2&pageSize=10`, HistoryTable, loaderData);
    expect(pageSizeChoice(html, "Rejected rows page size", "rejected-page-size")).toEqual({
      labelled: true,
      sizes: ["10*", "25", "50", "100"],
      sent: [["pageSize", "(chosen)"]],
    });
    expect(html).toContain("Page 2 of 2 · 11 rejected rows");
    expect(html).toMatch(/<a [^>]*rel="prev"[^>]*href="\/migration\/projects\/p1\/databases\/history\/h1\/table\/Customers\/details\?pageSize=10"/);
  });

  it("are listed with the row, the column, the value and why", () => {
    const html = renderPage(here, `${here}?page=2&pageSize=10`, HistoryTable, loaderData);
    const table = html.slice(html.indexOf('aria-label="Rejected rows"'), html.indexOf("</table>", html.indexOf('aria-label="Rejected rows"')));
    const rows = [...table.matchAll(/<tr[^>]*>(.*?)<\/tr>/g)].map(([, row]) => [...row!.matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/g)].map(([, cell]) => cell));
    expect(rows).toEqual([
      ["Row", "Column", "Value", "Reason"],
      ["21", "Id", "x", "Not a whole number"],
    ]);
  });
});
