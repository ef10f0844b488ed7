import { E2E } from "../../playwright.config";
import { signIn } from "./fixtures";
import { acme, DEMO, expect, test, withCompany } from "./sessions";
import { pressSidebarToggle } from "./shell-steps";

/**
 * The portal's Content-Security-Policy (a nonce per page for React Router's inline scripts) must not
 * cost the page its JavaScript: it still hydrates, navigates in place, and the sign-in and logout
 * round trips through the client portal (form-action) still work. Any CSP violation is a console
 * error, which the fixture turns into a failure; the listener below also names the directive.
 */
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
});

const violations = (page: import("@playwright/test").Page) => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);

test.describe("security headers, signed in", () => {
  test.use({ signedInAs: DEMO.analyst.email });

  test("a page answers with its CSP and the framing headers, and still hydrates", async ({ page }) => {
    const res = await page.goto(withCompany("/migration/projects", acme.id));
    expect(res?.status()).toBe(200);
    const headers = res!.headers();
    expect(headers["content-security-policy"]).toMatch(/frame-ancestors 'none'/);
    expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+'/);
    expect(headers["content-security-policy"]).toContain(`form-action 'self' ${E2E.clientPortal}`);
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toMatch(/same-origin|strict-origin-when-cross-origin/);
    expect(headers["cache-control"]).toBe("no-store");
    // The tab's icon is in the page (img-src allows data:): no /favicon.ico, which redirected to sign in.
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", /^data:image\/svg\+xml,%3Csvg%20/);

    // Hydrated: a sidebar link navigates in place (no new document: the marker survives).
    await page.evaluate(() => ((window as unknown as { __marker: string }).__marker = "same document"));
    const dataRequest = page.waitForRequest((req) => new URL(req.url()).pathname.endsWith(".data"));
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Applications", exact: true }).click();
    await dataRequest;
    await expect(page).toHaveURL(new RegExp(`/migration/application\\?companyId=${acme.id}`));
    await expect(page.getByRole("heading", { name: "Applications", level: 1 })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __marker?: string }).__marker)).toBe("same document");

    // A fetcher post (the sidebar toggle) goes through React Router's fetch, not a page load.
    const toggled = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/sidebar.data");
    await pressSidebarToggle(page);
    expect((await toggled).status()).toBeLessThan(400);
    expect(await page.evaluate(() => (window as unknown as { __marker?: string }).__marker)).toBe("same document");

    expect(await violations(page)).toEqual([]);
  });
});

test.describe("security headers, signing in and out", () => {
  test("sign-in and logout through the client portal still work under the policy", async ({ page }) => {
    await page.goto(withCompany("/migration/projects", acme.id));
    await signIn(page, DEMO.analyst.email);
    await expect(page).toHaveURL(new RegExp(`^${E2E.portal}/migration/projects`));
    await expect(page.getByRole("banner")).toContainText("Ann Analyst");
    expect(await violations(page)).toEqual([]);
    // Logout is a form POST answered by a redirect to the provider: allowed by form-action.
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    expect(new URL(page.url()).origin).toBe(E2E.clientPortal);
  });
});
