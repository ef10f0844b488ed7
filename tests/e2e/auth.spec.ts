import { DEMO_COMPANIES } from "../../scripts/demo-data";
import { E2E } from "../../playwright.config";
import { expect, signIn, test } from "./fixtures";
import { pressSidebarToggle } from "./shell-steps";

const [, acme, birch] = DEMO_COMPANIES;

test.describe("sign-in with JavaScript on", () => {
  test("signed out, / leads to the client portal's sign-in page via /login?redirectTo=/", async ({ page }) => {
    const visited: string[] = [];
    page.on("request", (req) => req.isNavigationRequest() && visited.push(req.url()));
    await page.goto("/");
    await expect(page).toHaveURL(new RegExp(`^${E2E.clientPortal}/`));
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    expect(visited).toContain(`${E2E.portal}/login?redirectTo=%2F`);
  });

  test("signing in lands back on the page the user came from, with the name in the header", async ({ page }) => {
    const deep = `/migration/data-dictionary?companyId=${acme.id}`;
    await page.goto(deep);
    await signIn(page, "analyst@demo.test");
    await expect(page).toHaveURL(`${E2E.portal}${deep}`);
    await expect(page.getByRole("banner")).toContainText("Ann Analyst");
    await expect(page.getByRole("contentinfo")).toContainText(/v\d+\.\d+\.\d+/);
  });

  test("a wrong password is refused without saying which field was wrong", async ({ page }) => {
    await page.goto("/");
    const answer = page.waitForResponse((res) => res.request().method() === "POST" && res.url().startsWith(E2E.clientPortal));
    await signIn(page, "analyst@demo.test", "not-the-password");
    expect((await answer).status()).toBe(401);
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
    await signIn(page, "nobody@demo.test", "demo");
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
  });

  test("an outside redirectTo is ignored: the user lands on the portal", async ({ page }) => {
    await page.goto("/login?redirectTo=https%3A%2F%2Fevil.example%2F");
    await signIn(page, "analyst@demo.test");
    await expect(page).toHaveURL(new RegExp(`^${E2E.portal}/migration/projects\\?companyId=`));
    await expect(page.getByRole("banner")).toContainText("Ann Analyst");
  });

  test("a forged callback is answered with a message and a way back, not an error page", async ({ page }) => {
    const res = await page.goto("/auth/callback?code=forged&state=forged");
    expect(res?.status()).toBe(400);
    await expect(page.getByRole("heading", { name: "Sign-in failed" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign in again" })).toBeVisible();
  });

  test("logging out ends the session in the portal and at the client portal", async ({ page }) => {
    await page.goto("/");
    await signIn(page, "analyst@demo.test");
    await expect(page.getByRole("banner")).toContainText("Ann Analyst");
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    // Still signed out on a new visit: the client portal did not sign the user in silently.
    await page.goto("/");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  });

  test("logging out in another tab sends this tab to sign-in within 6 s", async ({ context }) => {
    const first = await context.newPage();
    await first.goto("/");
    await signIn(first, "analyst@demo.test");
    await expect(first.getByRole("banner")).toContainText("Ann Analyst");

    const second = await context.newPage();
    await second.goto("/");
    await expect(second.getByRole("banner")).toContainText("Ann Analyst");
    await second.getByRole("button", { name: "Log out" }).click();
    await expect(second.getByRole("button", { name: "Sign in" })).toBeVisible();

    await expect(first.getByRole("button", { name: "Sign in" })).toBeVisible({ timeout: 6_000 });
    await expect(first.getByText("Ann Analyst")).toHaveCount(0);
  });
});

test.describe("sign-in with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("sign in and log out work as plain HTML", async ({ page }) => {
    const deep = `/migration/application?companyId=${birch.id}`;
    await page.goto(deep);
    await signIn(page, "clientadmin@demo.test");
    await expect(page).toHaveURL(`${E2E.portal}${deep}`);
    await expect(page.getByRole("banner")).toContainText("Carl Client");

    await page.getByRole("button", { name: "Log out" }).click();
    // Without JavaScript the client portal's own page asks the user to confirm the logout.
    await expect(page).toHaveURL(new RegExp(`^${E2E.clientPortal}/session/end`));
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    await page.goto("/");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  });

  test("a post after the session ended comes back to the page it was posted from once signed in again", async ({ page, context }) => {
    const deep = `/migration/data-dictionary?companyId=${acme.id}`;
    await page.goto(deep);
    await signIn(page, "analyst@demo.test");
    await expect(page).toHaveURL(`${E2E.portal}${deep}`);
    // The session ends (expired, ended elsewhere) while the page is open; its next post is the sidebar's, to /sidebar.
    await context.clearCookies();
    await pressSidebarToggle(page);
    await signIn(page, "analyst@demo.test");
    await expect(page).toHaveURL(`${E2E.portal}${deep}`);
    await expect(page.getByRole("heading", { level: 1, name: "Data Dictionary", exact: true })).toBeVisible();
  });

  test("going Back from the client portal's logout page, not confirmed, opens the page again, not a redirect loop", async ({ page }) => {
    const deep = `/migration/application?companyId=${birch.id}`;
    await page.goto(deep);
    await signIn(page, "clientadmin@demo.test");
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(new RegExp(`^${E2E.clientPortal}/session/end`));
    // The portal's session is gone, the client portal's is not (its logout was not confirmed): signed in again
    // through /login. The page's earlier "sign in first" redirect, stored by the browser, had sent it back to /login
    // over and over (ERR_TOO_MANY_REDIRECTS).
    await page.goBack();
    await expect(page).toHaveURL(`${E2E.portal}${deep}`);
    await expect(page.getByRole("banner")).toContainText("Carl Client");
  });
});
