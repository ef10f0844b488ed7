/**
 * Removing a webhook, revoking a SQL credential and deleting a dictionary table take a confirmation a
 * link away (?remove=, ?revoke=, ?delete=: ConfirmCard), rendered on the server as a page without
 * JavaScript gets it: one click removes nothing, and Cancel goes back to the page as it was.
 */
import { describe, expect, it } from "vitest";
import { postedIntents, renderPage } from "~/test/render-page";
import ProjectTables from "../workspace/project/data-dictionary/tables";
import Notifications from "./notifications";
import SqlCredentials from "./sql-credentials";

describe("removing a webhook", () => {
  const page = "/additional-options/notifications";
  const webhook = (id: string, url: string) => ({ id, url, events: ["run.ended"], lockMinutes: null, createdAt: "2026-11-27T10:00:00.000Z", deliveries: [] });
  const loaderData = { companyName: "Acme Health", webhooks: [webhook("w1", "https://hooks.example.test/a"), webhook("w2", "https://hooks.example.test/b")] };
  const show = (search: string) => renderPage(page, `${page}${search}`, Notifications, loaderData);

  it("offers Remove as a link to its confirmation: no form on the page removes anything", () => {
    const html = show("?companyId=c1");
    expect(postedIntents(html)).not.toContain("remove");
    expect(html).toMatch(new RegExp(`<a[^>]*aria-label="Remove https://hooks.example.test/b"[^>]*href="${page}\\?companyId=c1&amp;remove=w2"`));
  });

  it("confirms the removal of that webhook only, with a Cancel that keeps the company", () => {
    const html = show("?companyId=c1&remove=w2");
    expect(html).toContain("Remove the webhook to https://hooks.example.test/b?");
    expect(html).not.toContain("Remove the webhook to https://hooks.example.test/a?");
    expect(postedIntents(html)).toContain("remove");
    expect(html).toMatch(/name="id" value="w2"/);
    expect(html).toMatch(new RegExp(`href="${page}\\?companyId=c1"[^>]*>Cancel<`));
  });

  it("says a refused removal or test at the top of the page, not in the Add form", () => {
    const refused = { form: "webhook", result: { status: "error", error: { "": ["Webhook not found."] } } };
    const html = renderPage(page, `${page}?companyId=c1`, Notifications, loaderData, refused);
    expect(html).toMatch(/<div role="alert"[^>]*>Webhook not found\.<\/div>/);
    const addForm = html.slice(html.indexOf('id="add-webhook"'));
    expect(addForm).not.toContain("Webhook not found.");
  });
});

describe("revoking a SQL credential", () => {
  const page = "/additional-options/sql-credentials/users";
  const credential = (id: string) => ({
    id,
    name: `Reporting ${id}`,
    login: `dtc_${id}`,
    userId: null,
    note: null,
    createdAt: "2026-11-27T10:00:00.000Z",
    expiresOn: "2027-01-31",
    lastUsedAt: null,
    status: "Active",
    databases: [],
  });
  const loaderData = {
    companyId: "c1",
    companyName: "Acme Health",
    search: { sort: "-createdAt", page: 2, pageSize: 10 },
    credentials: { items: [credential("k1"), credential("k2")], total: 12, page: 2, pageSize: 10 },
    people: { items: [], total: 0, page: 1, pageSize: 25 },
    peopleSearch: { name: "", sort: "name", page: 1, pageSize: 25 },
    expiry: { min: "2026-11-27", max: "2027-11-28" },
  };
  // The loader's `revoking`: the credential ?revoke= names, when the company has it and it is not revoked.
  const revoking = (search: string) => loaderData.credentials.items.find((c) => c.id === new URLSearchParams(search).get("revoke")) ?? null;
  const show = (search: string, actionData?: unknown) =>
    renderPage(page, `${page}${search}`, SqlCredentials, { ...loaderData, revoking: revoking(search) }, actionData);

  it("is a link to its confirmation, which asks for a reason and whose Cancel stays on the page of the list", () => {
    expect(postedIntents(show("?companyId=c1&page=2"))).not.toContain("revoke");
    expect(show("?companyId=c1&page=2")).toMatch(new RegExp(`<a[^>]*aria-label="Revoke dtc_k2"[^>]*href="${page}\\?companyId=c1&amp;page=2&amp;revoke=k2"`));
    const html = show("?companyId=c1&page=2&revoke=k2");
    expect(html).toContain("Revoke dtc_k2?");
    expect(postedIntents(html)).toContain("revoke");
    expect(html).toMatch(/<label for="revoke-reason"[^>]*>Reason<\/label><textarea[^>]*name="reason"/);
    expect(html).toMatch(new RegExp(`href="${page}\\?companyId=c1&amp;page=2"[^>]*>Cancel<`));
  });

  it("says a refusal in the confirmation, at its field", () => {
    const result = { status: "error", initialValue: { intent: "revoke", id: "k2", reason: "" }, error: { reason: ["Give a reason"] } };
    const html = show("?companyId=c1&revoke=k2", { result, form: "revoke" });
    expect(html).toMatch(/<section[^>]*aria-labelledby="revoke-heading"[^]*Give a reason[^]*Revoke credential[^]*<\/section>/);
  });

  it("says a refused revocation in the confirmation only, not in the row's Rotate, which posts the same id", () => {
    const result = { status: "error", initialValue: { intent: "revoke", id: "k2", reason: "Left" }, error: { "": ["This credential is already revoked."] } };
    const html = show("?companyId=c1&revoke=k2", { result, form: "revoke" });
    expect(html.split("This credential is already revoked.")).toHaveLength(2);
    expect(html).toMatch(/<section[^>]*aria-labelledby="revoke-heading"[^]*This credential is already revoked\.[^]*Revoke credential[^]*<\/section>/);
    // A rotation's refusal is said in its row, and in no confirmation.
    const rotation = { status: "error", initialValue: { intent: "rotate", id: "k2" }, error: { "": ["This credential is already revoked."] } };
    const rotated = show("?companyId=c1&revoke=k2", { result: rotation, form: "rotate" });
    expect(rotated.split("This credential is already revoked.")).toHaveLength(2);
    expect(rotated).toMatch(/id="rotate-k2"[^]*This credential is already revoked\.[^]*Rotate password/);
  });

  it("says at the top of the page a refusal whose form is gone: a revocation from a tab left open once another revoked it, a rotation of a credential not on this page", () => {
    // The page read again after the refused post: the credential is Revoked, so no confirmation is offered for it.
    const revoked = { ...loaderData, credentials: { ...loaderData.credentials, items: [credential("k1"), { ...credential("k2"), status: "Revoked" }] } };
    const result = {
      status: "error",
      initialValue: { intent: "revoke", id: "k2", reason: "Left" },
      error: { "": ["This SQL credential is already revoked."] },
    };
    const html = renderPage(page, `${page}?companyId=c1&revoke=k2`, SqlCredentials, revoked, { result, form: "revoke" });
    expect(html).not.toContain("Revoke dtc_k2?");
    expect(html.split("This SQL credential is already revoked.")).toHaveLength(2);
    expect(html).toMatch(/<div role="alert"[^>]*>This SQL credential is already revoked\.<\/div>/);
    const rotation = { status: "error", initialValue: { intent: "rotate", id: "k9" }, error: { "": ["SQL credential not found."] } };
    expect(show("?companyId=c1", { result: rotation, form: "rotate" })).toMatch(/<div role="alert"[^>]*>SQL credential not found\.<\/div>/);
  });
});

describe("deleting a dictionary table", () => {
  const page = "/migration/projects/p1/data-dictionary/data-definition/tables";
  const table = (id: string, name: string) => ({ id, name, description: null, columnCount: 3 });
  const loaderData = {
    projectId: "p1",
    companyId: "c1",
    version: 4,
    query: { name: "inv", page: 2, pageSize: 25 },
    page: { items: [table("t1", "Invoices"), table("t2", "InvoiceLines")], total: 27, page: 2, pageSize: 25 },
    canEdit: true,
    deleting: table("t2", "InvoiceLines"),
    pending: null,
  };

  it("confirms in a card whose Cancel keeps the search and the page, and says a stale version there", () => {
    const result = { status: "error", initialValue: { intent: "delete-table", tableId: "t2", version: "3" }, error: { "": ["This dictionary was changed."] } };
    const html = renderPage(page, `${page}?companyId=c1&name=inv&page=2&delete=t2`, ProjectTables, loaderData, { result });
    expect(html).toContain("Delete table InvoiceLines?");
    expect(html).toContain("The table and its 3 columns are removed from the dictionary.");
    expect(postedIntents(html)).toEqual(["delete-table"]);
    expect(html).toMatch(/name="tableId" value="t2"/);
    expect(html).toMatch(/name="version" value="4"/);
    expect(html).toMatch(/role="alert"[^>]*>This dictionary was changed.</);
    expect(html).toMatch(new RegExp(`href="${page}\\?companyId=c1&amp;name=inv&amp;page=2"[^>]*>Cancel<`));
    // Read as text (w3m, a page copied as text), the button and Cancel are two words, not "Delete tableCancel".
    expect(html.replace(/<[^>]+>/g, "")).toContain("Delete table Cancel");
    expect(html).toMatch(new RegExp(`aria-label="Delete table Invoices"[^>]*href="${page}\\?companyId=c1&amp;name=inv&amp;page=2&amp;delete=t1"`));
  });

  it("says, for a mapping project's table, that its value maps go with it from the file data structure", () => {
    const mappings = "/translations/mappings/p1/file-data-structure/data-definition/tables";
    const html = renderPage(mappings, `${mappings}?companyId=c1&delete=t2`, ProjectTables, loaderData);
    expect(html).toContain("Delete table InvoiceLines?");
    expect(html).toContain("The table, its 3 columns and their value maps are removed from the file data structure.");
  });

  it("says at the top a deletion refused because the table is gone (deleted from another tab), its confirmation gone with it", () => {
    const result = { status: "error", initialValue: { intent: "delete-table", tableId: "t2", version: "4" }, error: { "": ["Table not found."] } };
    const gone = { ...loaderData, page: { ...loaderData.page, items: [table("t1", "Invoices")], total: 26 }, deleting: null };
    const html = renderPage(page, `${page}?companyId=c1&name=inv&page=2&delete=t2`, ProjectTables, gone, { result });
    expect(html).not.toContain("Delete table InvoiceLines?");
    expect(html.split("Table not found.")).toHaveLength(2);
    expect(html).toMatch(/<div role="alert"[^>]*>Table not found\.<\/div>/);
  });
});
