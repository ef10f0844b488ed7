import type { BrowserContext } from "@playwright/test";
import { E2E } from "../../playwright.config";
import { DEMO_COMPANIES, demoUsers } from "../../scripts/demo-data";
import { expect, signIn, test as base } from "./fixtures";

export type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

const [cedar, acme, birch] = DEMO_COMPANIES;
export { acme, birch, cedar };

/** The demo users by the part of their email before the @ (README.md "Demo users"). */
export const DEMO = Object.fromEntries(demoUsers().map((u) => [u.email.split("@")[0], u])) as Record<
  "super" | "support" | "analyst" | "clientadmin" | "viewer" | "manager" | "translator",
  ReturnType<typeof demoUsers>[number]
>;

/**
 * `test` whose page starts signed in as `signedInAs` (an email), on `portal`. Each user signs in once
 * per worker: the browser state after a real sign-in is kept and handed to every later context.
 */
export const test = base.extend<
  { signedInAs: string | undefined; portal: string },
  { sessionFor: (email: string, portal: string) => Promise<StorageState> }
>({
  signedInAs: [undefined, { option: true }],
  portal: [E2E.portal, { option: true }],
  sessionFor: [
    async ({ browser }, use) => {
      const cache = new Map<string, Promise<StorageState>>();
      await use((email, portal) => {
        const key = `${portal} ${email}`;
        let state = cache.get(key);
        if (!state) {
          state = (async () => {
            // Signed out explicitly: inside a test, newContext() starts from the test's own storageState.
            const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
            try {
              const page = await context.newPage();
              await page.goto(`${portal}/`);
              await signIn(page, email);
              await expect(page.getByRole("button", { name: "Log out" })).toBeVisible();
              expect(new URL(page.url()).origin).toBe(portal);
              return await context.storageState();
            } finally {
              await context.close();
            }
          })();
          // A failed sign-in is not cached: the next test tries again and reports its own failure.
          state.catch(() => cache.delete(key));
          cache.set(key, state);
        }
        return state;
      });
    },
    { scope: "worker" },
  ],
  storageState: async ({ signedInAs, portal, sessionFor, storageState }, use) => {
    await use(signedInAs ? await sessionFor(signedInAs, portal) : storageState);
  },
  baseURL: async ({ portal }, use) => use(portal),
});

export { expect };

/** `path` with the company scope, as the portal writes it. */
export function withCompany(path: string, companyId: string) {
  return `${path}${path.includes("?") ? "&" : "?"}companyId=${companyId}`;
}
