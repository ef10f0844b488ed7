import type { Page } from "@playwright/test";
import { createApplication, createDictionary, SAMPLE, url } from "./master-data";
import { expect, test } from "./sessions";

/**
 * Every write says what it did: a flash message in a polite live region above the page after the
 * redirect, shown once and gone on the next navigation. With JavaScript on and off.
 */
const flash = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text });

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "JavaScript on" : "JavaScript off";
  const suffix = javaScriptEnabled ? "js" : "html";

  test.describe(`flash messages with ${mode}`, () => {
    test.use({ javaScriptEnabled, signedInAs: "analyst@demo.test" });

    test("creating, uploading and applying a dictionary change each say so once", async ({ page }) => {
      const application = `Flash app ${suffix}`;
      await createApplication(page, application, "");
      await expect(flash(page, `Application ${application} created.`)).toBeVisible();

      const dictionary = `Flash dictionary ${suffix}`;
      const id = await createDictionary(page, application, dictionary);
      await expect(flash(page, `Data dictionary ${dictionary} created.`)).toBeVisible();

      await page.getByLabel("Dictionary file").setInputFiles(SAMPLE);
      await page.getByRole("button", { name: "Upload" }).click();
      await expect(page).toHaveURL(new RegExp(`/migration/data-dictionary/create/${id}/review/tables\\?`));
      await expect(flash(page, "File sample-dictionary.csv uploaded for review.")).toBeVisible();
      // The message of the step before is gone.
      await expect(flash(page, `Data dictionary ${dictionary} created.`)).toHaveCount(0);

      await page.getByRole("button", { name: "Apply" }).click();
      await expect(page).toHaveURL(url(`/migration/data-dictionary/view/${id}/data-definition`));
      const applied = flash(page, "Review applied: 2 tables added.");
      await expect(applied).toBeVisible();
      await expect(applied).toHaveAttribute("aria-live", "polite");
      // Above the page's content.
      const heading = page.getByRole("heading", { level: 1, name: dictionary });
      expect((await applied.boundingBox())!.y).toBeLessThan((await heading.boundingBox())!.y);

      // Shown once: a reload, or the next navigation, no longer says it.
      await page.reload();
      await expect(heading).toBeVisible();
      await expect(flash(page, "Review applied")).toHaveCount(0);
      await page.getByRole("link", { name: "Edit data dictionary" }).click();
      await expect(page).toHaveURL(url(`/migration/data-dictionary/edit/${id}/data-definition`));
      await expect(flash(page, "Review applied")).toHaveCount(0);
    });

    test("saving a table says which, and the next navigation dismisses it", async ({ page }) => {
      const application = `Flash table app ${suffix}`;
      await createApplication(page, application, "");
      const id = await createDictionary(page, application, `Flash tables ${suffix}`);
      await page.getByLabel("Dictionary file").setInputFiles(SAMPLE);
      await page.getByRole("button", { name: "Upload" }).click();
      await page.getByRole("button", { name: "Apply" }).click();
      await page.getByRole("link", { name: "Edit data dictionary" }).click();
      await page.getByRole("table", { name: "Tables" }).getByRole("link", { name: "Orders", exact: true }).click();
      await expect(page.getByLabel("Table name")).toHaveValue("Orders");
      await page.getByRole("button", { name: "Save table" }).click();
      await expect(page).toHaveURL(url(`/migration/data-dictionary/edit/${id}/data-definition`));
      await expect(flash(page, "Table Orders saved.")).toBeVisible();

      await page.getByRole("navigation", { name: "Data dictionary pages" }).getByRole("link", { name: "Application" }).click();
      await expect(page).toHaveURL(url(`/migration/data-dictionary/edit/${id}/application`));
      await expect(flash(page, "Table Orders saved.")).toHaveCount(0);
    });
  });
}
