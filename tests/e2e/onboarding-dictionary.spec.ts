import type { Page } from "@playwright/test";
import { E2E } from "../../playwright.config";
import { expectAreaPage } from "./areas";
import { createApplication, createDictionary, SAMPLE, url } from "./master-data";
import { acme, birch, expect, test, withCompany } from "./sessions";

/**
 * Master data dictionaries from Data Onboarding (spec §2: "data-dictionary: create, edit, view as in
 * migration"): the Migration pages under /onboarding/data-dictionary, which keep the user in that
 * area from the list to the applied upload, the edit and the company switch, while the dictionary is
 * the company's and Migration lists it too. Each journey runs with JavaScript on and off.
 */
const ONBOARDING = "/onboarding/data-dictionary";

/** The sidebar marks Data Onboarding's Data Dictionary as the current page, not Migration's. */
async function expectInOnboarding(page: Page) {
  const menu = page.getByRole("navigation", { name: "Main menu" });
  await expect(menu.getByRole("list", { name: "Data Onboarding" }).getByRole("link", { name: "Data Dictionary" })).toHaveAttribute("aria-current", "page");
  await expect(menu.getByRole("list", { name: "Migrations" }).getByRole("link", { name: "Data Dictionary" })).not.toHaveAttribute("aria-current", "page");
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "JavaScript on" : "JavaScript off";
  const suffix = javaScriptEnabled ? "js" : "html";

  test.describe(`master data dictionaries from Data Onboarding with ${mode}`, () => {
    test.use({ javaScriptEnabled, signedInAs: "analyst@demo.test" });

    test("create a dictionary from /onboarding/data-dictionary, apply an upload and edit it without leaving Data Onboarding", async ({ page }) => {
      // Applications are Migration's: the e2e tenant has none, so one is registered there first.
      const application = `Onboarding dictionary app ${suffix}`;
      await createApplication(page, application, "");
      await expect(page).toHaveURL(new RegExp(`/migration/application\\?companyId=${acme.id}&created=`));

      // Create, from Onboarding's list: the wizard's upload step, still in Onboarding.
      const name = `Onboarding dictionary ${suffix}`;
      const id = await createDictionary(page, application, name, ONBOARDING);
      await expect(page).toHaveURL(url(`${ONBOARDING}/create/${id}/upload-data`));
      await expect(page.getByRole("status").filter({ hasText: `Data dictionary ${name} created.` })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Data dictionary setup steps" })).toBeVisible();
      await expectInOnboarding(page);

      // Upload → review → apply: the view of the dictionary, in Onboarding.
      await page.getByLabel("Dictionary file").setInputFiles(SAMPLE);
      await page.getByRole("button", { name: "Upload" }).click();
      await expect(page).toHaveURL(new RegExp(`${ONBOARDING}/create/${id}/review/tables\\?companyId=${acme.id}&review=`));
      await expect(page.getByRole("region", { name: "Customers" })).toContainText("Columns added (5)");
      await page.getByRole("button", { name: "Apply" }).click();
      await expect(page).toHaveURL(url(`${ONBOARDING}/view/${id}/data-definition`));
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
      await expect(page.getByRole("table", { name: "Columns of Customers" }).getByRole("row", { name: /CreditLimit/ })).toContainText("decimal(18, 2)");
      const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
      await expect(crumbs.getByRole("listitem")).toHaveText(["Data Onboarding", "Data Dictionary", name, "Data definition"]);
      await expectInOnboarding(page);

      // Edit its description: back to its view, in Onboarding.
      await page.getByRole("link", { name: "Edit data dictionary" }).click();
      await expect(page).toHaveURL(url(`${ONBOARDING}/edit/${id}/data-definition`));
      await page.getByRole("navigation", { name: "Data dictionary pages" }).getByRole("link", { name: "Application" }).click();
      await expect(page).toHaveURL(url(`${ONBOARDING}/edit/${id}/application`));
      await page.getByLabel("Description").fill("Described from Data Onboarding");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(page).toHaveURL(url(`${ONBOARDING}/view/${id}/application`));
      await expect(page.getByRole("status").filter({ hasText: `Data dictionary ${name} saved.` })).toBeVisible();
      await expect(page.getByText("Described from Data Onboarding")).toBeVisible();
      await expectInOnboarding(page);

      // Onboarding's list links it to Onboarding's pages; the dictionary is the company's, so Migration lists it too.
      await crumbs.getByRole("link", { name: "Data Dictionary" }).click();
      await expectAreaPage(page, E2E.portal, ONBOARDING, "Data Dictionary", acme.id);
      const listed = page.getByRole("table", { name: "Data dictionaries" }).getByRole("link", { name, exact: true });
      await expect(listed).toHaveAttribute("href", withCompany(`${ONBOARDING}/view/${id}/data-definition`, acme.id));
      await page.goto(withCompany("/migration/data-dictionary", acme.id));
      await expect(page.getByRole("table", { name: "Data dictionaries" }).getByRole("link", { name, exact: true })).toHaveAttribute(
        "href",
        withCompany(`/migration/data-dictionary/view/${id}/data-definition`, acme.id),
      );

      // Switching company on one of its pages goes to Onboarding's list (the dictionary is Acme's).
      await page.goto(withCompany(`${ONBOARDING}/view/${id}/data-definition`, acme.id));
      await page.getByRole("combobox", { name: "Company" }).selectOption({ label: "Birch Logistics" });
      if (!javaScriptEnabled) await page.getByRole("button", { name: "Switch" }).click();
      await expectAreaPage(page, E2E.portal, ONBOARDING, "Data Dictionary", birch.id);
      await expectInOnboarding(page);
    });
  });
}
