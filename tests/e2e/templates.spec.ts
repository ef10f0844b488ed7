import { expectNoViolations } from "./axe";
import { E2E } from "../../playwright.config";
import { acme, DEMO, expect, test, withCompany } from "./sessions";
import { availableMasterTemplate, createTemplateWithScript, expectSql, fillSql } from "./template-steps";

/**
 * Master templates end to end (issue 11): create a template, its levels and scripts, a syntax error
 * refused at its line and column, lock and save versions, compare and restore them, a stale save
 * refused with what changed meanwhile, reorder levels and make the template available. With
 * JavaScript on and off.
 */

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "JavaScript on" : "JavaScript off";
  const suffix = javaScriptEnabled ? "js" : "html";

  test.describe(`master templates with ${mode}`, () => {
    test.use({ javaScriptEnabled, signedInAs: "analyst@demo.test" });

    test("create a template with levels and scripts, version a script under its lock, and make the template available", async ({ page }) => {
      test.slow();
      const name = `Customer load ${suffix}`;
      await page.goto(withCompany("/migration/master-templates", acme.id));
      await expect(page.getByRole("heading", { level: 1, name: "Master Templates" })).toBeVisible();
      await page.getByRole("link", { name: "Create template" }).click();
      await page.getByLabel("Name").fill(name);
      await page.getByLabel("Description").fill("Customers into the new system");
      await page.getByLabel("Type").selectOption("Core");
      await page.getByRole("button", { name: "Create template" }).click();
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
      await expect(page.getByRole("status")).toHaveText(`Template ${name} created. Add its levels and scripts.`);
      const templateUrl = page.url();

      // Not available while it has no script: the refusal at the top of the page takes focus.
      await page.getByRole("button", { name: "Make available" }).click();
      await expect(page.getByRole("alert")).toHaveText("Add at least one script before making the template available.");
      await expect(page.getByRole("alert")).toBeFocused();

      for (const level of ["Load", "Prepare"]) {
        await page.getByLabel("New level name").fill(level);
        await page.getByRole("button", { name: "Add level" }).click();
        await expect(page.getByRole("heading", { level: 3, name: new RegExp(`: ${level}$`) })).toBeVisible();
      }
      await page.getByRole("button", { name: "Move level Prepare up" }).click();
      await expect(page.getByRole("heading", { level: 3 }).first()).toHaveText("Level 1: Prepare");

      // A syntax error is refused at its line and column, the text kept.
      await page.getByRole("link", { name: "Add script to Load" }).click();
      await expect(page.getByRole("heading", { name: "Add a script to Load" })).toBeVisible();
      // With JavaScript, the SQL field becomes a code editor with line numbers; without, it stays a textarea.
      await expect(page.locator(".cm-lineNumbers")).toHaveCount(javaScriptEnabled ? 1 : 0);
      await page.getByLabel("Name").fill("Customers");
      await fillSql(page, "insert into destination.customers\nselect * fro source.customers;");
      await page.getByRole("button", { name: "Add script" }).click();
      await expect(page.getByText('Line 2, column 10: syntax error at or near "fro"')).toBeVisible();
      // Focus is on the SQL refused (the code editor with JavaScript, the textarea without), not on <body>.
      await expect(page.getByRole("textbox", { name: "SQL", exact: true })).toBeFocused();
      // The focused code editor is ringed as every other field is (2 px, solid), not by CodeMirror's thin dotted line.
      if (javaScriptEnabled) {
        const ring = () => page.locator(".cm-editor").evaluate((e) => `${getComputedStyle(e).outlineStyle} ${getComputedStyle(e).outlineWidth}`);
        await expect.poll(ring).toBe("solid 2px");
      }
      await expectSql(page, "insert into destination.customers\nselect * fro source.customers;");
      await fillSql(page, "insert into destination.customers\nselect * from source.customers;");
      await page.getByLabel("Comment").fill("First cut");
      await page.getByRole("button", { name: "Add script" }).click();
      await expect(page.getByRole("status")).toHaveText("Script Customers added to Load.");
      await expect(page.getByRole("heading", { level: 2, name: "Script Customers" })).toBeVisible();

      // Only the lock's holder edits: lock, save version 2.
      await expect(page.getByText("Nobody is editing this script.")).toBeVisible();
      await page.getByRole("button", { name: "Lock for editing" }).click();
      const at = String.raw`\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC`;
      await expect(page.getByText(new RegExp(`^You hold the lock since ${at}; it lapses at ${at} unless you save\\.$`))).toBeVisible();
      await expect(page.getByText(new RegExp(`version \\d+, saved ${at}`))).toBeVisible();
      await fillSql(page, "insert into destination.customers\nselect * from source.customers\nwhere active;");
      await page.getByLabel("Comment").fill("Only active customers");
      await page.getByRole("button", { name: "Save new version" }).click();
      await expect(page.getByRole("status")).toHaveText("Version 2 saved.");

      // The history compares versions 1 and 2, line by line.
      await page.getByRole("navigation", { name: "Script" }).getByRole("link", { name: "History" }).click();
      await expect(page.getByRole("table", { name: "Versions" }).getByRole("row")).toHaveCount(3);
      await page.getByRole("button", { name: "Compare" }).click();
      const diff = page.getByRole("table", { name: "Changes between version 1 and version 2" });
      await expect(diff).toContainText("Removed: select * from source.customers;");
      await expect(diff).toContainText("Added: where active;");

      // Restore version 1: it becomes version 3.
      await page.getByRole("link", { name: "Version 1", exact: true }).click();
      await expect(page.getByLabel("SQL of version 1")).toHaveText("insert into destination.customers\nselect * from source.customers;");
      await page.getByRole("button", { name: "Restore this version" }).click();
      await expect(page.getByRole("status")).toHaveText("Version 1 restored as version 3.");
      await expect(page.getByRole("table", { name: "Versions" })).toContainText("Restored version 1");

      await page.getByRole("navigation", { name: "Script" }).getByRole("link", { name: "Lock audit" }).click();
      await expect(page.getByRole("table", { name: "Lock audit" })).toContainText("Locked");
      if (javaScriptEnabled) await expectNoViolations(page);

      // Back on the template: available now, and the scripts in run order.
      await page.goto(templateUrl);
      await expect(page.getByRole("table", { name: "Scripts of Load" })).toContainText("Customers");
      await page.getByRole("button", { name: "Make available" }).click();
      await expect(page.getByRole("status")).toHaveText("Status changed.");
      await expect(page.getByText("Available", { exact: true })).toBeVisible();
      if (javaScriptEnabled) await expectNoViolations(page);
      await page.goto(withCompany(`/migration/master-templates?status=Available&name=${encodeURIComponent(name)}`, acme.id));
      await expect(page.getByRole("table", { name: "Master templates" }).getByRole("row", { name: new RegExp(name) })).toContainText("Available");

      // Archived: read-only, its scripts open in the read-only view.
      await page.goto(templateUrl);
      await page.getByRole("button", { name: "Archive" }).click();
      await expect(page.getByText("This template is archived: it is read-only")).toBeVisible();
      await expect(page.getByRole("button", { name: "Add level" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Save details" })).toHaveCount(0);
      await page.getByRole("table", { name: "Scripts of Load" }).getByRole("link", { name: "Customers" }).click();
      await expect(page).toHaveURL(/\/script\/view\//);
      await expect(page.getByLabel("SQL", { exact: true })).toHaveText("insert into destination.customers\nselect * from source.customers;");
      await expect(page.getByRole("button", { name: "Lock for editing" })).toHaveCount(0);
      if (javaScriptEnabled) await expectNoViolations(page);
    });

    test("a save based on a stale version is refused with what changed meanwhile, and the text written is kept", async ({ page, context }) => {
      const name = `Stale saves ${suffix}`;
      await page.goto(withCompany("/migration/master-templates/create", acme.id));
      await createTemplateWithScript(page, { name, level: "Only", script: "Orders", sql: "select 1;" });
      await page.getByRole("button", { name: "Lock for editing" }).click();
      await expect(page.getByText(/You hold the lock since/)).toBeVisible();
      await expectSql(page, "select 1;");

      // The same person saves from a second tab meanwhile.
      const other = await context.newPage();
      await other.goto(page.url());
      await fillSql(other, "select 2;");
      await other.getByRole("button", { name: "Save new version" }).click();
      await expect(other.getByRole("status")).toHaveText("Version 2 saved.");
      await other.close();

      await fillSql(page, "select 'mine';");
      await page.getByRole("button", { name: "Save new version" }).click();
      // Saved by the same person: said as their other tab, with when.
      await expect(page.getByRole("alert").first()).toContainText(
        /You changed this script in another tab or window at \d\d:\d\d UTC\. Version 2 was saved after the version 1 you edited/,
      );
      await expect(page.getByRole("alert").first()).toBeFocused();
      await expect(page.getByRole("table", { name: "Changes between version 1 and version 2" })).toContainText("Added: select 2;");
      await expectSql(page, "select 'mine';");
      await page.getByRole("button", { name: "Save new version" }).click();
      await expect(page.getByRole("status")).toHaveText("Version 3 saved.");
    });

    test("a restore from a version's page left open while the script was saved in another tab is refused, restoring nothing, and the next try restores", async ({
      page,
      context,
    }) => {
      await page.goto(withCompany("/migration/master-templates/create", acme.id));
      await createTemplateWithScript(page, { name: `Stale restores ${suffix}`, level: "Only", script: "Orders", sql: "select 1;" });
      await page.getByRole("button", { name: "Lock for editing" }).click();
      await fillSql(page, "select 2;");
      await page.getByRole("button", { name: "Save new version" }).click();
      await expect(page.getByRole("status")).toHaveText("Version 2 saved.");
      const editUrl = page.url();
      await page.getByRole("navigation", { name: "Script" }).getByRole("link", { name: "History" }).click();
      await page.getByRole("link", { name: "Version 1", exact: true }).click();
      await expect(page.getByLabel("SQL of version 1")).toHaveText("select 1;");

      // The same person saves from a second tab meanwhile: the version's page still shows version 2 as the newest.
      const other = await context.newPage();
      await other.goto(editUrl);
      await fillSql(other, "select 3;");
      await other.getByRole("button", { name: "Save new version" }).click();
      await expect(other.getByRole("status")).toHaveText("Version 3 saved.");

      await page.getByRole("button", { name: "Restore this version" }).click();
      await expect(page.getByRole("alert").first()).toContainText(
        /You changed this script in another tab or window at \d\d:\d\d UTC\. Version 3 was saved after the version 2 your restore was based on: version 1 was not restored\./,
      );
      await other.reload();
      await expectSql(other, "select 3;");
      await other.close();
      // The page read the script again: the next try is based on version 3, and restores.
      await page.getByRole("button", { name: "Restore this version" }).click();
      await expect(page.getByRole("status")).toHaveText("Version 1 restored as version 4.");
    });

    test("a save after an administrator forced the lock open says so, keeps the text, and locks again and saves in one step", async ({
      page,
      browser,
      sessionFor,
    }) => {
      test.slow();
      const name = `Forced lock ${suffix}`;
      await page.goto(withCompany("/migration/master-templates/create", acme.id));
      await createTemplateWithScript(page, { name, level: "Only", script: "Invoices", sql: "select 1;" });
      await page.getByRole("button", { name: "Lock for editing" }).click();
      await expect(page.getByText(/You hold the lock since/)).toBeVisible();

      // A SuperAdmin forces the lock open from their own session, with a reason.
      const admin = await browser.newContext({ storageState: await sessionFor(DEMO.super.email, E2E.portal), javaScriptEnabled });
      try {
        const adminPage = await admin.newPage();
        await adminPage.goto(page.url());
        await expect(adminPage.getByText(/Locked by Ann Analyst since/)).toBeVisible();
        await adminPage.getByLabel("Reason for forcing the lock").fill("urgent fix");
        await adminPage.getByRole("button", { name: "Force unlock" }).click();
        await expect(adminPage.getByText("Nobody is editing this script.")).toBeVisible();
      } finally {
        await admin.close();
      }

      await fillSql(page, "select 'kept';");
      await page.getByRole("button", { name: "Save new version" }).click();
      await expect(page.getByRole("alert").first()).toContainText("Your lock was taken away by Sam Super (“urgent fix”)");
      await expect(page.getByRole("alert").first()).toBeFocused();
      await expectSql(page, "select 'kept';");
      await page.getByRole("button", { name: "Lock again and save" }).click();
      await expect(page.getByRole("status")).toHaveText("Version 2 saved.");
      await expectSql(page, "select 'kept';");
    });

    test("a change refused because the template changed in another tab shows the template as it is now, and the next try is applied", async ({
      page,
      context,
    }) => {
      const name = `Stale template ${suffix}`;
      await page.goto(withCompany("/migration/master-templates/create", acme.id));
      await page.getByLabel("Name").fill(name);
      await page.getByRole("button", { name: "Create template" }).click();
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

      // The same person renames it from a second tab meanwhile.
      const other = await context.newPage();
      await other.goto(page.url());
      await other.getByLabel("Name", { exact: true }).fill(`${name} renamed`);
      await other.getByRole("button", { name: "Save details" }).click();
      await expect(other.getByRole("status")).toHaveText("Template saved.");
      await other.close();

      await page.getByLabel("New level name").fill("First");
      await page.getByRole("button", { name: "Add level" }).click();
      await expect(page.getByText(/You changed this template in another tab or window at \d\d:\d\d UTC/)).toBeVisible();
      // The header as the template is now, with JavaScript as without it.
      await expect(page.getByRole("heading", { level: 1, name: `${name} renamed` })).toBeVisible();
      await expect(page.getByText(/version 2$/)).toBeVisible();
      await page.getByLabel("New level name").fill("First");
      await page.getByRole("button", { name: "Add level" }).click();
      await expect(page.getByRole("status")).toHaveText("Level added.");
      await expect(page.getByRole("heading", { name: "Level 1: First" })).toBeVisible();
    });

    test("deleting a script asks first, and Cancel keeps it", async ({ page }) => {
      const name = `Script deletion ${suffix}`;
      await page.goto(withCompany("/migration/master-templates/create", acme.id));
      await createTemplateWithScript(page, { name, level: "Only", script: "Doomed", sql: "select 1;" });

      await page.getByRole("navigation", { name: "Script" }).getByRole("link", { name: "Details" }).click();
      // The page's "Delete script" only opens the confirmation: nothing is deleted yet.
      await page.getByRole("link", { name: "Delete script" }).click();
      const confirmation = page.getByRole("region", { name: "Delete script Doomed?" });
      await expect(confirmation).toContainText("Its version and its lock audit are deleted with it");
      await confirmation.getByRole("link", { name: "Cancel" }).click();
      await expect(page.getByRole("region", { name: "Delete script Doomed?" })).toHaveCount(0);
      await expect(page.getByRole("heading", { level: 2, name: "Script Doomed" })).toBeVisible();

      await page.getByRole("link", { name: "Delete script" }).click();
      await page.getByRole("region", { name: "Delete script Doomed?" }).getByRole("button", { name: "Delete script" }).click();
      await expect(page.getByRole("status")).toHaveText("Script Doomed deleted with its versions.");
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
      await expect(page.getByRole("link", { name: "Doomed" })).toHaveCount(0);
    });

    test("a Draft made by mistake is deleted after asking, and Cancel keeps it; once available it offers no Delete", async ({ page }) => {
      const name = `Draft by mistake ${suffix}`;
      await page.goto(withCompany("/migration/master-templates/create", acme.id));
      await page.getByLabel("Name").fill(name);
      await page.getByRole("button", { name: "Create template" }).click();
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

      // The page's "Delete template" only opens the confirmation: nothing is deleted yet.
      await page.getByRole("link", { name: "Delete template" }).click();
      const confirmation = page.getByRole("region", { name: `Delete template ${name}?` });
      await expect(confirmation).toContainText("It was never made available, so no projects have a copy of it.");
      await confirmation.getByRole("link", { name: "Cancel" }).click();
      await expect(confirmation).toHaveCount(0);
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

      await page.getByRole("link", { name: "Delete template" }).click();
      await confirmation.getByRole("button", { name: "Delete template" }).click();
      await expect(page.getByRole("status")).toHaveText(`Template ${name} deleted.`);
      await expect(page.getByRole("heading", { level: 1, name: "Master templates" })).toBeVisible();
      await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);

      await availableMasterTemplate(page, `Published ${suffix}`);
      await expect(page.getByRole("button", { name: "Archive" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Delete template" })).toHaveCount(0);
    });
  });
}
