import { test as base, expect, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "demo";

/** Signs in on the client portal's page, as a person would. Starts wherever `page` already is. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Opens `path` signed out, signs in as `email` and waits to be back on `path`. */
export async function signInAt(page: Page, path: string, email: string) {
  await page.goto(path);
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await signIn(page, email);
  await page.waitForURL((url) => url.pathname + url.search === path || url.pathname === path);
}

/** Fails the test on any console error in the page: what users never report. */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (msg) => {
        // The browser logs every 4xx answer as a console error; the tests assert those statuses themselves.
        if (msg.type() === "error" && !/status of 4\d\d/.test(msg.text())) errors.push(msg.text());
      });
      page.on("pageerror", (err) => errors.push(err.message));
      await use(errors);
      expect(errors, "console errors in the page").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
