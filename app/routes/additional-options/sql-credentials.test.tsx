/**
 * The SQL Credentials page as a browser gets it: the create form's expiry date offers only the days
 * the data API accepts (the loader's `expiry`, from lastExpiryDay), so the browser's date picker stops
 * at the limit rather than the server refusing it after the submit.
 */
import { describe, expect, it } from "vitest";
import { renderPage } from "~/test/render-page";
import SqlCredentials from "./sql-credentials";

describe("creating a SQL credential", () => {
  const page = "/additional-options/sql-credentials/users";
  const loaderData = {
    companyId: "c1",
    companyName: "Acme Health",
    search: { sort: "-createdAt", page: 1, pageSize: 10 },
    credentials: { items: [], total: 0, page: 1, pageSize: 10 },
    people: [],
    expiry: { min: "2026-11-27", max: "2027-11-28" },
  };

  it("offers expiry dates from today to the last day the data API accepts", () => {
    const html = renderPage(page, `${page}?companyId=c1`, SqlCredentials, loaderData);
    expect(html).toMatch(/<input id="create-credential-expiresOn"[^>]*type="date"[^>]*min="2026-11-27"[^>]*max="2027-11-28"/);
  });
});
