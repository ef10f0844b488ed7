import type { Page } from "@playwright/test";
import { E2E } from "../../playwright.config";
import { expectAreaPage, expectPermissionDenied } from "./areas";
import { acme, DEMO, expect, test } from "./sessions";
import { expectNoViolations } from "./axe";

async function sidebarWidth(page: Page) {
  return (await page.getByRole("navigation", { name: "Main menu" }).boundingBox())?.width ?? 0;
}

test("the client portal's sign-in page", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(new RegExp(`^${E2E.clientPortal}/`));
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expectNoViolations(page);
});

test.describe("signed in as super@demo.test", () => {
  test.use({ signedInAs: DEMO.super.email });

  test.describe("1366 px wide", () => {
    test.use({ viewport: { width: 1366, height: 900 } });

    test("/migration/projects with the sidebar expanded", async ({ page }) => {
      await page.goto("/migration/projects");
      await expectAreaPage(page, E2E.portal, "/migration/projects", "Projects", acme.id);
      await expect.poll(() => sidebarWidth(page)).toBeGreaterThan(200);
      await expectNoViolations(page);
    });

    test("the first Tab offers a skip past the header and the menu to the page's content", async ({ page }) => {
      await page.goto("/migration/projects");
      await expectAreaPage(page, E2E.portal, "/migration/projects", "Projects", acme.id);
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "Skip to main content" });
      await expect(skip).toBeFocused();
      await expect(skip).toBeVisible();
      await page.keyboard.press("Enter");
      await expect(page.getByRole("main")).toBeFocused();
      // The next stop is in the page, not in the menu.
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.closest("main") !== null)).toBe(true);
    });

    test("/onboarding/configurations and its create page", async ({ page }) => {
      await page.goto("/onboarding/configurations");
      await expectAreaPage(page, E2E.portal, "/onboarding/configurations", "Configurations", acme.id);
      await expectNoViolations(page);
      await page.getByRole("link", { name: "Create configuration" }).first().click();
      await expect(page.getByRole("heading", { level: 1, name: "Create configuration" })).toBeVisible();
      await expectNoViolations(page);
    });

    test("/additional-options/product-info/details", async ({ page }) => {
      await page.goto("/additional-options/product-info/details");
      await expectAreaPage(page, E2E.portal, "/additional-options/product-info/details", "Product Info", acme.id);
      await expectNoViolations(page);
    });
  });

  test.describe("1365 px wide", () => {
    test.use({ viewport: { width: 1365, height: 900 } });

    test("/migration/projects with the sidebar collapsed", async ({ page }) => {
      await page.goto("/migration/projects");
      await expectAreaPage(page, E2E.portal, "/migration/projects", "Projects", acme.id);
      await expect.poll(() => sidebarWidth(page)).toBeLessThan(100);
      await expectNoViolations(page);
    });
  });
});

test.describe("signed in as viewer@demo.test", () => {
  test.use({ signedInAs: DEMO.viewer.email });

  test("/permission-denied", async ({ page }) => {
    await page.goto("/migration/projects");
    await expectPermissionDenied(page, E2E.portal, acme.id);
    await expectNoViolations(page);
  });
});
