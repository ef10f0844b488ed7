import { createApplication } from "./master-data";
import { acme, expect, test, withCompany } from "./sessions";

/**
 * A refused submit sends focus to what was refused, not to <body>: the first field with an error in
 * the form's order. With JavaScript the form moves it there; without, the page comes back with that
 * field autofocused. Every Conform form gets this from useServerForm; the create page stands for them.
 */
for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "JavaScript on" : "JavaScript off";
  const suffix = javaScriptEnabled ? "js" : "html";

  test.describe(`a refused submit with ${mode}`, () => {
    test.use({ javaScriptEnabled, signedInAs: "analyst@demo.test" });

    test("focus goes to the first field with an error", async ({ page }) => {
      await createApplication(page, `Focus app ${suffix}`);
      await page.goto(withCompany("/migration/projects/create", acme.id));
      const name = page.getByLabel("Project name");
      const application = page.getByLabel("Application", { exact: true });

      await page.getByRole("button", { name: "Save and continue" }).click();
      await expect(name).toHaveAttribute("aria-invalid", "true");
      await expect(name).toBeFocused();
      // The page keeps its own title: the refusal is said on the page, not in the title.
      await expect(page).toHaveTitle("Step 1 of 4: Details · Create project · Data Transformation");

      // The name given: focus skips it to the first field still refused.
      await name.fill(`Focus project ${suffix}`);
      await page.getByLabel("Source type").selectOption({ label: "Backup" });
      await page.getByRole("button", { name: "Save and continue" }).click();
      await expect(application).toHaveAttribute("aria-invalid", "true");
      await expect(name).not.toHaveAttribute("aria-invalid", "true");
      await expect(application).toBeFocused();
    });
  });
}
