import type { Page } from "@playwright/test";
import { E2E } from "../../playwright.config";
import { expectNoViolations } from "./axe";
import { fillColumn } from "./dictionary-steps";
import { createApplication, createDictionary } from "./master-data";
import { expectPermissionDenied } from "./areas";
import { startProject } from "./project-steps";
import { acme, birch, expect, test, withCompany } from "./sessions";
import { availableMasterTemplate, fillSql } from "./template-steps";

/**
 * Fusion PSI Configuration (issue 12), with JavaScript on and off: a translation mapping project made
 * through its wizard (basic settings, the file data structure, its Mapping templates), then its own
 * pages: details, file data structure and templates, whose scripts are edited as everywhere else.
 */
const at = (path: string) => new RegExp(`^${E2E.portal}${path.replace(/[?.]/g, "\\$&")}(\\?|$)`);

/**
 * A mapping project of a new application whose file data structure's one table is described from a
 * sample with a header row (`fileName`: the table is named after it); answers the project's id.
 */
async function mappingProjectFromSample(page: Page, application: string, project: string, fileName: string, sample: string): Promise<string> {
  const table = fileName.replace(/\.csv$/, "");
  await createApplication(page, application, `Where the ${table} files come from`);
  await page.goto(withCompany("/translations/mappings/create/new/basic-settings", acme.id));
  await page.getByLabel("Mapping project name").fill(project);
  await page.getByLabel("Application").selectOption({ label: application });
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page).toHaveURL(/\/translations\/mappings\/create\/[^/]+\/file-data-structure\?companyId=/);
  await page.getByLabel("Sample file", { exact: true }).setInputFiles({ name: fileName, mimeType: "text/csv", buffer: Buffer.from(sample) });
  await page.getByRole("button", { name: "Describe the table" }).click();
  const columns = sample.split("\n")[0]!.split(",").length;
  await expect(page.getByRole("status")).toHaveText(
    `Table ${table} described from the sample: ${columns} ${columns === 1 ? "column" : "columns"}. Check the suggested types.`,
  );
  return /\/mappings\/(?:create\/)?([^/]+)\//.exec(page.url())![1]!;
}

/** A mapping project described from codes.csv (its first column code; `sample`: one column), code's map holding one value, A1 → X1: answers its id. */
async function codesMappedOnce(page: Page, application: string, project: string, sample = "code\nA1\n"): Promise<string> {
  const id = await mappingProjectFromSample(page, application, project, "codes.csv", sample);
  await page.goto(withCompany(`/translations/mappings/${id}/file-data-structure/data-definition/tables`, acme.id));
  await page.getByRole("link", { name: "Value maps of codes" }).click();
  await page.getByLabel("Translate code").check();
  await page.getByRole("button", { name: "Save code" }).click();
  await expect(page.getByRole("status")).toHaveText("code is translated.");
  await page.getByRole("link", { name: "0 of 0 mapped (map of code)" }).click();
  await page.getByLabel("Source value").fill("A1");
  await page.getByLabel("Target value", { exact: true }).fill("X1");
  await page.getByRole("button", { name: "Add value" }).click();
  await expect(page.getByRole("status")).toHaveText('Value "A1" added.');
  return id;
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "JavaScript on" : "JavaScript off";
  const suffix = javaScriptEnabled ? "js" : "html";

  test.describe(`translation mapping projects with ${mode}`, () => {
    test.use({ javaScriptEnabled, signedInAs: "analyst@demo.test" });

    test("create a mapping project through its wizard, describe a file, assign a Mapping template and edit its script", async ({ page, context }) => {
      test.slow();
      const application = `Payroll system ${suffix}`;
      const name = `Payroll codes ${suffix}`;
      const mappingTemplate = `Grade maps ${suffix}`;
      const coreTemplate = `Core only ${suffix}`;
      await createApplication(page, application, "Where the client's payroll files come from");
      await availableMasterTemplate(page, mappingTemplate, "translations", "Mapping");
      await availableMasterTemplate(page, coreTemplate, "translations", "Core");

      // Basic settings.
      await page.goto(withCompany("/translations/mappings", acme.id));
      await expect(page.getByRole("heading", { level: 1, name: "Mappings" })).toBeVisible();
      await page.getByRole("link", { name: "Create mapping project" }).first().click();
      await expect(page).toHaveURL(at(withCompany("/translations/mappings/create/new/basic-settings", acme.id)));
      const steps = page.getByRole("navigation", { name: "Mapping project setup steps" });
      await expect(steps.locator('[aria-current="step"]')).toHaveText(/Basic settings/);
      await expect(page.getByLabel("Source type")).toHaveCount(0);
      await page.getByRole("button", { name: "Save and continue" }).click();
      await expect(page.getByLabel("Mapping project name")).toHaveAttribute("aria-invalid", "true");
      await page.getByLabel("Mapping project name").fill(name);
      await page.getByLabel("Application").selectOption({ label: application });
      await page.getByLabel("Description").fill("Grades and departments of the payroll files");
      await page.getByRole("button", { name: "Save and continue" }).click();

      // The file data structure: one table per file, every table with a column.
      await expect(page).toHaveURL(/\/translations\/mappings\/create\/[^/]+\/file-data-structure\?companyId=/);
      const id = /\/create\/([^/]+)\//.exec(page.url())![1]!;
      await expect(steps.locator('[aria-current="step"]')).toHaveText(/File data structure/);
      await expect(page.getByRole("button", { name: "Continue" })).toBeDisabled();
      // Two tables described from sample files: columns from the header, types suggested; the table's page opens to check them.
      const wizardUrl = page.url();
      for (const [file, text, columns] of [
        ["departments.csv", "code;name;opened\nFIN;Finance;2020-01-31\n", "3 columns"],
        ["locations.csv", "site,headcount\nLYON,120\n", "2 columns"],
      ] as const) {
        await page.getByLabel("Sample file", { exact: true }).setInputFiles({ name: file, mimeType: "text/csv", buffer: Buffer.from(text) });
        await page.getByRole("button", { name: "Describe the table" }).click();
        const table = file.replace(".csv", "");
        await expect(page.getByRole("status")).toHaveText(`Table ${table} described from the sample: ${columns}. Check the suggested types.`);
        await page.goto(wizardUrl);
      }
      await expect(page.getByRole("table", { name: "Tables of the mapping project" }).getByRole("row", { name: /departments/ })).toContainText("3");
      await page.getByLabel("Table name", { exact: true }).fill("employees");
      await fillColumn(page, 1, { name: "grade", type: "nvarchar", length: "10" });
      await page.getByRole("button", { name: "Add table" }).click();
      await expect(page.getByRole("table", { name: "Tables of the mapping project" }).getByRole("row", { name: /employees/ })).toContainText("1");
      if (javaScriptEnabled) await expectNoViolations(page);
      await page.getByRole("button", { name: "Continue" }).click();

      // Templates: only Mapping templates are offered; the first makes the mapping project Active.
      await expect(page).toHaveURL(at(withCompany(`/translations/mappings/create/${id}/templates`, acme.id)));
      await expect(page.getByRole("status")).toHaveText("File data structure saved. Next, assign its Mapping templates.");
      await expect(page.getByRole("checkbox", { name: new RegExp(coreTemplate) })).toHaveCount(0);
      await page.getByRole("checkbox", { name: new RegExp(mappingTemplate) }).check();
      await page.getByRole("button", { name: "Assign templates" }).click();
      await expect(page).toHaveURL(at(withCompany(`/translations/mappings/${id}/templates/assigned`, acme.id)));
      await expect(page.getByRole("status")).toHaveText("Templates assigned: the mapping project is Active.");
      const tabs = page.getByRole("navigation", { name: "Mapping project" });
      await expect(tabs.getByRole("link")).toHaveText(["Details", "File data structure", "Templates", "Translate a file"]);
      // Runs need databases, which a mapping project has not.
      await expect(page.getByRole("link", { name: "Run", exact: true })).toHaveCount(0);
      if (javaScriptEnabled) await expectNoViolations(page);

      // Its copy of the template's script is edited under its lock, as every script is.
      await page.getByRole("table", { name: "Templates in run order" }).getByRole("link", { name: mappingTemplate, exact: true }).click();
      await page.getByRole("table", { name: "Scripts of Load" }).getByRole("link", { name: "Customers" }).click();
      await page.getByRole("button", { name: "Lock for editing" }).click();
      await fillSql(page, "select 'grades';");
      await page.getByRole("button", { name: "Save new version" }).click();
      await expect(page.getByRole("status")).toHaveText("Version 2 saved.");

      // Details and the file data structure, from the tabs.
      await tabs.getByRole("link", { name: "Details" }).click();
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
      await expect(page.getByText("Active", { exact: true }).first()).toBeVisible();
      await expect(page.getByText("Source type")).toHaveCount(0);
      await tabs.getByRole("link", { name: "File data structure" }).click();
      await expect(page).toHaveURL(at(withCompany(`/translations/mappings/${id}/file-data-structure/data-definition/tables`, acme.id)));
      await expect(page.getByRole("row", { name: /employees/ })).toBeVisible();
      if (javaScriptEnabled) await expectNoViolations(page);

      // The value maps: grade is translated, a sample file brings its values, unmapped (one with a line break in it).
      await page.getByRole("link", { name: "Value maps of employees" }).click();
      await expect(page.getByRole("heading", { level: 2, name: "Value maps of employees" })).toBeVisible();
      await page.getByLabel("Translate grade").check();
      await page.getByLabel("Unmapped values of grade").selectOption({ label: "Use a default value" });
      await page.getByRole("button", { name: "Save grade" }).click();
      await expect(page.getByText("Give the default value")).toBeVisible();
      await page.getByLabel("Default value of grade").fill("P0");
      await page.getByRole("button", { name: "Save grade" }).click();
      await expect(page.getByRole("status")).toHaveText("grade is translated.");
      await page
        .getByLabel("Sample file", { exact: true })
        .setInputFiles({ name: "employees.csv", mimeType: "text/csv", buffer: Buffer.from('grade\nG7\nG1\nG7\n"Bob\nJunior"\n') });
      await page.getByRole("button", { name: "Read the sample" }).click();
      await expect(page.getByRole("status")).toHaveText("Sample employees.csv read: 4 rows. grade: 3 values, 3 new.");
      if (javaScriptEnabled) await expectNoViolations(page);

      // Its map: unmapped values first and marked; one form saves the page's targets, the value with a
      // line break's too (without JavaScript the browser posts its line break as CRLF: another value).
      await page.getByRole("link", { name: "0 of 3 mapped (map of grade)" }).click();
      // Its breadcrumbs name the table between the file data structure and the column, a way back to its value maps.
      const crumbs = page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("listitem");
      await expect(crumbs.nth(-2)).toHaveText("employees");
      await expect(crumbs.nth(-1)).toHaveText("grade");
      const rows = page.getByRole("table", { name: "Values of grade" }).getByRole("row");
      await expect(rows.nth(2)).toContainText("G1");
      await expect(rows.nth(2)).toContainText("Unmapped");
      await expect(rows.nth(3)).toContainText("2");
      await page.getByLabel("Target value of G7").fill("P7");
      await page.getByLabel(/^Target value of Bob\s+Junior$/).fill("BJ");
      await page.getByRole("button", { name: "Save values" }).click();
      await expect(page.getByRole("status")).toHaveText("2 values saved.");

      // A save from a tab left open is refused, nothing overwritten: the map as it is now, with what was typed
      // kept and the target saved meanwhile said under it; saving again, on purpose, keeps what was typed.
      const other = await context.newPage();
      await other.goto(page.url());
      await other.getByLabel("Target value of G1").fill("P1");
      await other.getByRole("button", { name: "Save values" }).click();
      await expect(other.getByRole("status")).toHaveText("1 value saved.");
      await other.close();
      await page.getByLabel("Target value of G1").fill("Q1");
      await page.getByLabel("Target value of G7").fill("Q7");
      await page.getByRole("button", { name: "Save values" }).click();
      await expect(page.getByRole("alert").first()).toContainText(
        /^You changed the map of grade or its column's type in another tab or window at \d\d:\d\d UTC\. Nothing was saved\. The table shows the targets saved now and keeps the ones you typed/,
      );
      await expect(page.getByLabel("Target value of G1")).toHaveValue("Q1");
      await expect(page.getByLabel("Target value of G1")).toHaveAccessibleDescription("Saved meanwhile: P1");
      await expect(page.getByLabel("Target value of G7")).toHaveValue("Q7");
      if (javaScriptEnabled) await expectNoViolations(page);
      await page.getByRole("button", { name: "Save values" }).click();
      await expect(page.getByText(/Saved meanwhile/)).toHaveCount(0);
      await expect(page.getByRole("status")).toHaveText("2 values saved.");
      await expect(page.getByLabel("Target value of G1")).toHaveValue("Q1");
      // Back as the rest of the journey expects: G1 unmapped, G7 mapped to P7.
      await page.getByLabel("Target value of G1").fill("");
      await page.getByLabel("Target value of G7").fill("P7");
      await page.getByRole("button", { name: "Save values" }).click();
      await expect(page.getByText("2 of 3 values mapped.")).toBeVisible();
      await expect(page.getByRole("status")).toHaveText("2 values saved.");
      await page.getByLabel("Only unmapped values").check();
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page.getByRole("table", { name: "Values of grade" }).getByRole("row")).toHaveCount(2);
      if (javaScriptEnabled) await expectNoViolations(page);

      // Export, then import a changed map: a preview first, applied on confirmation.
      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: "Export CSV" }).click();
      const exported = await (await download).createReadStream();
      let csv = "";
      for await (const chunk of exported) csv += chunk;
      expect(csv).toBe('source_value,target_value\r\n"Bob\nJunior",BJ\r\nG1,\r\nG7,P7\r\n');
      const importFile = (text: string) =>
        page.getByLabel("Map CSV file").setInputFiles({ name: "grades.csv", mimeType: "text/csv", buffer: Buffer.from(text) });
      await importFile("source_value,target_value\nG1,P1\nG1,P2\n");
      await page.getByRole("button", { name: "Preview import" }).click();
      await expect(page.getByText('Line 3: the source value "G1" is already on line 2')).toBeVisible();
      await importFile("source_value,target_value\nG1,P1\nG7,P7\nG9,P9\n");
      await page.getByRole("button", { name: "Preview import" }).click();
      await expect(page.getByRole("heading", { name: "Import of grades.csv: not applied yet" })).toBeVisible();
      await expect(page.getByText("1 to add, 1 to change, 1 left as they are (3 in the file).")).toBeVisible();
      await expect(page.getByRole("table", { name: "Values the import changes" })).toContainText("G1");
      if (javaScriptEnabled) await expectNoViolations(page);
      await page.getByRole("button", { name: "Apply this import" }).click();
      await expect(page.getByRole("status")).toHaveText("Import applied.");
      await expect(page.getByText("4 of 4 values mapped.")).toBeVisible();

      // Translate a client's file: the maps applied, the unmapped value given the default, a row with
      // more values than the header rejected whole, and a report.
      await tabs.getByRole("link", { name: "Translate a file" }).click();
      // The Table select offers the first 50 dictionary tables, and the search finds the others.
      const findTable = page.getByRole("search", { name: "Find a table" });
      await expect(findTable.getByRole("status")).toHaveText("The Table list offers the 3 tables.");
      await findTable.getByLabel("Table name contains").fill("nothing");
      await findTable.getByRole("button", { name: "Find tables" }).click();
      await expect(findTable.getByRole("status")).toHaveText("No table's name contains “nothing”.");
      await expect(page.getByLabel("Table", { exact: true }).locator("option")).toHaveCount(0);
      await findTable.getByLabel("Table name contains").fill("EMPL");
      await findTable.getByRole("button", { name: "Find tables" }).click();
      await expect(findTable.getByRole("status")).toHaveText("The Table list offers the 1 table whose name contains “EMPL”.");
      await page.getByLabel("Table", { exact: true }).selectOption("employees");
      await page
        .getByLabel("File to translate")
        .setInputFiles({ name: "payroll.csv", mimeType: "text/csv", buffer: Buffer.from("\uFEFFgrade\nG7\nG5\nG7,HR\nG7\n") });
      await page.getByRole("button", { name: "Translate", exact: true }).click();
      // With JavaScript the page revalidates; without it a <meta> refresh reloads it until the translation ends.
      await expect(page.getByRole("heading", { level: 2, name: "payroll.csv into employees: Completed" })).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText("4 rows read, 3 written, 1 rejected.")).toBeVisible();
      await expect(page.getByRole("table", { name: "Unmapped values of grade" })).toContainText("G5");
      const rejectedRow = page.getByRole("table", { name: "Rows rejected" }).getByRole("row").nth(1);
      await expect(rejectedRow.getByRole("cell")).toHaveText(["4", "(the whole row)", "", "2 values where the header has 1"]);
      await expect(
        page.getByText("To map them, read payroll.csv as a sample file on the value maps of employees: its values join the maps, unmapped."),
      ).toBeVisible();
      if (javaScriptEnabled) await expectNoViolations(page);
      const translated = page.waitForEvent("download");
      await page.getByRole("link", { name: "Download the translated file" }).click();
      let out = "";
      for await (const chunk of await (await translated).createReadStream()) out += chunk;
      // The client's file began with a byte-order mark (Excel's "CSV UTF-8"): so does its translation.
      expect(out).toBe("\uFEFFgrade\r\nP7\r\nP0\r\nP7\r\n");
      // The report's way to map G5: its table's value maps, where the same file read as a sample adds it, unmapped.
      const translationUrl = page.url();
      await page.getByRole("link", { name: "value maps of employees" }).click();
      await expect(page.getByRole("heading", { level: 2, name: "Value maps of employees" })).toBeVisible();
      await page
        .getByLabel("Sample file", { exact: true })
        .setInputFiles({ name: "payroll.csv", mimeType: "text/csv", buffer: Buffer.from("\uFEFFgrade\nG7\nG5\nG7,HR\nG7\n") });
      await page.getByRole("button", { name: "Read the sample" }).click();
      await expect(page.getByRole("status")).toContainText("grade: 2 values, 1 new.");
      await page.goto(translationUrl);
      await page.getByRole("link", { name: "Translate another file" }).click();
      await expect(page.getByRole("table", { name: "Translations, newest first" })).toContainText("payroll.csv");

      // A migration project names this mapping project: its scripts then join the value maps as tables of schema maps.
      const migration = `Payroll migration ${suffix}`;
      const migrationId = await startProject(page, migration, application, "Flat file");
      await page.goto(withCompany(`/migration/projects/${migrationId}/details`, acme.id));
      await page.getByLabel("Translation mapping project").selectOption({ label: name });
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByRole("status")).toHaveText(`Project ${migration} saved.`);
      await expect(page.getByRole("definition").filter({ hasText: name })).toBeVisible();

      // The list finds it by name.
      await page.goto(withCompany(`/translations/mappings?name=${encodeURIComponent(name)}`, acme.id));
      await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("Active");
    });

    test("a value added to a map leaves Add a value blank for the next one; a refused one keeps what was typed", async ({ page }) => {
      const id = await mappingProjectFromSample(page, `Grade files ${suffix}`, `Grade values ${suffix}`, "grades.csv", "grade\nG1\n");
      await page.goto(withCompany(`/translations/mappings/${id}/file-data-structure/data-definition/tables`, acme.id));
      await page.getByRole("link", { name: "Value maps of grades" }).click();
      await page.getByLabel("Translate grade").check();
      await page.getByRole("button", { name: "Save grade" }).click();
      await expect(page.getByRole("status")).toHaveText("grade is translated.");
      await page.getByRole("link", { name: "0 of 0 mapped (map of grade)" }).click();

      const source = page.getByLabel("Source value");
      const target = page.getByLabel("Target value", { exact: true });
      await source.fill("G1");
      await target.fill("P1");
      await page.getByRole("button", { name: "Add value" }).click();
      await expect(page.getByRole("status")).toHaveText('Value "G1" added.');
      await expect(page.getByLabel("Target value of G1")).toHaveValue("P1");
      await expect(source).toHaveValue("");
      await expect(target).toHaveValue("");
      // Refused (the map holds it): what was typed stays to be corrected.
      await source.fill("G1");
      await target.fill("P2");
      await page.getByRole("button", { name: "Add value" }).click();
      await expect(source).toHaveAttribute("aria-invalid", "true");
      await expect(source).toHaveValue("G1");
      await expect(target).toHaveValue("P2");
      await source.fill("G2");
      await page.getByRole("button", { name: "Add value" }).click();
      await expect(page.getByRole("status")).toHaveText('Value "G2" added.');
      await expect(source).toHaveValue("");
      await expect(target).toHaveValue("");
    });

    test("a table whose value map holds values is deleted only once the maps it deletes are confirmed", async ({ page }) => {
      const id = await codesMappedOnce(page, `Code files ${suffix}`, `Code values ${suffix}`);
      const tables = withCompany(`/translations/mappings/${id}/file-data-structure/data-definition/tables`, acme.id);
      await page.goto(tables);
      await page.getByRole("link", { name: "Delete table codes" }).click();
      await page.getByRole("button", { name: "Delete table" }).click();
      // Refused: what it would delete, listed, and the table still there.
      const confirmation = page.getByRole("region", { name: "This change deletes value maps" });
      await expect(confirmation.getByRole("listitem")).toHaveText(["The value map of codes.code: 1 source value, 1 mapped"]);
      await expect(page.getByRole("link", { name: "Value maps of codes" })).toBeVisible();
      await confirmation.getByRole("button", { name: "Apply and delete these value maps" }).click();
      await expect(page.getByRole("status")).toHaveText("Table codes deleted.");
      await expect(page.getByRole("link", { name: "Value maps of codes" })).toHaveCount(0);
    });

    test("the wizard's file data structure step also asks before deleting a table's value maps", async ({ page }) => {
      const id = await codesMappedOnce(page, `Wizard codes ${suffix}`, `Wizard values ${suffix}`);
      await page.goto(withCompany(`/translations/mappings/create/${id}/file-data-structure`, acme.id));
      await page.getByRole("link", { name: "Delete table codes" }).click();
      await page.getByRole("button", { name: "Delete table" }).click();
      const confirmation = page.getByRole("region", { name: "This change deletes value maps" });
      await expect(confirmation.getByRole("listitem")).toHaveText(["The value map of codes.code: 1 source value, 1 mapped"]);
      await confirmation.getByRole("button", { name: "Apply and delete these value maps" }).click();
      await expect(page.getByRole("status")).toHaveText("Table codes deleted.");
      await expect(page.getByRole("link", { name: "Delete table codes" })).toHaveCount(0);
    });

    test("a column dropped by its table's form or by a bulk update is asked about in the words of value maps", async ({ page }) => {
      test.slow();
      const id = await codesMappedOnce(page, `Dropped codes ${suffix}`, `Dropped values ${suffix}`, "code,label\nA1,x\n");
      const listed = "The value map of codes.code: 1 source value, 1 mapped";
      const undone = "This cannot be undone. To keep a copy of a map, export it as CSV from its page first, then apply.";
      // The table's own page: code removed from the form, then Save table.
      await page.goto(withCompany(`/translations/mappings/${id}/file-data-structure/data-definition/tables`, acme.id));
      await page.getByRole("link", { name: "codes", exact: true }).click();
      await page.getByRole("button", { name: "Remove column 1" }).click();
      await expect(page.getByRole("group", { name: "Column 2", exact: true })).toHaveCount(0);
      await page.getByRole("button", { name: "Save table" }).click();
      let confirmation = page.getByRole("region", { name: "This change deletes value maps" });
      await expect(confirmation.getByRole("listitem")).toHaveText([listed]);
      await expect(confirmation.getByText(undone)).toBeVisible();
      await expect(confirmation.getByRole("link", { name: "back up the databases" })).toHaveCount(0);
      await expect(confirmation.getByText("Or change the form below and save again.")).toBeVisible();
      await expect(page.getByRole("alert")).toHaveText("Nothing was saved: this change deletes value maps. Confirm it at the top of the page, or change it.");
      // Not confirmed: a bulk update's file leaving code out asks the same, on its review.
      await page.goto(withCompany(`/translations/mappings/${id}/file-data-structure/bulk-update/upload-data`, acme.id));
      const file = "table,column,type,length,precision,scale,nullable,key\ncodes,label,nvarchar,20,,,yes,no\n";
      await page.getByLabel("Dictionary file").setInputFiles({ name: "codes-dictionary.csv", mimeType: "text/csv", buffer: Buffer.from(file) });
      await page.getByRole("button", { name: "Upload" }).click();
      await page.getByRole("button", { name: "Apply", exact: true }).click();
      confirmation = page.getByRole("region", { name: "This change deletes value maps" });
      await expect(confirmation.getByRole("listitem")).toHaveText([listed]);
      await expect(confirmation.getByText(undone)).toBeVisible();
      await expect(confirmation.getByText("Or discard this upload below, or upload a corrected file.")).toBeVisible();
      await expect(page.getByRole("alert")).toHaveText(
        "Nothing was saved: this change deletes value maps. Confirm it at the top of the page, or discard the upload.",
      );
      await confirmation.getByRole("button", { name: "Apply and delete these value maps" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Review applied" })).toBeVisible();
      await page.goto(withCompany(`/translations/mappings/${id}/file-data-structure/data-definition/tables`, acme.id));
      await page.getByRole("link", { name: "Value maps of codes" }).click();
      await expect(page.getByLabel("Translate label")).toBeVisible();
      await expect(page.getByLabel("Translate code")).toHaveCount(0);
    });

    test("assigning a master dictionary over a table whose value map holds values asks first", async ({ page }) => {
      test.slow();
      const application = `Assigned codes ${suffix}`;
      const id = await codesMappedOnce(page, application, `Assigned values ${suffix}`);
      const master = `Code master ${suffix}`;
      const masterId = await createDictionary(page, application, master);
      await page.goto(withCompany(`/migration/data-dictionary/edit/${masterId}/data-definition/tables/new`, acme.id));
      await page.getByLabel("Table name").fill("codes");
      await fillColumn(page, 1, { name: "code", type: "nvarchar", length: "10" });
      await page.getByRole("button", { name: "Add table" }).click();
      await expect(page.getByRole("status")).toHaveText("Table codes added.");
      await page.goto(withCompany(`/translations/mappings/create/${id}/file-data-structure`, acme.id));
      await page.getByRole("button", { name: `Assign ${master}` }).click();
      // Refused: the map it would delete, listed; the row says why nothing was assigned.
      const confirmation = page.getByRole("region", { name: "This change deletes value maps" });
      await expect(confirmation.getByRole("listitem")).toHaveText(["The value map of codes.code: 1 source value, 1 mapped"]);
      await expect(confirmation.getByText("Or keep the tables as they are: assign nothing.")).toBeVisible();
      await expect(
        page.getByText("Nothing was saved: this change deletes value maps. Confirm it at the top of the page, or keep the tables as they are."),
      ).toBeVisible();
      await expect(page.getByText(`copied from ${master}`)).toHaveCount(0);
      await confirmation.getByRole("button", { name: "Apply and delete these value maps" }).click();
      await expect(page.getByRole("status")).toHaveText(`Data dictionary ${master} assigned: its tables are copied into the mapping project.`);
      // The master's code, a new column: not translated, its map empty.
      await page.getByRole("link", { name: "Value maps of codes" }).click();
      await expect(page.getByLabel("Translate code")).not.toBeChecked();
      await expect(page.getByRole("link", { name: /map of code\)$/ })).toHaveCount(0);
    });

    test("a typed name of a table described from a sample is refused as Define a table refuses it, keeping what was typed", async ({ page }) => {
      const id = await mappingProjectFromSample(page, `Typed files ${suffix}`, `Typed names ${suffix}`, "first.csv", "a\n1\n");
      await page.goto(withCompany(`/translations/mappings/create/${id}/file-data-structure`, acme.id));
      await page.getByLabel("Sample file", { exact: true }).setInputFiles({ name: "second.csv", mimeType: "text/csv", buffer: Buffer.from("b\n2\n") });
      await page.getByLabel("Name of the new table").fill("bad table!");
      await page.getByLabel("The file has no header row: name its columns by position").check();
      await page.getByRole("button", { name: "Describe the table" }).click();
      const name = page.getByLabel("Name of the new table");
      await expect(name).toHaveAccessibleDescription(/Use letters, digits and underscores, starting with a letter or underscore/);
      await expect(name).toHaveValue("bad table!");
      await expect(page.getByLabel("The file has no header row: name its columns by position")).toBeChecked();
      await expect(page.getByRole("link", { name: "Value maps of bad_table" })).toHaveCount(0);
    });

    test("a column's type change its map's default value would not fit is refused at its Type, and nothing is saved", async ({ page }) => {
      const id = await mappingProjectFromSample(page, `Level files ${suffix}`, `Level values ${suffix}`, "levels.csv", "level\n7\n");
      const tables = withCompany(`/translations/mappings/${id}/file-data-structure/data-definition/tables`, acme.id);
      await page.goto(tables);
      await page.getByRole("link", { name: "Value maps of levels" }).click();
      await page.getByLabel("Translate level").check();
      await page.getByLabel("Unmapped values of level").selectOption({ label: "Use a default value" });
      await page.getByLabel("Default value of level").fill("7");
      await page.getByRole("button", { name: "Save level" }).click();
      await expect(page.getByRole("status")).toHaveText("level is translated.");

      await page.goto(tables);
      await page.getByRole("link", { name: "levels", exact: true }).click();
      const type = page.getByRole("group", { name: "Column 1", exact: true }).getByLabel("Type");
      const before = await type.inputValue();
      await type.selectOption("date");
      await page.getByRole("button", { name: "Save table" }).click();
      await expect(type).toHaveAttribute("aria-invalid", "true");
      await expect(type).toHaveAccessibleDescription(
        'level: The default value "7" of the column\'s value map does not fit date: not a date (yyyy-mm-dd). Change it on the value map first, or keep the type.',
      );
      // Nothing saved: the table's page shows the type it had.
      await page.goto(tables);
      await page.getByRole("link", { name: "levels", exact: true }).click();
      await expect(type).toHaveValue(before);
    });

    test("a template assigned from the Templates tab before the file data structure is done: Continue makes the mapping project Active", async ({ page }) => {
      test.slow();
      const application = `Early payroll ${suffix}`;
      const template = `Early grade maps ${suffix}`;
      await createApplication(page, application, "Where the early payroll files come from");
      await availableMasterTemplate(page, template, "translations", "Mapping");
      await page.goto(withCompany("/translations/mappings/create/new/basic-settings", acme.id));
      await page.getByLabel("Mapping project name").fill(`Early codes ${suffix}`);
      await page.getByLabel("Application").selectOption({ label: application });
      await page.getByRole("button", { name: "Save and continue" }).click();
      await expect(page).toHaveURL(/\/translations\/mappings\/create\/[^/]+\/file-data-structure\?companyId=/);
      const id = /\/create\/([^/]+)\//.exec(page.url())![1]!;
      const wizardUrl = page.url();

      // Its Templates tab assigns one while the wizard is still at the file data structure.
      await page.goto(withCompany(`/translations/mappings/${id}/templates/assigned/add`, acme.id));
      await page.getByRole("checkbox", { name: new RegExp(template) }).check();
      await page.getByRole("button", { name: "Assign templates" }).click();
      await expect(page.getByRole("status")).toHaveText("Templates assigned.");

      // Continue ends the setup there: no templates step to assign it again.
      await page.goto(wizardUrl);
      await page.getByLabel("Table name", { exact: true }).fill("employees");
      await fillColumn(page, 1, { name: "grade", type: "nvarchar", length: "10" });
      await page.getByRole("button", { name: "Add table" }).click();
      await expect(page.getByRole("table", { name: "Tables of the mapping project" }).getByRole("row", { name: /employees/ })).toContainText("1");
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page).toHaveURL(at(withCompany(`/translations/mappings/${id}/details`, acme.id)));
      await expect(page.getByRole("status")).toHaveText("File data structure saved. It has its templates already, so the mapping project is Active.");
      await expect(page.getByText("Active", { exact: true }).first()).toBeVisible();
    });
  });
}

test.describe("mapping projects and the translation module's analyst", () => {
  test.use({ signedInAs: "translator@demo.test" });

  test("the translation module's analyst sees and creates mapping projects", async ({ page }) => {
    await page.goto(withCompany("/translations/mappings/create/new/basic-settings", acme.id));
    await expect(page.getByRole("heading", { level: 1, name: "Create mapping project" })).toBeVisible();
    await page.getByLabel("Mapping project name").fill("Translator's codes");
    await page.getByLabel("Application").selectOption({ index: 1 });
    await page.getByRole("button", { name: "Save and continue" }).click();
    await expect(page).toHaveURL(/\/translations\/mappings\/create\/[^/]+\/file-data-structure\?companyId=/);
    // The step links nowhere this role is refused (master dictionaries are Migrations' pages).
    await expect(page.getByRole("heading", { name: "Assign a master dictionary" })).toBeVisible();
    await expect(page.getByRole("main").locator('a[href^="/migration/"]')).toHaveCount(0);
  });
});

test.describe("mapping projects refused to a ClientAdmin", () => {
  test.use({ signedInAs: "clientadmin@demo.test" });

  test("Birch Logistics' ClientAdmin gets Permission Denied on the mapping pages", async ({ page }) => {
    for (const path of ["/translations/mappings", "/translations/mappings/create/new/basic-settings", "/translations/master-templates"]) {
      await page.goto(withCompany(path, birch.id));
      await expectPermissionDenied(page, E2E.portal, birch.id, { label: path });
    }
  });
});
