/**
 * The SQL Credentials page as a browser gets it: the create form's expiry date offers only the days
 * the data API accepts (the loader's `expiry`, from lastExpiryDay), so the browser's date picker stops
 * at the limit rather than the server refusing it after the submit.
 */
import { describe, expect, it } from "vitest";
import { renderPage } from "~/test/render-page";
import SqlCredentials from "./sql-credentials";

const page = "/additional-options/sql-credentials/users";
const loaderData = {
  companyId: "c1",
  companyName: "Acme Health",
  search: { sort: "-createdAt", page: 1, pageSize: 10 },
  credentials: { items: [], total: 0, page: 1, pageSize: 10 },
  people: { items: [], total: 0, page: 1, pageSize: 25 },
  peopleSearch: { name: "", sort: "name", page: 1, pageSize: 25 },
  expiry: { min: "2026-11-27", max: "2027-11-28" },
};

describe("creating a SQL credential", () => {
  it("offers expiry dates from today to the last day the data API accepts", () => {
    const html = renderPage(page, `${page}?companyId=c1`, SqlCredentials, loaderData);
    expect(html).toMatch(/<input id="create-credential-expiresOn"[^>]*type="date"[^>]*min="2026-11-27"[^>]*max="2027-11-28"/);
  });

  it("offers a page of the people found in its User select, found and paged through the URL, keeping the credentials list's page", () => {
    const ann = { id: "u1", name: "Ann Analyst", email: "analyst@demo.test" };
    const html = renderPage(page, `${page}?companyId=c1&page=2&name=an`, SqlCredentials, {
      ...loaderData,
      search: { sort: "-createdAt", page: 2, pageSize: 10 },
      credentials: { items: [], total: 12, page: 2, pageSize: 10 },
      people: { items: [ann], total: 30, page: 1, pageSize: 25 },
      peopleSearch: { name: "an", sort: "name", page: 1, pageSize: 25 },
    });
    expect(html).toMatch(/<option value="u1">Ann Analyst \(analyst@demo.test\)<\/option>/);
    expect(html).toContain("Offers 1 of the 30 users found");
    // The search form keeps the credentials list's page and page size as hidden fields.
    const search = html.slice(html.indexOf('aria-label="Find users"'));
    expect(search.slice(0, search.indexOf("</form>"))).toMatch(/name="page" value="2".*name="pageSize" value="10".*name="name"[^>]*value="an"/s);
    // The people's Next keeps the list where it is; the list's Previous keeps the people found.
    expect(html).toMatch(/aria-label="Pages of the company&#x27;s users".*href="[^"]*\?companyId=c1&amp;page=2&amp;pageSize=10&amp;name=an&amp;usersPage=2"/s);
    expect(html).toContain(`href="${page}?companyId=c1&amp;name=an&amp;pageSize=10&amp;page=1"`);
  });
});

describe("the SQL credentials list", () => {
  it("filters by status in a labelled select of the status GET parameter, any status first, showing the one chosen", () => {
    const page = "/additional-options/sql-credentials/users";
    const html = renderPage(page, `${page}?companyId=c1&status=Revoked`, SqlCredentials, {
      companyId: "c1",
      companyName: "Acme Health",
      search: { sort: "-createdAt", page: 1, pageSize: 10, status: "Revoked" },
      credentials: { items: [], total: 0, page: 1, pageSize: 10 },
      people: { items: [], total: 0, page: 1, pageSize: 25 },
      peopleSearch: { name: "", sort: "name", page: 1, pageSize: 25 },
      expiry: { min: "2026-11-27", max: "2027-11-28" },
    });
    expect(html).toMatch(
      /<label for="credential-status"[^>]*>Status<\/label><select id="credential-status" name="status"[^>]*><option value="">Any status<\/option>.*<option value="Revoked" selected="">Revoked<\/option>/s,
    );
  });
});

describe("a Revoke link whose credential the list cannot show", () => {
  it("says why at the top, and shows no confirmation", () => {
    const message = "This link names no SQL credential of this company: nothing was revoked.";
    const html = renderPage(page, `${page}?companyId=c1&revoke=x`, SqlCredentials, { ...loaderData, revokeMissing: message });
    expect(html).toMatch(new RegExp(`role="alert"[^>]*>${message}</div>`));
    expect(html).not.toContain("Revoke credential");
  });
});
