/**
 * Removing a webhook takes a confirmation a link away (?remove=), rendered on the server as a page
 * without JavaScript gets it: one click removes nothing.
 */
import { describe, expect, it } from "vitest";
import { postedIntents, renderPage } from "~/test/render-page";
import Notifications from "./notifications";

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
});
