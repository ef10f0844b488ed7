import { acme, expect, test, withCompany } from "./sessions";
import { expectNoViolations } from "./axe";
import { createBackupProject, sqliteExport } from "./project-steps";

/**
 * Backups, restores, undo and comparisons (issue 10), end to end with JavaScript on and off: a
 * Backup-source project restores a client's SQLite export as its first data, is backed up (and the
 * backup downloaded), restores another export with "Compare with the current data" (the rows added and
 * changed shown), and undoes that restore.
 */

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "JavaScript on" : "JavaScript off";
  const suffix = javaScriptEnabled ? "js" : "html";

  test.describe(`backups and restores with ${mode}`, () => {
    test.use({ javaScriptEnabled, signedInAs: "analyst@demo.test" });

    test("restore a SQLite export, back up and download, restore with a comparison, undo it", async ({ page }) => {
      test.setTimeout(150_000);
      const projectId = await createBackupProject(page, suffix);
      const restored = (text: string) => expect(page.getByRole("status").filter({ hasText: text })).toBeVisible({ timeout: 30_000 });

      // A Backup-source project's first data: the client's export, restored from the databases step.
      await page.getByRole("link", { name: "Restore a backup" }).first().click();
      await expect(page.getByRole("heading", { name: "Restore from a file" })).toBeVisible();
      if (javaScriptEnabled) await expectNoViolations(page);
      // A file that is not a SQLite database nor a backup is refused at its field, and nothing starts.
      await page
        .getByLabel("Backup archive or SQLite database")
        .setInputFiles({ name: "notes.db", mimeType: "text/plain", buffer: Buffer.from("not a database") });
      await page.getByRole("button", { name: "Restore from the file" }).click();
      await expect(page.getByText("This file is not a backup of this product (unknown format).")).toBeVisible();
      await page.getByLabel("Backup archive or SQLite database").setInputFiles(
        sqliteExport("export-1.sqlite", [
          [1, "Ann"],
          [2, "Bob"],
        ]),
      );
      await page.getByRole("button", { name: "Restore from the file" }).click();
      await expect(page.getByRole("heading", { name: "Restore of export-1.sqlite" })).toBeVisible();
      await restored("2 rows restored into the source database.");
      await expect(page.getByText("Setup: assign templates").first()).toBeVisible();

      // Back up now, then download the backup.
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Databases" }).click();
      await page.getByRole("button", { name: "Back up now" }).click();
      await expect(page.getByRole("heading", { name: /^Backup .*\.backup\.tar$/ })).toBeVisible();
      await restored("rows of 2 tables backed up.");
      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: "Download the backup" }).click();
      expect((await download).suggestedFilename()).toMatch(/^Restored-project-.*\.backup\.tar$/);

      // Another export, restored with a comparison: the rows it added and changed.
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Databases" }).click();
      await page.getByRole("link", { name: "Restore a backup" }).first().click();
      await expect(page.getByRole("table", { name: "Backups" }).getByRole("row")).toHaveCount(3);
      await page.getByLabel("Backup archive or SQLite database").setInputFiles(
        sqliteExport("export-2.sqlite", [
          // A trailing space alone: the page must show it, or the change reads "Ann | Ann".
          [1, "Ann "],
          [2, "Bobby"],
          [3, "Cy"],
        ]),
      );
      await page.getByRole("form", { name: "Restore from a file" }).getByLabel("Compare with the current data").check();
      await page.getByRole("button", { name: "Restore from the file" }).click();
      await restored("3 rows restored into the source database.");
      const differences = page.getByRole("table", { name: "Differences per table" });
      await expect(differences.getByRole("row", { name: /Customers/ }).getByRole("cell")).toHaveText(["Customers", "1", "0", "2", "Name (2)", ""]);
      const changedRows = page.getByRole("table", { name: "Rows changed in Customers" }).getByRole("row");
      await expect(changedRows.filter({ hasText: "Bobby" }).getByRole("cell")).toHaveText(["2", "Name", "Bob", "Bobby"]);
      await expect(changedRows.filter({ hasText: "Ann" }).getByRole("cell")).toHaveText([
        "1",
        "Name",
        "Ann (only spaces, tabs or line breaks differ)",
        "Ann· (only spaces, tabs or line breaks differ)",
      ]);
      await expect(page.getByRole("table", { name: "Rows added to Customers" }).getByRole("row").nth(1).getByRole("cell")).toHaveText(["3", "Cy"]);
      if (javaScriptEnabled) await expectNoViolations(page);

      // Undo it, confirmed on a page: the data as it was before.
      await page.getByRole("link", { name: "Undo" }).click();
      await expect(page.getByRole("heading", { name: "Undo restore and comparison of export-2.sqlite" })).toBeVisible();
      if (javaScriptEnabled) await expectNoViolations(page);
      await page.getByLabel("Reason").fill("the second export was sent by mistake");
      await page.getByRole("button", { name: "Undo" }).click();
      await expect(page.getByRole("heading", { name: "Undo of the restore and comparison of export-2.sqlite" })).toBeVisible();
      await restored("2 rows restored into the source database.");
      await page.goto(withCompany(`/migration/projects/${projectId}/databases/history/list`, acme.id));
      const history = page.getByRole("table", { name: "History" });
      await expect(history.getByRole("row")).toHaveCount(5);
      await expect(history.getByRole("row").nth(1)).toContainText("Undo");
    });

    test("the dictionary changes after a backup: values that are no date quoted, a rename keeps the values, a removal confirmed, the comparison names the columns", async ({
      page,
    }) => {
      test.setTimeout(150_000);
      const projectId = await createBackupProject(page, `reshaped-${suffix}`);
      const done = (text: string) => expect(page.getByRole("status").filter({ hasText: text })).toBeVisible({ timeout: 30_000 });
      await page.getByRole("link", { name: "Restore a backup" }).first().click();
      await page.getByLabel("Backup archive or SQLite database").setInputFiles(
        sqliteExport("export-1.sqlite", [
          [1, "Ann"],
          [2, "Bob"],
        ]),
      );
      await page.getByRole("button", { name: "Restore from the file" }).click();
      await done("2 rows restored into the source database.");
      // Backed up: the data as the restore left it, which the comparison below reads.
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Databases" }).click();
      await page.getByRole("button", { name: "Back up now" }).click();
      await done("rows of 2 tables backed up.");

      // Name made a date: refused before anything changes, quoting the values that are no date.
      await page.goto(withCompany(`/migration/projects/${projectId}/data-dictionary/data-definition/tables`, acme.id));
      await page.getByRole("link", { name: "Customers", exact: true }).click();
      const name = page.getByRole("group", { name: "Column 2", exact: true });
      await name.getByLabel("Type").selectOption("date");
      await page.getByRole("button", { name: "Save table" }).click();
      await expect(
        page.getByText('Changing Name of Customers to date would not convert 2 values in the source database, such as "Ann" and "Bob"', { exact: false }),
      ).toBeVisible();

      // Renamed: the column keeps its values under its new name (the form says which column it is); nothing to confirm.
      await name.getByLabel("Type").selectOption("nvarchar");
      await name.getByLabel("Length").fill("50");
      await name.getByLabel("Name").fill("FullName");
      await page.getByRole("button", { name: "Save table" }).click();
      await expect(page.getByRole("table", { name: "Tables of the project" })).toBeVisible();
      await page.goto(withCompany(`/migration/projects/${projectId}/data-dictionary/source-data?table=Customers`, acme.id));
      const rows = page.getByRole("table", { name: "Rows of Customers" });
      await expect(rows.getByRole("columnheader")).toHaveText([/^CustomerId\b/, /^FullName\b/]);
      await expect(rows.getByRole("row").nth(1).getByRole("cell")).toHaveText(["1", "Ann"]);

      // Removed: the databases would lose its values; asked first, with the way to keep a copy.
      await page.goto(withCompany(`/migration/projects/${projectId}/data-dictionary/data-definition/tables`, acme.id));
      await page.getByRole("link", { name: "Customers", exact: true }).click();
      await page.getByRole("button", { name: "Remove column 2" }).click();
      await expect(page.getByRole("group", { name: "Column 2", exact: true })).toHaveCount(0);
      await page.getByRole("button", { name: "Save table" }).click();
      const confirmation = page.getByRole("region", { name: "This change deletes data from the databases" });
      await expect(confirmation.getByRole("listitem")).toHaveText(["Dropping column FullName of Customers deletes 2 values in the source database"]);
      await expect(confirmation.getByText("This cannot be undone: a change of the dictionary takes no backup.")).toBeVisible();
      await expect(confirmation.getByRole("link", { name: "back up the databases" })).toHaveAttribute(
        "href",
        withCompany(`/migration/projects/${projectId}/databases/current`, acme.id),
      );
      await confirmation.getByRole("button", { name: "Apply and delete this data" }).click();
      await expect(page.getByRole("table", { name: "Tables of the project" })).toBeVisible();

      // The restore's data compared with the current: no row differs in Id, and the comparison says which columns came and went.
      await page.goto(withCompany(`/migration/projects/${projectId}/databases/history/list`, acme.id));
      await page
        .getByRole("table", { name: "History" })
        .getByRole("row", { name: /export-1\.sqlite/ })
        .getByRole("link", { name: /^Restore/ })
        .click();
      await page.getByRole("button", { name: "Compare with current" }).click();
      await done("No row differs in the columns both have, but columns were added, removed or retyped.");
      await expect(
        page
          .getByRole("table", { name: "Differences per table" })
          .getByRole("row", { name: /Customers/ })
          .getByRole("cell"),
      ).toHaveText(["Customers", "0", "0", "0", "", "Name removed (was nvarchar(50))"]);
      await expect(page.getByRole("list", { name: "Columns of Customers added, removed or retyped" }).getByRole("listitem")).toHaveText([
        "Name removed (was nvarchar(50))",
      ]);
      if (javaScriptEnabled) await expectNoViolations(page);
    });
  });
}
