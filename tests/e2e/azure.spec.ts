import { E2E } from "../../playwright.config";
import { AREAS, expectAreaPage, expectPermissionDenied, expectSidebar } from "./areas";
import { acme, birch, DEMO, expect, test } from "./sessions";

/**
 * A second portal, started with CLOUD_TARGET=AZURE (playwright.config.ts), against the same client
 * portal and data API: Fusion PSI Configuration and Data Onboarding are neither shown nor reachable.
 */
test.use({ portal: E2E.azurePortal });

const AZURE_ONLY = AREAS.filter((a) => a.area === "translations" || a.area === "onboarding");

test.describe("super@demo.test on the Azure portal", () => {
  test.use({ signedInAs: DEMO.super.email });

  test("the sidebar has Additional Options and Migrations only", async ({ page }) => {
    await page.goto("/migration/projects");
    await expectAreaPage(page, E2E.azurePortal, "/migration/projects", "Projects", acme.id);
    await expect(page.getByRole("banner").getByText("SuperAdmin", { exact: true })).toBeVisible();
    await expectSidebar(page, ["additionalOptions", "migration"], acme.id);
    const menu = page.getByRole("navigation", { name: "Main menu" });
    await expect(menu.getByText("Fusion PSI Configuration")).toHaveCount(0);
    await expect(menu.getByText("Data Onboarding")).toHaveCount(0);
  });

  test("Migrations and Additional Options still open", async ({ page }) => {
    for (const area of AREAS.filter((a) => a.area === "migration" || a.area === "additionalOptions")) {
      for (const p of area.pages) {
        await test.step(p.path, async () => {
          await page.goto(p.path);
          await expectAreaPage(page, E2E.azurePortal, p.path, p.heading, acme.id, { soft: true, label: `Azure, ${p.path}` });
        });
      }
    }
  });

  test("every Translations and Onboarding URL answers /permission-denied, even for a SuperAdmin", async ({ page }) => {
    for (const area of AZURE_ONLY) {
      for (const p of area.pages) {
        await test.step(p.path, async () => {
          await page.goto(p.path);
          await expectPermissionDenied(page, E2E.azurePortal, acme.id, { soft: true, label: `Azure, ${p.path}` });
        });
      }
    }
    // The area's own URL, too (it would otherwise redirect to its first page).
    await page.goto(`/translations?companyId=${birch.id}`);
    await expectPermissionDenied(page, E2E.azurePortal, birch.id);
  });
});

test.describe("translator@demo.test on the Azure portal", () => {
  test.use({ signedInAs: DEMO.translator.email });

  test("has no area left: Fusion PSI Configuration answers /permission-denied", async ({ page }) => {
    await page.goto("/translations/mappings");
    await expectPermissionDenied(page, E2E.azurePortal, acme.id);
  });
});

test.describe("analyst@demo.test on the Azure portal", () => {
  test.use({ signedInAs: DEMO.analyst.email });

  test("sees Migrations only; Data Onboarding answers /permission-denied", async ({ page }) => {
    await page.goto("/migration/projects");
    await expectAreaPage(page, E2E.azurePortal, "/migration/projects", "Projects", acme.id);
    await expectSidebar(page, ["migration"], acme.id);
    await page.goto("/onboarding/configurations");
    await expectPermissionDenied(page, E2E.azurePortal, acme.id);
  });
});
