import { createApplication, createDictionary, SAMPLE, url } from "./master-data";
import { startProject } from "./project-steps";
import { expect, test } from "./sessions";

/**
 * A bulk update of a master dictionary that names only some columns: the page says beforehand that
 * the file's tables are full definitions, "Only add and change" proposes no removal, and a review
 * left without applying is found again from the dictionary's pages. With JavaScript on and off.
 */
const PARTIAL = {
  name: "partial.csv",
  mimeType: "text/csv",
  buffer: Buffer.from("table,column,type,length,nullable\nCustomers,Name,nvarchar,300,no\nCustomers,Email,nvarchar,320,yes\n"),
};

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "JavaScript on" : "JavaScript off";
  const suffix = javaScriptEnabled ? "js" : "html";

  test.describe(`bulk update with ${mode}`, () => {
    test.use({ javaScriptEnabled, signedInAs: "analyst@demo.test" });

    test("Only add and change keeps the columns the file leaves out; the pending review is linked until applied", async ({ page }) => {
      const application = `Partial upload app ${suffix}`;
      await createApplication(page, application, "");
      const id = await createDictionary(page, application, `Partial upload ${suffix}`);
      // A new dictionary has no columns to lose: no choice to make.
      await expect(page.getByRole("radio", { name: "Only add and change" })).toHaveCount(0);
      await page.getByLabel("Dictionary file").setInputFiles(SAMPLE);
      await page.getByRole("button", { name: "Upload" }).click();
      await page.getByRole("button", { name: "Apply" }).click();
      await expect(page).toHaveURL(url(`/migration/data-dictionary/view/${id}/data-definition`));

      // The bulk update page says what a file replaces, and offers only adding and changing.
      await page.getByRole("link", { name: "Edit data dictionary" }).click();
      await page.getByRole("navigation", { name: "Data dictionary pages" }).getByRole("link", { name: "Bulk update" }).click();
      await expect(page).toHaveURL(url(`/migration/data-dictionary/edit/${id}/bulk-update`));
      const choice = page.getByRole("group", { name: "Columns that are not in the file" });
      await expect(choice).toContainText(
        "Each table in the file is its full definition: columns of that table that are not in the file will be removed. Tables not in the file stay as they are.",
      );
      await expect(choice.getByRole("radio", { name: "Replace the tables in the file" })).toBeChecked();
      await choice.getByRole("radio", { name: "Only add and change" }).check();
      await page.getByLabel("Dictionary file").setInputFiles(PARTIAL);
      await page.getByRole("button", { name: "Upload" }).click();

      await expect(page).toHaveURL(new RegExp(`/migration/data-dictionary/edit/${id}/bulk-update/review/tables\\?`));
      const reviewUrl = page.url();
      const customers = page.getByRole("region", { name: "Customers" });
      await expect(customers).toContainText("Columns added (1)");
      await expect(customers).toContainText("Columns changed (1)");
      await expect(customers).not.toContainText("Columns removed");
      await expect(page.getByText("Only add and change")).toBeVisible();

      // Left without applying: the dictionary's pages lead back to it.
      await page.getByRole("navigation", { name: "Data dictionary pages" }).getByRole("link", { name: "Data definition" }).click();
      await expect(page).toHaveURL(url(`/migration/data-dictionary/edit/${id}/data-definition`));
      await expect(page.getByText("A bulk update is waiting for review")).toBeVisible();
      await expect(page.getByText(/partial\.csv, uploaded \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\. Nothing changes/)).toBeVisible();
      await page.getByRole("link", { name: "Review it" }).click();
      await expect(page).toHaveURL(reviewUrl);

      await page.getByRole("button", { name: "Apply" }).click();
      await expect(page).toHaveURL(url(`/migration/data-dictionary/edit/${id}/data-definition`));
      await expect(page.getByRole("status").filter({ hasText: "Review applied: 1 table changed." })).toBeVisible();
      await expect(page.getByText("A bulk update is waiting for review")).toHaveCount(0);
      await expect(page.getByRole("table", { name: "Tables" }).getByRole("row", { name: /Customers/ })).toContainText("6");

      // Nothing was removed: BirthDate is still there, Email comes last.
      await page.getByRole("link", { name: "Done editing" }).click();
      const columns = page.getByRole("table", { name: "Columns of Customers" });
      await expect(columns.getByRole("row", { name: /BirthDate/ })).toBeVisible();
      await expect(columns.getByRole("row").last()).toContainText("Email");
      await expect(columns.getByRole("row").filter({ has: page.getByRole("cell", { name: "Name", exact: true }) })).toContainText("nvarchar(300)");
    });

    test("a project's dictionary file is uploaded from the wizard, reviewed, applied, and setup goes on in the wizard", async ({ page }) => {
      const application = `Wizard upload app ${suffix}`;
      await createApplication(page, application, "");
      const projectId = await startProject(page, `Wizard upload ${suffix}`, application, "Flat file");
      await page.getByRole("link", { name: "upload a dictionary file" }).click();
      await expect(page).toHaveURL(url(`/migration/projects/${projectId}/data-dictionary/bulk-update/upload-data`));
      await page.getByLabel("Dictionary file").setInputFiles(SAMPLE);
      await page.getByRole("button", { name: "Upload" }).click();
      await page.getByRole("button", { name: "Apply" }).click();
      await expect(page).toHaveURL(url(`/migration/projects/create/${projectId}/data-dictionary`));
      await expect(page.getByRole("status").filter({ hasText: "Review applied" })).toBeVisible();
      await expect(page.getByRole("table", { name: "Tables of the project" }).getByRole("row", { name: /Customers/ })).toBeVisible();
      await page.getByRole("link", { name: "Continue" }).click();
      await expect(page).toHaveURL(url(`/migration/projects/create/${projectId}/databases`));
    });
  });
}
