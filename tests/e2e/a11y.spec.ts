import type { Page } from "@playwright/test";
import { E2E } from "../../playwright.config";
import { expectAreaPage, expectPermissionDenied } from "./areas";
import { acme, DEMO, expect, test, withCompany } from "./sessions";
import { expectNoViolations } from "./axe";
import { createApplication } from "./master-data";
import { startProject } from "./project-steps";

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

test.describe("with JavaScript, a page reached inside the app", () => {
  test.use({ signedInAs: DEMO.analyst.email });

  // docs/decisions/027: a page load starts a screen reader at the new page; a client navigation moves focus itself.
  test("takes the focus on the first heading it changed; a sort or a refusal keeps its own", async ({ page }) => {
    await createApplication(page, "Focus nav app");
    // A form's post and redirect: the wizard's next step, whose button went with the old page.
    const projectId = await startProject(page, "Focus nav project", "Focus nav app");
    await expect(page.getByRole("heading", { level: 1, name: "Set up Focus nav project" })).toBeFocused();

    // A menu link pressed by keyboard: the link stays on the page, focus goes on to the new page's h1.
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Projects", exact: true }).press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeFocused();
    // The next Tab goes on in the page, not from the skip link.
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Create project" })).toBeFocused();

    // A sort changes the query only: focus stays on the header's link, now saying its new order.
    await page.getByRole("link", { name: "Name (sort)" }).press("Enter");
    await expect(page.getByRole("link", { name: /^Name \(sorted ascending/ })).toBeFocused();

    // A tab of the project: its own heading, not the project's name above the tabs again.
    await page.goto(withCompany(`/migration/projects/${projectId}/details`, acme.id));
    await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Templates" }).press("Enter");
    await expect(page.getByRole("heading", { level: 2, name: "Templates" })).toBeFocused();

    // A refused submit: the page's own focus on the field with the error stands.
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Projects", exact: true }).press("Enter");
    await page.getByRole("link", { name: "Create project" }).press("Enter");
    await expect(page.getByRole("heading", { level: 1, name: "Create project" })).toBeFocused();
    await page.getByRole("button", { name: "Save and continue" }).press("Enter");
    await expect(page.getByLabel("Project name")).toBeFocused();
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
