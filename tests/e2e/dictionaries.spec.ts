import path from "node:path";
import Database from "better-sqlite3";
import { E2E } from "../../playwright.config";
import { CLEANED_NAME_NOTE } from "../../contracts/common";
import { createApplication, createDictionary, submitApplication, SAMPLE, SAMPLE_ERRORS, url } from "./master-data";
import { acme, expect, test, withCompany } from "./sessions";
import { expectNoViolations } from "./axe";

/**
 * Applications and master data dictionaries, end to end: register an application, create a
 * dictionary, upload a dictionary CSV, review and apply it, edit a table's columns, and a bad upload
 * whose review lists every row error, a save refused because another tab changed the dictionary.
 * Each journey runs with JavaScript on and off.
 */

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "JavaScript on" : "JavaScript off";
  const suffix = javaScriptEnabled ? "js" : "html";

  test.describe(`applications and data dictionaries with ${mode}`, () => {
    test.use({ javaScriptEnabled, signedInAs: "analyst@demo.test" });

    test("register an application; a duplicate name is refused next to Name", async ({ page }) => {
      // A retry registers another name: the first attempt's application exists already.
      const name = `Legacy ERP ${suffix}${test.info().retry ? ` retry ${test.info().retry}` : ""}`;
      await createApplication(page, name, "The ERP the company leaves");
      await expect(page).toHaveURL(new RegExp(`/migration/application\\?companyId=${acme.id}&created=`));
      await expect(page.getByRole("status")).toHaveText(`Application ${name} created.`);
      const row = page.getByRole("table", { name: "Applications" }).getByRole("row", { name: new RegExp(name) });
      await expect(row).toContainText("The ERP the company leaves");

      await submitApplication(page, name.toUpperCase(), "");
      await expect(page).toHaveURL(`${E2E.portal}${withCompany("/migration/application/create", acme.id)}`);
      await expect(page.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByText("An application with this name already exists")).toBeVisible();
    });

    test("create a dictionary, upload the CSV, review and apply it, then edit a table's columns", async ({ page }) => {
      const application = `Dictionary app ${suffix}`;
      await createApplication(page, application, "");
      const dictionaryName = `Main dictionary ${suffix}`;
      const id = await createDictionary(page, application, dictionaryName);
      await expect(page.getByRole("navigation", { name: "Data dictionary setup steps" })).toBeVisible();
      await expect(page.getByText(/at most 64 MB/)).toBeVisible();

      // Upload → review: nothing applied yet.
      await page.getByLabel("Dictionary file").setInputFiles(SAMPLE);
      await page.getByRole("button", { name: "Upload" }).click();
      await expect(page).toHaveURL(new RegExp(`/migration/data-dictionary/create/${id}/review/tables\\?companyId=${acme.id}&review=`));
      const customers = page.getByRole("region", { name: "Customers" });
      await expect(customers).toContainText("New table");
      await expect(customers).toContainText("Columns added (5)");
      await expect(customers).toContainText("decimal(18, 2)");
      await expect(page.getByRole("region", { name: "Orders" })).toContainText("Columns added (5)");

      await page.getByRole("button", { name: "Apply" }).click();
      await expect(page).toHaveURL(url(`/migration/data-dictionary/view/${id}/data-definition`));
      await expect(page.getByRole("heading", { level: 1, name: dictionaryName })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText(dictionaryName);
      // Each tab names its page first, then the dictionary it belongs to.
      await expect(page).toHaveTitle(`Data definition · ${dictionaryName} · Data Dictionary · Data Transformation`);
      const creditLimit = page.getByRole("table", { name: "Columns of Customers" }).getByRole("row", { name: /CreditLimit/ });
      await expect(creditLimit).toContainText("decimal(18, 2)");

      // Edit the Orders table: Quantity becomes decimal(10, 2); a new Notes column goes before DeliveryTime.
      await page.getByRole("link", { name: "Edit data dictionary" }).click();
      await expect(page).toHaveURL(url(`/migration/data-dictionary/edit/${id}/data-definition`));
      await page.getByRole("table", { name: "Tables" }).getByRole("link", { name: "Orders", exact: true }).click();
      await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText("Orders");
      await expect(page).toHaveTitle(new RegExp(`^Orders · .*${dictionaryName}.* · Data Transformation$`));
      await expect(page.getByLabel("Table name")).toHaveValue("Orders");

      const quantity = page.getByRole("group", { name: "Column 3", exact: true });
      await expect(quantity.getByLabel("Name", { exact: true })).toHaveValue("Quantity");
      await quantity.getByLabel("Type", { exact: true }).selectOption("decimal");
      await quantity.getByLabel("Precision", { exact: true }).fill("10");
      await quantity.getByLabel("Scale", { exact: true }).fill("2");

      await page.getByRole("button", { name: "Add column" }).click();
      const added = page.getByRole("group", { name: "Column 6", exact: true });
      await expect(added.getByLabel("Name", { exact: true })).toHaveValue("");
      await added.getByLabel("Name", { exact: true }).fill("Notes");
      await added.getByLabel("Type", { exact: true }).selectOption("nvarchar");
      await added.getByLabel("Length", { exact: true }).fill("500");
      await added.getByLabel("Description", { exact: true }).fill("Free text");
      await page.getByRole("button", { name: "Move column 6 up" }).click();
      await expect(page.getByRole("group", { name: "Column 5", exact: true }).getByLabel("Name", { exact: true })).toHaveValue("Notes");
      // What was typed before the move survives it, with or without JavaScript.
      await expect(page.getByRole("group", { name: "Column 3", exact: true }).getByLabel("Precision", { exact: true })).toHaveValue("10");

      await page.getByRole("button", { name: "Save table" }).click();
      await expect(page).toHaveURL(url(`/migration/data-dictionary/edit/${id}/data-definition`));
      await expect(page.getByRole("table", { name: "Tables" }).getByRole("row", { name: /Orders/ })).toContainText("6");

      await page.getByRole("link", { name: "Done editing" }).click();
      const orders = page.getByRole("table", { name: "Columns of Orders" });
      await expect(orders.getByRole("row", { name: /Quantity/ })).toContainText("decimal(10, 2)");
      await expect(orders.getByRole("row").nth(5)).toContainText("Notes");
      await expect(orders.getByRole("row").nth(5)).toContainText("nvarchar(500)");
      await expect(orders.getByRole("row").nth(6)).toContainText("DeliveryTime");

      // Notes becomes int: its Length no longer applies (hidden with JavaScript; still filled in without, and dropped by the save).
      await page.getByRole("link", { name: "Edit data dictionary" }).click();
      await page.getByRole("table", { name: "Tables" }).getByRole("link", { name: "Orders", exact: true }).click();
      const notes = page.getByRole("group", { name: "Column 5", exact: true });
      await expect(notes.getByLabel("Name", { exact: true })).toHaveValue("Notes");
      await notes.getByLabel("Type", { exact: true }).selectOption("int");
      if (javaScriptEnabled) await expect(notes.getByLabel("Length", { exact: true })).toHaveCount(0);
      else await expect(notes.getByLabel("Length", { exact: true })).toHaveValue("500");
      await page.getByRole("button", { name: "Save table" }).click();
      await expect(page).toHaveURL(url(`/migration/data-dictionary/edit/${id}/data-definition`));
      await page.getByRole("link", { name: "Done editing" }).click();
      const notesRow = page.getByRole("table", { name: "Columns of Orders" }).getByRole("row", { name: /Notes/ });
      await expect(notesRow).toContainText("int");
      await expect(notesRow).not.toContainText("nvarchar");
    });

    test("a save refused because the dictionary changed in another tab shows it as it is now, keeps what was typed, and the next try is applied", async ({
      page,
      context,
    }) => {
      const retry = test.info().retry ? ` retry ${test.info().retry}` : "";
      const application = `Stale dictionary app ${suffix}${retry}`;
      await createApplication(page, application, "");
      const name = `Stale dictionary ${suffix}${retry}`;
      const id = await createDictionary(page, application, name);
      const header = (tables: string) => page.getByText(new RegExp(`^Application ${application} · ${tables}$`));

      // The application's page is open while the same person adds a table from a second tab.
      await page.goto(withCompany(`/migration/data-dictionary/edit/${id}/application`, acme.id));
      await expect(header("0 tables, 0 columns")).toBeVisible();
      const other = await context.newPage();
      await other.goto(withCompany(`/migration/data-dictionary/edit/${id}/data-definition/tables/new`, acme.id));
      await other.getByLabel("Table name").fill("Customers");
      const column = other.getByRole("group", { name: "Column 1", exact: true });
      await column.getByLabel("Name", { exact: true }).fill("CustomerId");
      await column.getByLabel("Type", { exact: true }).selectOption("int");
      await other.getByRole("button", { name: "Add table" }).click();
      await expect(other.getByRole("status")).toHaveText("Table Customers added.");

      await page.getByLabel("Name", { exact: true }).fill(`${name} renamed`);
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(page.getByText(/^You changed this dictionary in another tab or window at \d\d:\d\d UTC\./)).toBeVisible();
      // The header as the dictionary is now, and what was typed, kept: saving again is applied.
      await expect(header("1 table, 1 column")).toBeVisible();
      await expect(page.getByLabel("Name", { exact: true })).toHaveValue(`${name} renamed`);
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(page.getByRole("status")).toHaveText(`Data dictionary ${name} renamed saved.`);

      // A new table written while the second tab renames the dictionary.
      await page.goto(withCompany(`/migration/data-dictionary/edit/${id}/data-definition/tables/new`, acme.id));
      await page.getByLabel("Table name").fill("Orders");
      const orderId = page.getByRole("group", { name: "Column 1", exact: true });
      await orderId.getByLabel("Name", { exact: true }).fill("OrderId");
      await orderId.getByLabel("Type", { exact: true }).selectOption("int");
      await other.goto(withCompany(`/migration/data-dictionary/edit/${id}/application`, acme.id));
      await other.getByLabel("Name", { exact: true }).fill(`${name} again`);
      await other.getByRole("button", { name: "Save", exact: true }).click();
      await expect(other.getByRole("status")).toHaveText(`Data dictionary ${name} again saved.`);
      await other.close();

      await page.getByRole("button", { name: "Add table" }).click();
      await expect(page.getByText(/^You changed this dictionary in another tab or window at \d\d:\d\d UTC\./)).toBeVisible();
      await expect(page.getByRole("heading", { level: 1, name: `${name} again` })).toBeVisible();
      await expect(page.getByLabel("Table name")).toHaveValue("Orders");
      await expect(page.getByRole("group", { name: "Column 1", exact: true }).getByLabel("Name", { exact: true })).toHaveValue("OrderId");
      await page.getByRole("button", { name: "Add table" }).click();
      await expect(page.getByRole("status")).toHaveText("Table Orders added.");
      await expect(header("2 tables, 2 columns")).toBeVisible();
    });

    test("a column removed from the middle of a table's columns leaves the others numbered in order, and the table saves without it", async ({ page }) => {
      const retry = test.info().retry ? ` retry ${test.info().retry}` : "";
      const application = `Column removal app ${suffix}${retry}`;
      await createApplication(page, application, "");
      const id = await createDictionary(page, application, `Column removal ${suffix}${retry}`);
      await page.getByLabel("Dictionary file").setInputFiles(SAMPLE);
      await page.getByRole("button", { name: "Upload" }).click();
      await page.getByRole("button", { name: "Apply" }).click();
      await expect(page).toHaveURL(url(`/migration/data-dictionary/view/${id}/data-definition`));
      await page.getByRole("link", { name: "Edit data dictionary" }).click();
      await page.getByRole("table", { name: "Tables" }).getByRole("link", { name: "Orders", exact: true }).click();

      // CustomerId (column 2 of 5) removed: the three after it move up, numbered 2 to 4 (with JavaScript in the page, without it by the answer).
      await page.getByRole("button", { name: "Remove column 2" }).click();
      await expect(page.getByRole("group", { name: "Column 5", exact: true })).toHaveCount(0);
      for (const [i, name] of ["OrderId", "Quantity", "Weight", "DeliveryTime"].entries()) {
        await expect(page.getByRole("group", { name: `Column ${i + 1}`, exact: true }).getByRole("textbox", { name: "Name", exact: true })).toHaveValue(name);
      }
      await page.getByRole("button", { name: "Save table" }).click();
      await expect(page.getByRole("status")).toHaveText("Table Orders saved.");

      await page.getByRole("link", { name: "Done editing" }).click();
      const orders = page.getByRole("table", { name: "Columns of Orders" });
      await expect(orders.getByRole("row")).toHaveCount(5);
      await expect(orders).not.toContainText("CustomerId");
    });

    test("a name saved with a tab (before names refused one) is offered cleaned, with a note, and a save of the description keeps it so", async ({ page }) => {
      const retry = test.info().retry ? ` retry ${test.info().retry}` : "";
      const application = `Cleaned name app ${suffix}${retry}`;
      await createApplication(page, application, "");
      const cleaned = `Tabbed ledger ${suffix}${retry}`;
      const id = await createDictionary(page, application, cleaned);
      // A name stored with a tab, as one saved before 1c7df23 was: written in the data API's database, which no form may do now.
      const dataApi = <T>(run: (db: Database.Database) => T) => {
        const db = new Database(path.join(E2E.dataDir, "data-api.sqlite"));
        try {
          return run(db);
        } finally {
          db.close();
        }
      };
      dataApi((db) => db.prepare("update dictionaries set name = ? where id = ?").run(cleaned.replace(" ", "\t"), id));

      await page.goto(withCompany(`/migration/data-dictionary/edit/${id}/application`, acme.id));
      const name = page.getByRole("textbox", { name: "Name", exact: true });
      await expect(name).toHaveValue(cleaned);
      await expect(name).toHaveAccessibleDescription(CLEANED_NAME_NOTE);
      await page.getByRole("textbox", { name: "Description" }).fill("Saved with its name cleaned");
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(page).toHaveURL(url(`/migration/data-dictionary/view/${id}/application`));
      await expect(page.getByRole("status")).toHaveText(`Data dictionary ${cleaned} saved.`);
      await expect(page.getByRole("definition").filter({ hasText: "Saved with its name cleaned" })).toBeVisible();
      expect(dataApi((db) => db.prepare("select name from dictionaries where id = ?").pluck().get(id))).toBe(cleaned);

      // Saved clean: the form offers it with no note.
      await page.goto(withCompany(`/migration/data-dictionary/edit/${id}/application`, acme.id));
      await expect(name).toHaveValue(cleaned);
      await expect(name).toHaveAccessibleDescription("");
    });

    test("a bad upload lists every row error with its row and column, and cannot be applied", async ({ page }) => {
      const application = `Bad upload app ${suffix}`;
      await createApplication(page, application, "");
      const id = await createDictionary(page, application, `Bad upload ${suffix}`);

      await page.getByLabel("Dictionary file").setInputFiles(SAMPLE_ERRORS);
      await page.getByRole("button", { name: "Upload" }).click();
      await expect(page).toHaveURL(new RegExp(`/create/${id}/review/tables\\?`));
      const problems = page.getByRole("table", { name: "Problems in the file" });
      await expect(problems).toBeVisible();
      await expect(problems.getByRole("row", { name: /varchar2/ })).toContainText("3");
      await expect(problems.getByRole("row", { name: /varchar2/ })).toContainText("type");
      expect(await problems.getByRole("row").count()).toBeGreaterThanOrEqual(5);
      await expect(page.getByRole("button", { name: "Apply" })).toBeDisabled();

      await page.getByRole("button", { name: "Discard" }).click();
      await expect(page).toHaveURL(url(`/migration/data-dictionary/create/${id}/upload-data`));

      // A file the API cannot read at all: the message next to the file field.
      await page.getByLabel("Dictionary file").setInputFiles({ name: "dictionary.xlsx", mimeType: "application/octet-stream", buffer: Buffer.from("not a workbook") });
      await page.getByRole("button", { name: "Upload" }).click();
      await expect(page.getByLabel("Dictionary file")).toHaveAttribute("aria-invalid", "true");
    });
  });
}

test.describe("the applications list with JavaScript off", () => {
  test.use({ javaScriptEnabled: false, signedInAs: "analyst@demo.test" });

  test("searching filters the list in the URL, and sorting keeps the search", async ({ page }) => {
    await createApplication(page, "Searchable ledger", "Found by the search");
    await createApplication(page, "Unrelated payroll", "");
    await page.goto(withCompany("/migration/application", acme.id));
    const table = page.getByRole("table", { name: "Applications" });
    await expect(table).toContainText("Unrelated payroll");

    await page.getByLabel("Search applications").fill("LEDGER");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(`${E2E.portal}/migration/application?companyId=${acme.id}&name=LEDGER&pageSize=25`);
    await expect(page.getByLabel("Search applications")).toHaveValue("LEDGER");
    // The header row and the one match.
    await expect(table.getByRole("row")).toHaveCount(2);
    await expect(table.getByRole("row", { name: /Searchable ledger/ })).toContainText("Found by the search");
    await expect(page.getByRole("navigation", { name: "Pagination" })).toContainText("Page 1 of 1 · 1 application");

    await expect(table.getByRole("columnheader", { name: /^Name/ })).toHaveAttribute("aria-sort", "ascending");
    await table.getByRole("link", { name: /^Name/ }).click();
    await expect(page).toHaveURL(/[?&]sort=-name(&|$)/);
    await expect(page).toHaveURL(/[?&]name=LEDGER(&|$)/);
    await expect(table.getByRole("columnheader", { name: /^Name/ })).toHaveAttribute("aria-sort", "descending");
    await expect(table.getByRole("row")).toHaveCount(2);

    await page.getByLabel("Search applications").fill("no such application");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText("No matching applications")).toBeVisible();
  });
});

test.describe("a table's deletion confirmation with JavaScript on", () => {
  test.use({ signedInAs: "analyst@demo.test" });

  test("opened by its address (a reload, a link opened in a new tab), the page hydrates with it, and Cancel keeps the table", async ({ page }) => {
    await createApplication(page, "Deletion app", "");
    const id = await createDictionary(page, "Deletion app", "Deletion dictionary");
    await page.getByLabel("Dictionary file").setInputFiles(SAMPLE);
    await page.getByRole("button", { name: "Upload" }).click();
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(url(`/migration/data-dictionary/view/${id}/data-definition`));
    await page.getByRole("link", { name: "Edit data dictionary" }).click();
    const href = await page.getByRole("link", { name: "Delete table Orders" }).getAttribute("href");
    // Loaded whole, as a reload does: its card came with the page's HTML and fails no hydration (the fixture fails on a page error).
    await page.goto(href!);
    await expect(page.getByRole("heading", { name: "Delete table Orders?" })).toBeFocused();
    await page.waitForLoadState("networkidle");
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).not.toHaveURL(/[?&]delete=/);
    await expect(page.getByRole("heading", { name: "Delete table Orders?" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Delete table Orders" })).toBeVisible();
  });
});

test.describe("accessibility of the dictionary pages", () => {
  test.use({ signedInAs: "analyst@demo.test" });


  test("the list, the review with row errors and the table editor have no WCAG A/AA violation", async ({ page }) => {
    await createApplication(page, "Axe app", "");
    await expectNoViolations(page);
    const id = await createDictionary(page, "Axe app", "Axe dictionary");
    await expectNoViolations(page);
    await page.getByLabel("Dictionary file").setInputFiles(SAMPLE_ERRORS);
    await page.getByRole("button", { name: "Upload" }).click();
    await expect(page.getByRole("table", { name: "Problems in the file" })).toBeVisible();
    await expectNoViolations(page);
    await page.goto(withCompany(`/migration/data-dictionary/edit/${id}/data-definition/tables/new`, acme.id));
    await expect(page.getByRole("group", { name: "Column 1", exact: true })).toBeVisible();
    await expectNoViolations(page);
  });

  // A phone's width: each table's columns, which hold no link, are wider than the screen; their box must be reachable by Tab to scroll.
  test("at a phone's width, the view's columns tables have no violation and scroll sideways from the keyboard", async ({ page }) => {
    await createApplication(page, "Narrow app", "");
    const id = await createDictionary(page, "Narrow app", "Narrow dictionary");
    await page.getByLabel("Dictionary file").setInputFiles(SAMPLE);
    await page.getByRole("button", { name: "Upload" }).click();
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(url(`/migration/data-dictionary/view/${id}/data-definition`));
    await page.setViewportSize({ width: 390, height: 800 });
    await page.reload();
    await expectNoViolations(page);
    const box = page.getByRole("group", { name: /^Columns of / }).first();
    await box.focus();
    await expect(box).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => box.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  });
});
