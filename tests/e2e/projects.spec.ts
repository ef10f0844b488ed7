import { E2E } from "../../playwright.config";
import { acme, birch, DEMO, expect, test, withCompany } from "./sessions";
import { expectNoViolations } from "./axe";
import { availableMasterTemplate, createTemplateWithScript, fillSql } from "./template-steps";
import { fillColumn } from "./dictionary-steps";
import { createApplication, createDictionary } from "./master-data";
import { startProject } from "./project-steps";

/**
 * Migration projects, end to end, with JavaScript on and off: the wizard from details to created
 * databases (watching the job finish), a table of the project's own dictionary edited, a user given
 * read access, and the list's search, status filter and sort kept in the URL.
 */
const at = (path: string) => new RegExp(`^${E2E.portal}${path.replace(/[?.]/g, "\\$&")}(\\?|$)`);

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "JavaScript on" : "JavaScript off";
  const suffix = javaScriptEnabled ? "js" : "html";

  test.describe(`migration projects with ${mode}`, () => {
    test.use({ javaScriptEnabled, signedInAs: "analyst@demo.test" });

    test("create a project through the wizard to its databases, edit its dictionary, grant read access", async ({ page, consoleErrors }) => {
      test.setTimeout(240_000);
      const application = `Projects app ${suffix}`;
      const name = `Wizard project ${suffix}`;
      await createApplication(page, application);

      // Step 1: details.
      await page.goto(withCompany("/migration/projects", acme.id));
      await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
      await page.getByRole("link", { name: "Create project" }).first().click();
      await expect(page).toHaveURL(at(withCompany("/migration/projects/create", acme.id)));
      const steps = page.getByRole("navigation", { name: "Project setup steps" });
      await expect(steps.locator('[aria-current="step"]')).toHaveText(/Details/);
      await expect(page).toHaveTitle("Step 1 of 4: Details · Create project · Data Transformation");
      await page.getByRole("button", { name: "Save and continue" }).click();
      await expect(page.getByLabel("Project name")).toHaveAttribute("aria-invalid", "true");
      await page.getByLabel("Project name").fill(name);
      await page.getByLabel("Application").selectOption({ label: application });
      await page.getByLabel("Source type").selectOption({ label: "Flat file" });
      await page.getByLabel("Description").fill("Made by the browser test");
      const posted = javaScriptEnabled ? null : page.waitForRequest((req) => req.method() === "POST" && new URL(req.url()).pathname === "/migration/projects/create");
      await page.getByRole("button", { name: "Save and continue" }).click();

      // Step 2: define a table with a column in the wizard.
      await expect(page).toHaveURL(/\/migration\/projects\/create\/[^/]+\/data-dictionary\?companyId=/);
      const projectId = /\/create\/([^/]+)\//.exec(page.url())![1]!;
      if (posted) {
        // The same post sent again, as the browser sends it for a second click, a reload that resends the form, or Back and
        // submit: it continues at the same step, never "A project with this name already exists in this company".
        const sent = await posted;
        const again = await page.request.post(sent.url(), { data: sent.postData()!, headers: { "content-type": sent.headers()["content-type"]! }, maxRedirects: 0 });
        expect(again.status()).toBe(302);
        expect(again.headers()["location"]).toBe(withCompany(`/migration/projects/create/${projectId}/data-dictionary`, acme.id));
      }
      await expect(steps.locator('[aria-current="step"]')).toHaveText(/Data dictionary/);
      // Each step its own title; a step done says so (its tick is a picture).
      await expect(page).toHaveTitle(`Step 2 of 4: Data dictionary · Set up ${name} · Data Transformation`);
      await expect(steps.getByRole("link", { name: "Details (completed)" })).toBeVisible();
      await expect(steps.getByText("Templates")).toBeVisible();
      await expect(steps.getByRole("link", { name: /Templates/ })).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Continue" })).toBeDisabled();
      await page.getByLabel("Table name").fill("Customers");
      await fillColumn(page, 1, { name: "CustomerId", type: "int", nullable: "No", key: true });
      await page.getByRole("button", { name: "Add table" }).click();
      await expect(page.getByRole("table", { name: "Tables of the project" }).getByRole("row", { name: /Customers/ })).toContainText("1");

      // Back on the create page (as browser Back brings a user), the unfinished project is offered to
      // continue, at its first incomplete step: the dictionary has a table with a column, so databases.
      await page.goto(withCompany("/migration/projects/create", acme.id));
      const unfinished = page.getByRole("region", { name: "Unfinished projects" });
      await expect(unfinished.getByRole("listitem").filter({ hasText: name })).toContainText("Setup: choose upload type");
      await unfinished.getByRole("link", { name: `Continue ${name}` }).click();

      // Step 3: upload type and file parameters, then create the databases and watch the job.
      await expect(page).toHaveURL(at(withCompany(`/migration/projects/create/${projectId}/databases`, acme.id)));
      await expect(steps.locator('[aria-current="step"]')).toHaveText(/Databases/);
      await expect(page).toHaveTitle(`Step 3 of 4: Databases · Set up ${name} · Data Transformation`);
      await expect(page.getByRole("button", { name: "Create databases" })).toBeDisabled();
      await page.getByLabel("Upload type", { exact: true }).selectOption({ label: "Single file" });
      await page.getByLabel("File extension").selectOption(".csv");
      const delimiters = await page.getByLabel("Delimiter").locator("option").allTextContents();
      expect(delimiters).toEqual(["Auto detect", "Fixed Length", "Excel", "Tab", "comma", "pipe", "semicolon", "tilde", "apostrophe", "caret"]);
      await page.getByLabel("Delimiter").selectOption({ label: "comma" });
      await expect(page.getByLabel("Header row")).toBeChecked();
      await page.getByLabel("Encoding").selectOption("UTF-8");
      await page.getByRole("button", { name: "Save" }).click();
      await expect(page.getByRole("button", { name: "Create databases" })).toBeEnabled();
      await page.getByRole("button", { name: "Create databases" }).click();
      // With JavaScript the page polls; without it a <meta> refresh reloads it until the job ends.
      await expect(page.getByText("The databases are created.")).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole("progressbar", { name: "Database creation progress" })).toHaveAttribute("aria-valuenow", "100");
      await expect(page.getByText("Database creation: Succeeded")).toBeVisible();
      await expect(page.getByRole("link", { name: "Load a flat file" })).toBeVisible();

      // The project's details and its background process.
      await page.goto(withCompany(`/migration/projects/${projectId}/details`, acme.id));
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText(name);
      await expect(page.getByText("Setup: load source data").first()).toBeVisible();
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Background process" }).click();
      await expect(page.getByRole("heading", { name: "Database creation: Succeeded" })).toBeVisible();

      // Its databases on PostgreSQL: each dictionary table in source and destination, empty so far.
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Databases" }).click();
      // The destination's tables have no "Last loaded": runs fill them, not loads.
      for (const which of ["source", "destination"]) {
        const customers = page.getByRole("table", { name: `Tables of the ${which} database` }).getByRole("row", { name: /Customers/ });
        await expect(customers.getByRole("cell")).toHaveText(["Customers", "1", "0", /^\d+(\.\d)? (B|KB)$/, ...(which === "source" ? ["Never"] : [])]);
      }

      // Load a file with a bad row: with "Load nothing" (the default) nothing is loaded, and the row is listed and downloadable.
      await page.getByRole("link", { name: "Load a flat file" }).first().click();
      await expect(page.getByRole("heading", { name: "Load a flat file" })).toBeVisible();
      if (javaScriptEnabled) await expectNoViolations(page);
      const loadFile = async (name: string, text: string) => {
        await page.getByLabel("File", { exact: true }).setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
        await page.getByLabel("Table", { exact: true }).selectOption("Customers");
        await page.getByRole("button", { name: "Load" }).click();
        await expect(page.getByRole("heading", { name: `${name} into Customers` })).toBeVisible();
      };
      // The Table list holds the first tables whose name contains a search, found by a GET form (a project may have thousands).
      const findTable = page.getByRole("search", { name: "Find a table" });
      await findTable.getByLabel("Table name contains").fill("CUST");
      await findTable.getByRole("button", { name: "Find tables" }).click();
      await expect(findTable.getByRole("status")).toHaveText("The Table list offers the 1 table whose name contains “CUST”.");
      await expect(page.getByLabel("Table", { exact: true }).locator("option")).toHaveText(["Choose a table", "Customers"]);
      await loadFile("customers-bad.csv", "CustomerId\r\n1\r\n2\r\nx\r\n");
      // The job runs in the background: with JavaScript the page polls, without it a <meta> refresh reloads it.
      await expect(page.getByRole("status").filter({ hasText: "1 row was rejected, so nothing was loaded" })).toBeVisible({ timeout: 30_000 });
      // Where its job stopped: at its step, not at a percentage (a file of a few rows is read whole at once: it said "Stopped at 99%").
      await expect(page.getByText("Stopped at step 2 of 2: Load customers-bad.csv into Customers")).toBeVisible();
      await expect(page.getByRole("progressbar")).toHaveCount(0);
      // The load's page: its table's counts and the parameters it read with; the table's page: its rejected rows.
      const loadTables = page.getByRole("table", { name: "Tables of the load" });
      await expect(loadTables.getByRole("row", { name: /Customers/ }).getByRole("cell")).toHaveText(["Customers", "customers-bad.csv", "3", "0", "1"]);
      await expect(page.getByRole("definition").filter({ hasText: "comma" })).toBeVisible();
      if (javaScriptEnabled) await expectNoViolations(page);
      await loadTables.getByRole("link", { name: "Customers" }).click();
      await expect(
        page
          .getByRole("table", { name: "Rejected rows" })
          .getByRole("row", { name: /not a whole number/ })
          .getByRole("cell"),
      ).toHaveText(["4", "CustomerId", "x", "not a whole number"]);
      if (javaScriptEnabled) await expectNoViolations(page);
      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: "Download rejected rows" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe("customers-bad-rejected-rows.csv");
      const chunks: Buffer[] = [];
      for await (const chunk of await file.createReadStream()) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).toString("utf8")).toBe("\uFEFFCustomerId,Rejected row,Rejection reason\r\nx,4,CustomerId: not a whole number\r\n");
      // The refused load changed nothing: the automatic backup it took went with it, so Restore's list has no copy of the failed try.
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Databases" }).click();
      await page.getByRole("link", { name: "Restore a backup" }).click();
      await expect(page.getByText("No backup yet.")).toBeVisible();

      // Corrected, the file loads, and the project moves to its next step.
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Databases" }).click();
      await page.getByRole("link", { name: "Load a flat file" }).first().click();
      // An empty file is refused next to File, and the choices stay as they were made (without JavaScript too: a retry must not replace).
      await page.getByLabel("Table", { exact: true }).selectOption("Customers");
      await page.getByRole("group", { name: "Mode" }).getByLabel("Append").check();
      await page.getByRole("group", { name: "When rows are rejected" }).getByLabel("Load the other rows").check();
      await page.getByLabel("File", { exact: true }).setInputFiles({ name: "customers.csv", mimeType: "text/csv", buffer: Buffer.alloc(0) });
      await page.getByRole("button", { name: "Load" }).click();
      await expect(page.getByText("The file is empty")).toBeVisible();
      await expect(page.getByLabel("Table", { exact: true })).toHaveValue("Customers");
      await expect(page.getByRole("group", { name: "Mode" }).getByLabel("Append")).toBeChecked();
      await expect(page.getByRole("group", { name: "When rows are rejected" }).getByLabel("Load the other rows")).toBeChecked();
      // This time previewed first: the rows as read, the table matched by the file's name; loaded without choosing the file again,
      // with the choices made before the preview (the table is empty: appended, its rows are the file's).
      await page.getByRole("group", { name: "Mode" }).getByLabel("Append").check();
      await page.getByRole("group", { name: "When rows are rejected" }).getByLabel("Load the other rows").check();
      await page
        .getByLabel("File", { exact: true })
        .setInputFiles({ name: "customers.csv", mimeType: "text/csv", buffer: Buffer.from("CustomerId\r\n1\r\n2\r\n") });
      await page.getByRole("button", { name: "Preview" }).click();
      await expect(page.getByRole("heading", { name: "Preview" })).toBeVisible();
      await expect(page.getByRole("group", { name: "Mode" }).getByLabel("Append")).toBeChecked();
      await expect(page.getByRole("group", { name: "When rows are rejected" }).getByLabel("Load the other rows")).toBeChecked();
      const firstRows = page.getByRole("table", { name: "First rows of customers.csv" });
      await expect(firstRows.getByRole("row")).toHaveCount(3);
      await expect(firstRows.getByRole("row").nth(1).getByRole("cell")).toHaveText(["2", "1"]);
      await expect(page.getByLabel("Table", { exact: true })).toHaveValue("Customers");
      if (javaScriptEnabled) await expectNoViolations(page);
      await page.getByRole("button", { name: "Load" }).click();
      await expect(page.getByRole("heading", { name: "customers.csv into Customers" })).toBeVisible();
      await expect(page.getByRole("status").filter({ hasText: "2 of 2 rows loaded." })).toBeVisible({ timeout: 30_000 });
      // The one file it loaded is not said to be skipped.
      await expect(page.getByText(/Skipped/)).toHaveCount(0);
      await expect(page.getByText("Append", { exact: true })).toBeVisible();
      await expect(page.getByText("Load the other rows", { exact: true })).toBeVisible();
      // The parameters it read the file with, in words.
      const parameters = page.getByRole("region", { name: "Parameters" });
      await expect(parameters.getByRole("term").first()).toHaveText("File extension");
      await expect(parameters.getByRole("definition").first()).toHaveText(".csv");
      await page.getByRole("link", { name: "History", exact: true }).click();
      const history = page.getByRole("table", { name: "History" });
      await expect(history.getByRole("row")).toHaveCount(3);
      // Filtered by status through a GET form: the refused load only.
      await page.getByRole("checkbox", { name: "Refused" }).check();
      await page.getByRole("button", { name: "Search" }).click();
      await expect(history.getByRole("row")).toHaveCount(2);
      await expect(history.getByRole("row").nth(1)).toContainText("customers-bad.csv");
      if (javaScriptEnabled) await expectNoViolations(page);
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Databases" }).click();
      await expect(
        page
          .getByRole("table", { name: "Tables of the source database" })
          .getByRole("row", { name: /Customers/ })
          .getByRole("cell"),
      ).toHaveText(["Customers", "1", "2", /^\d+(\.\d)? KB$/, /^\d{4}-\d{2}-\d{2} /]);
      await expect(page.getByText("Setup: assign templates").first()).toBeVisible();
      // Not Active yet: the run page says why and leads to the setup step, rather than offer a run the data API refuses.
      await page.goto(withCompany(`/migration/projects/${projectId}/templates/run`, acme.id));
      await expect(page.getByText("A run starts once the project is Active; it is “Setup: assign templates”.")).toBeVisible();
      await expect(page.getByRole("button", { name: "Start the run" })).toHaveCount(0);
      await page.getByRole("link", { name: "Finish its setup" }).click();
      await expect(page).toHaveURL(at(withCompany(`/migration/projects/create/${projectId}/templates`, acme.id)));
      await page.goto(withCompany(`/migration/projects/${projectId}/databases/current`, acme.id));

      // Several files at once, each into the table its name names; a file that names no table is said so and left out.
      await page.getByRole("link", { name: "Load a flat file" }).first().click();
      await page.getByRole("group", { name: "Upload type" }).getByLabel("Multiple files").check();
      await page.getByLabel("File", { exact: true }).setInputFiles([
        { name: "Customers.csv", mimeType: "text/csv", buffer: Buffer.from("CustomerId\r\n2\r\n1\r\n") },
        { name: "Notes.txt", mimeType: "text/plain", buffer: Buffer.from("Note\r\nhello\r\n") },
      ]);
      await page.getByRole("button", { name: "Preview" }).click();
      await expect(page.getByRole("heading", { name: "Customers.csv into Customers" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Notes.txt: no table of that name" })).toBeVisible();
      await page.getByRole("button", { name: "Load" }).click();
      await expect(page.getByRole("status").filter({ hasText: "2 of 2 rows loaded." })).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole("table", { name: "Tables of the load" }).getByRole("row")).toHaveCount(2);
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Databases" }).click();

      // A file of its header alone, with Replace (the default), is refused rather than empty the table: its two rows stay (read below).
      await page.getByRole("link", { name: "Load a flat file" }).first().click();
      await loadFile("customers-header.csv", "CustomerId\r\n");
      await expect(
        page
          .getByRole("status")
          .filter({ hasText: "customers-header.csv: the file has no rows, so Replace would have emptied Customers. Nothing was loaded." }),
      ).toBeVisible({ timeout: 30_000 });
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Databases" }).click();

      // The rows as stored, from the source database, sortable through the URL.
      await page.getByRole("link", { name: "Tables and their rows" }).click();
      // One database at a time, searched, sorted and paged through the URL.
      const findTables = page.getByRole("search", { name: "Find tables" });
      await findTables.getByLabel("Database").selectOption("destination");
      await findTables.getByLabel("Search tables").fill("CUST");
      await findTables.getByRole("button", { name: "Search" }).click();
      await expect(page.getByRole("heading", { name: "Tables of the destination database" })).toBeVisible();
      await expect(page.getByRole("table", { name: "Destination tables" }).getByRole("row", { name: /Customers/ })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Pagination" })).toContainText("Page 1 of 1 · 1 table");
      if (javaScriptEnabled) await expectNoViolations(page);
      await findTables.getByLabel("Search tables").fill("no such table");
      await findTables.getByRole("button", { name: "Search" }).click();
      await expect(page.getByText("No table's name contains this search.")).toBeVisible();
      await page.getByRole("link", { name: "Clear filters" }).click();
      // The box shows the URL's search again, empty, with JavaScript too (a client navigation keeps an uncontrolled box's text).
      await expect(findTables.getByLabel("Search tables")).toHaveValue("");
      await page.getByRole("table", { name: "Source tables" }).getByRole("link", { name: "Size (sort)" }).click();
      await expect(page).toHaveURL(/sort=size/);
      await page.getByRole("table", { name: "Source tables" }).getByRole("link", { name: "Customers" }).click();
      const rows = page.getByRole("table", { name: "Rows of Customers" });
      await expect(rows.getByRole("row")).toHaveCount(3);
      // Its column with the type the dictionary gave it (int), not PostgreSQL's name for it (integer).
      await expect(rows.getByRole("columnheader")).toHaveText(["CustomerId int"]);
      await expect(rows.getByRole("row").nth(1)).toHaveText("1");
      await rows.getByRole("link", { name: "CustomerId" }).click();
      await expect(rows.getByRole("row").nth(1)).toHaveText("2");
      await expect(page.getByRole("navigation", { name: "Pagination" })).toContainText("2 rows");
      // Contains in "Any column" (the Column select's default) finds the rows any of whose columns holds the text.
      const findRows = page.getByRole("search", { name: "Find rows" });
      await expect(findRows.getByLabel("Column")).toHaveValue("");
      await findRows.getByLabel("Contains").fill("1");
      await findRows.getByRole("button", { name: "Show" }).click();
      await expect(rows.getByRole("row")).toHaveCount(2);
      await expect(rows.getByRole("row").nth(1)).toHaveText("1");
      await expect(page.getByRole("navigation", { name: "Pagination" })).toContainText("Page 1 of 1 · 1 row");
      // Its Table list is found the same way: a search that finds nothing says so; one that finds tables shows the first one's rows.
      await findTable.getByLabel("Table name contains").fill("no such table");
      await findTable.getByRole("button", { name: "Find tables" }).click();
      await expect(findTable.getByRole("status")).toHaveText("No table's name contains “no such table”.");
      await findTable.getByLabel("Table name contains").fill("cust");
      await findTable.getByRole("button", { name: "Find tables" }).click();
      await expect(findTable.getByRole("status")).toHaveText("The Table list offers the 1 table whose name contains “cust”.");
      await expect(rows.getByRole("row")).toHaveCount(3);
      if (javaScriptEnabled) await expectNoViolations(page);

      // Edit a table of the project's own dictionary.
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Data dictionary" }).click();
      await expect(page).toHaveURL(at(withCompany(`/migration/projects/${projectId}/data-dictionary/data-definition/tables`, acme.id)));
      await page.getByRole("link", { name: "Customers", exact: true }).click();
      await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText("Customers");
      await page.getByRole("button", { name: "Add column" }).click();
      await fillColumn(page, 2, { name: "FullName", type: "nvarchar", length: "120" });
      await page.getByRole("button", { name: "Save table" }).click();
      await expect(page).toHaveURL(at(withCompany(`/migration/projects/${projectId}/data-dictionary/data-definition/tables`, acme.id)));
      await expect(page.getByRole("table", { name: "Tables of the project" }).getByRole("row", { name: /Customers/ })).toContainText("2");

      // Grant a user read access.
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Project access" }).click();
      // The company's people a page at a time, searched through a GET form.
      const findUsers = page.getByRole("search", { name: "Find users" });
      await findUsers.getByLabel("Name or e-mail contains").fill("VIEWER");
      await findUsers.getByRole("button", { name: "Search" }).click();
      await expect(page.getByRole("navigation", { name: "Pages of the company's users" })).toContainText("Page 1 of 1 · 1 user");
      const add = page.getByRole("form", { name: "Add a user" });
      await expect(add.getByLabel("User").locator("option")).toHaveText(["Choose a user", "Vera Viewer (viewer@demo.test)"]);
      await add.getByLabel("User").selectOption({ label: "Vera Viewer (viewer@demo.test)" });
      await expect(add.getByLabel("Can read")).toBeChecked();
      await add.getByRole("button", { name: "Add user" }).click();
      const vera = page.getByRole("form", { name: "Access of Vera Viewer" });
      await expect(vera.getByLabel("Can read")).toBeChecked();
      await expect(vera.getByLabel("Can write")).not.toBeChecked();
      // The list of users with access pages on its own, the latest grant first.
      await expect(page.getByRole("navigation", { name: "Pages of users with access" })).toContainText("Page 1 of 1 · 2 users with access");
      await expect(page.getByRole("list", { name: "Users with access" }).getByRole("listitem").first()).toContainText("Vera Viewer");
      // Another tab takes her access away first: this tab's change of her access (and a third tab's Remove) is refused, never
      // giving it back, said in her row (JavaScript) or, her row gone from the page read again (without), at the top.
      const stale = await page.context().newPage();
      await stale.goto(page.url());
      const other = await page.context().newPage();
      await other.goto(page.url());
      await other.getByRole("button", { name: "Remove Vera Viewer" }).click();
      await expect(other.getByRole("status")).toHaveText("Access removed: the user no longer sees this project.");
      await other.close();
      await vera.getByLabel("Can write").check();
      await vera.getByRole("button", { name: "Save" }).click();
      await expect(page.getByRole("alert").filter({ hasText: "This user has no access to the project." })).toBeVisible();
      await stale.getByRole("button", { name: "Remove Vera Viewer" }).click();
      await expect(stale.getByRole("alert").filter({ hasText: "This user has no access to the project." })).toBeVisible();
      await stale.close();
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Project access" }).click();
      await expect(page.getByRole("navigation", { name: "Pages of users with access" })).toContainText("Page 1 of 1 · 1 user with access");
      await expect(page.getByRole("form", { name: "Access of Vera Viewer" })).toHaveCount(0);

      // The wizard's last step: assign an Available master template; the project becomes Active.
      const master = `Wizard master ${suffix}`;
      await availableMasterTemplate(page, master);
      await page.goto(withCompany(`/migration/projects/${projectId}/details`, acme.id));
      await page.getByRole("link", { name: "Continue setup" }).click();
      await expect(page).toHaveURL(at(withCompany(`/migration/projects/create/${projectId}/templates`, acme.id)));
      // The company's Available master templates are offered a page at a time: found by name, in the URL.
      await page.getByRole("search", { name: "Find master templates" }).getByLabel("Template name contains").fill(master);
      await page.getByRole("search", { name: "Find master templates" }).getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(new RegExp(`[?&]name=${encodeURIComponent(master).replace(/%20/g, "\\+")}`));
      await page.getByRole("button", { name: "Assign templates" }).click();
      await expect(page.getByRole("alert")).toHaveText("Choose at least one template to assign.");
      await expect(page.getByRole("alert")).toBeFocused();
      await page.getByRole("checkbox", { name: new RegExp(master) }).check();
      // The tick outlives a search (and a page: Previous and Next submit the same form), in the URL: it is assigned from there.
      // "Clear search" submits that form too, so the tick of the page it leaves goes along.
      const finder = page.getByRole("search", { name: "Find master templates" });
      await finder.getByRole("button", { name: "Clear search" }).click();
      await expect(page).toHaveURL(/[?&]selected=/);
      await expect(page).not.toHaveURL(/[?&](name|clear)=/);
      await expect(finder.getByLabel("Template name contains")).toHaveValue("");
      await expect(page.getByText(/^1 template selected/)).toBeVisible();
      await finder.getByLabel("Template name contains").fill(`No such master ${suffix}`);
      await finder.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(/[?&]selected=/);
      // Named, so that the user knows what will be assigned.
      await expect(page.getByText(`1 template selected on other pages: “${master}”.`)).toBeVisible();
      await page.getByRole("button", { name: "Assign templates" }).click();
      await expect(page.getByRole("status")).toHaveText("Templates assigned: the project is Active.");
      await expect(page.getByText("Active", { exact: true }).first()).toBeVisible();
      await page.getByRole("table", { name: "Templates in run order" }).getByRole("link", { name: master, exact: true }).click();
      await page.getByRole("link", { name: "Compare with master" }).click();
      await expect(page.getByRole("table", { name: "Scripts compared with the master" }).getByRole("row", { name: /Customers/ })).toContainText("Same");
      if (javaScriptEnabled) await expectNoViolations(page);

      // Runs: Test changes nothing, Full fills the destination, a second Full fails at its line; fixed, it reruns from there.
      const runTemplates = async (type: "Full" | "Test") => {
        await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Templates" }).click();
        await page.getByRole("link", { name: "Run", exact: true }).click();
        await page.getByRole("radio", { name: new RegExp(`^${type}`) }).check();
        await page.getByRole("button", { name: "Start the run" }).click();
        await expect(page.getByRole("heading", { level: 2, name: `${type} run` })).toBeVisible();
      };
      const customersRow = () => page.getByRole("table", { name: "Destination tables" }).getByRole("row", { name: /Customers/ });
      // The run form fits a phone's width: its buttons wrap rather than stretch the page.
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Templates" }).click();
      await page.getByRole("link", { name: "Run", exact: true }).click();
      const viewport = page.viewportSize()!;
      await page.setViewportSize({ width: 375, height: 800 });
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: "the run page's width" }).toBeLessThanOrEqual(375);
      await page.setViewportSize(viewport);
      await runTemplates("Test");
      await expect(page.getByText("Succeeded", { exact: true })).toBeVisible({ timeout: 20_000 });
      await expect(customersRow().getByRole("cell")).toHaveText(["Customers", "0", "2", ""]);
      if (javaScriptEnabled) await expectNoViolations(page);
      await runTemplates("Full");
      await expect(page.getByText("Succeeded", { exact: true })).toBeVisible({ timeout: 20_000 });
      // The first Full run: no Full run before it to set it beside (the Test's rows were rolled back).
      await expect(customersRow().getByRole("cell")).toHaveText(["Customers", "0", "2", ""]);
      await runTemplates("Full");
      await expect(page.getByText("Failed", { exact: true }).first()).toBeVisible({ timeout: 20_000 });
      const runSteps = page.getByRole("table", { name: "Steps" });
      await expect(runSteps).toContainText("Line 1: duplicate key value violates unique constraint");
      const failedRun = page.url();
      // Its steps filtered through the URL (in SQL): the failed one.
      const failedOnly = async () => {
        const stepFilter = page.getByRole("search", { name: "Filter steps" });
        await stepFilter.getByRole("checkbox", { name: "Failed only" }).check();
        await stepFilter.getByRole("button", { name: "Search" }).click();
        await expect(page).toHaveURL(/[?&]status=Failed/);
      };
      await failedOnly();
      await expect(runSteps.getByRole("row")).toHaveCount(2);
      await expect(runSteps.getByRole("row").nth(1)).toContainText("duplicate key value");
      await expect(page.getByRole("navigation", { name: "Pagination" }).getByText("Page 1 of 1 · 1 step", { exact: true })).toBeVisible();

      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Templates" }).click();
      await page.getByRole("table", { name: "Templates in run order" }).getByRole("link", { name: master, exact: true }).click();
      await page.getByRole("table", { name: "Scripts of Load" }).getByRole("link", { name: "Customers" }).click();
      await page.getByRole("button", { name: "Lock for editing" }).click();
      await expect(page.getByText(/You hold the lock since/)).toBeVisible();
      await fillSql(page, 'delete from destination."Customers";\ninsert into destination."Customers" select * from source."Customers";');
      await page.getByRole("button", { name: "Save new version" }).click();
      await expect(page.getByRole("status")).toHaveText("Version 2 saved.");

      await page.goto(failedRun);
      await page.getByRole("button", { name: "Rerun from the failed step" }).click();
      await expect(page.getByText("Succeeded", { exact: true })).toBeVisible({ timeout: 20_000 });
      await expect(runSteps).toContainText("version 2");
      // The rerun says which run it reruns, and the history marks it.
      await expect(page.getByRole("link", { name: "the earlier run, from its first failed step" })).toHaveAttribute(
        "href",
        new RegExp(`^${new URL(failedRun).pathname}\\?`),
      );
      // None of the rerun's steps failed: the same filter finds none.
      await failedOnly();
      await expect(page.getByText("No step of this run failed.")).toBeVisible();
      await expect(runSteps).toHaveCount(0);
      // The failed run, rerun, links to its rerun in place of a Rerun the data API would refuse.
      const rerunPath = new URL(page.url()).pathname;
      await page.goto(failedRun);
      await expect(page.getByRole("button", { name: "Rerun from the failed step" })).toHaveCount(0);
      await page.getByRole("link", { name: /^the run of / }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(rerunPath);
      await page.getByRole("link", { name: "Run history" }).click();
      await expect(page.getByRole("table", { name: "Runs" }).getByRole("row")).toHaveCount(5);
      await expect(page.getByRole("table", { name: "Runs" }).getByRole("row").nth(1)).toContainText("Full, rerun");
      if (javaScriptEnabled) await expectNoViolations(page);
      // Sorted by Started through its header's link (the list is newest first): the oldest first, the Test run.
      await page
        .getByRole("table", { name: "Runs" })
        .getByRole("link", { name: /^Started/ })
        .click();
      await expect(page).toHaveURL(/[?&]sort=createdAt(&|$)/);
      await expect(page.getByRole("columnheader", { name: /Started/ })).toHaveAttribute("aria-sort", "ascending");
      await expect(page.getByRole("table", { name: "Runs" }).getByRole("row").nth(1)).toContainText("Test");

      // A long run, cancelled from its page: the running script stops and rolls back.
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Templates" }).click();
      await page.getByRole("link", { name: "Create template" }).click();
      await createTemplateWithScript(page, { name: "Slow", level: "Wait", script: "Sleep", sql: "select pg_sleep(60);" });
      // A second tab has the script's editor open, its lock taken, when the run starts.
      const editorTab = await page.context().newPage();
      await editorTab.goto(page.url());
      await editorTab.getByRole("button", { name: "Lock for editing" }).click();
      await expect(editorTab.getByText("The script is locked for you: edit and save it.")).toBeVisible();
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Templates" }).click();
      await page.getByRole("link", { name: "Run", exact: true }).click();
      await page.getByRole("radio", { name: /^Full/ }).check();
      // Each chooser shows with its choice of What to run (by CSS, without JavaScript too), out of sight and of the Tab order otherwise.
      const findToRun = page.getByRole("search", { name: "Find templates to run" });
      await expect(findToRun).toBeHidden();
      await expect(page.getByRole("group", { name: "Templates" })).toBeHidden();
      await page.getByRole("radio", { name: "Chosen levels" }).check();
      await expect(page.getByRole("group", { name: "Levels" })).toBeVisible();
      await expect(page.getByRole("group", { name: "Templates" })).toBeHidden();
      await page.getByRole("radio", { name: "Chosen templates" }).check();
      await expect(page.getByRole("group", { name: "Levels" })).toBeHidden();
      await expect(page.getByRole("combobox", { name: "Script" })).toBeHidden();
      // The templates to choose from are found by name, a page at a time; what was chosen goes along in the URL.
      await findToRun.getByLabel("Template name contains").fill("SLOW");
      await findToRun.getByRole("button", { name: "Search", exact: true }).click();
      await expect(page).toHaveURL(/[?&]name=SLOW/);
      await expect(page.getByRole("group", { name: "Templates" }).getByRole("checkbox")).toHaveCount(1);
      await page.getByRole("checkbox", { name: "Slow", exact: true }).check();
      if (javaScriptEnabled) await expectNoViolations(page);
      await findToRun.getByLabel("Template name contains").fill(`No such template ${suffix}`);
      await findToRun.getByRole("button", { name: "Search", exact: true }).click();
      await expect(page.getByText(`No template's name contains “No such template ${suffix}”.`)).toBeVisible();
      await expect(page.getByText("1 more template chosen on other pages: “Slow”.")).toBeVisible();
      await expect(page.getByRole("radio", { name: /^Full/ })).toBeChecked();
      await expect(page.getByRole("radio", { name: "Chosen templates" })).toBeChecked();
      // Back at the search before, whose URL carries no tick: Slow shows unticked, as a run from there would leave it out (the browser
      // restores no box without JavaScript, which the page's counts would not count); Forward brings the tick back from the URL.
      await page.goBack();
      await expect(page).toHaveURL(/[?&]name=SLOW/);
      await expect(page.getByRole("checkbox", { name: "Slow", exact: true })).not.toBeChecked();
      await page.goForward();
      await expect(page.getByText("1 more template chosen on other pages: “Slow”.")).toBeVisible();
      // "Clear search" submits the same form: back to every template, Slow still ticked, the master not.
      await findToRun.getByRole("button", { name: "Clear search" }).click();
      await expect(page).not.toHaveURL(/[?&](name|clear)=/);
      await expect(page.getByRole("checkbox", { name: "Slow", exact: true })).toBeChecked();
      await expect(page.getByRole("checkbox", { name: master, exact: true })).not.toBeChecked();
      await expect(page.getByRole("radio", { name: /^Full/ })).toBeChecked();
      await page.getByRole("button", { name: "Start the run" }).click();
      await expect(page.getByText("Running", { exact: true }).first()).toBeVisible();
      // The editor's tab shows the run's lock as it is taken (with JavaScript, without a reload), and its save goes through:
      // a new version for the next run, the run under way keeping the one it started with (its steps still show it below).
      const runLock = editorTab.getByRole("status").filter({ hasText: "Locked by Project run: changes wait until it ends." });
      if (javaScriptEnabled) await expect(runLock).toBeVisible({ timeout: 10_000 });
      await fillSql(editorTab, "select 2;");
      await editorTab.getByRole("button", { name: "Save new version" }).click();
      await expect(editorTab.getByText("Version 2 saved. The run under way keeps the versions it started with; the next run uses version 2.")).toBeVisible();
      await expect(editorTab.getByText("A run is under way: it keeps the versions it started with")).toBeVisible();
      if (javaScriptEnabled) {
        // The data API restarting while the run's page is open: the portal answers its polls and reads 503 ("not reachable") for
        // a few seconds. The page keeps following the run, rather than give way to an error page that asks no more.
        const unreachable = /\/run-history\/[^/]+\/(progress|details\.data)/;
        let refused = 0;
        let faked = 0;
        await page.route(unreachable, (route) => {
          if (route.request().url().includes("/progress")) refused++;
          faked++;
          return route.fulfill({ status: 503, json: { errors: ["The data service is not reachable. Try again in a moment."] } });
        });
        await expect.poll(() => refused).toBeGreaterThanOrEqual(3);
        await page.unroute(unreachable);
        // The browser logs each of those answers as an error, the last maybe after the unroute: once all are logged,
        // they are this test's own, not the page's (taken before then, a late one failed the test).
        const fakedAnswer = (e: string) => /status of 503/.test(e);
        await expect.poll(() => consoleErrors.filter(fakedAnswer).length).toBe(faked);
        consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((e) => !fakedAnswer(e)));
        await expect(page.getByText("The page could not be loaded")).toHaveCount(0);
        await expect(page.getByText("Running", { exact: true }).first()).toBeVisible();
      }
      await page.getByRole("button", { name: "Cancel" }).click();
      await expect(page.getByText("Failed", { exact: true }).first()).toBeVisible({ timeout: 10_000 });
      await expect(runSteps).toContainText("Cancelled while it ran: rolled back.");
      // Followed while it ran (with JavaScript, by polls that carry no SQL), the step still shows its SQL as run.
      await expect(runSteps).toContainText("select pg_sleep(60);");
      await expect(runSteps).toContainText("version 1");
      // The run's end shows in the editor's tab too (with JavaScript, without a reload): the lock's banner goes.
      if (javaScriptEnabled) await expect(runLock).toHaveCount(0, { timeout: 10_000 });
      await editorTab.close();

      // The template made here is deleted only through its confirmation; Cancel keeps it.
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Templates" }).click();
      const inRunOrder = page.getByRole("table", { name: "Templates in run order" });
      await inRunOrder.getByRole("link", { name: "Remove template Slow" }).click();
      const confirmation = page.getByRole("region", { name: "Delete template Slow?" });
      await expect(confirmation).toContainText("It was made here and exists nowhere else");
      // It takes the focus on its heading, above the table whose row link opened it.
      await expect(confirmation.getByRole("heading", { name: "Delete template Slow?" })).toBeFocused();
      if (javaScriptEnabled) {
        // Escape closes it as Cancel does, the focus back on the link that opened it.
        await page.keyboard.press("Escape");
        await expect(confirmation).toHaveCount(0);
        await expect(inRunOrder.getByRole("link", { name: "Remove template Slow" })).toBeFocused();
        await page.keyboard.press("Enter");
        await expect(confirmation.getByRole("heading", { name: "Delete template Slow?" })).toBeFocused();
      }
      await confirmation.getByRole("link", { name: "Cancel" }).click();
      await expect(page.getByRole("region", { name: "Delete template Slow?" })).toHaveCount(0);
      await expect(inRunOrder.getByRole("link", { name: "Slow", exact: true })).toBeVisible();
      await inRunOrder.getByRole("link", { name: "Remove template Slow" }).click();
      // The confirmation's URL once it is shown (with JavaScript the navigation ends after the click returns).
      await expect(page.getByRole("region", { name: "Delete template Slow?" })).toBeVisible();
      // Deleted from another tab meanwhile: this tab's Delete is refused at the top of the page, which takes focus.
      const otherTab = await page.context().newPage();
      await otherTab.goto(page.url());
      await otherTab.getByRole("region", { name: "Delete template Slow?" }).getByRole("button", { name: "Delete template" }).click();
      await expect(otherTab.getByRole("status")).toHaveText("Template Slow deleted with its levels and scripts.");
      await otherTab.close();
      await page.getByRole("region", { name: "Delete template Slow?" }).getByRole("button", { name: "Delete template" }).click();
      await expect(page.getByRole("alert").first()).toHaveText("Template not found.");
      await expect(page.getByRole("alert").first()).toBeFocused();
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Templates" }).click();
      await expect(inRunOrder.getByRole("link", { name: "Slow", exact: true })).toHaveCount(0);
      await expect(inRunOrder.getByRole("link", { name: master, exact: true })).toBeVisible();
    });

    test("a details save made stale by the same user's other tab says so, with when", async ({ page, context }) => {
      const application = `Stale details app ${suffix}`;
      const name = `Stale details ${suffix}`;
      await createApplication(page, application);
      const projectId = await startProject(page, name, application);
      const details = withCompany(`/migration/projects/${projectId}/details`, acme.id);
      await page.goto(details);

      // The same user saves the details from a second tab meanwhile.
      const other = await context.newPage();
      await other.goto(details);
      await other.getByLabel("Description").fill("Saved in the other tab");
      await other.getByRole("button", { name: "Save changes" }).click();
      await expect(other.getByRole("status")).toHaveText(`Project ${name} saved.`);
      await other.close();

      await page.getByLabel("Description").fill("Saved in this tab");
      await page.getByRole("button", { name: "Save changes" }).click();
      // Their own other tab, not "someone else"; the page shows the project as it is now.
      await expect(page.getByRole("alert").first()).toHaveText(/^You changed this project in another tab or window at \d\d:\d\d UTC\. Nothing was saved.$/);
      await page.goto(details);
      await expect(page.getByLabel("Description")).toHaveValue("Saved in the other tab");
    });

    test("another company's project is not found, and switching company from a project opens the list", async ({ page }) => {
      const application = `Birch app ${suffix}`;
      await page.goto(withCompany("/migration/application/create", birch.id));
      await page.getByLabel("Name").fill(application);
      await page.getByRole("button", { name: "Create application" }).click();
      await expect(page).toHaveURL(new RegExp(`/migration/application\\?companyId=${birch.id}`));
      await page.goto(withCompany("/migration/projects/create", birch.id));
      await page.getByLabel("Project name").fill(`Birch project ${suffix}`);
      await page.getByLabel("Application").selectOption({ label: application });
      await page.getByLabel("Source type").selectOption({ label: "Backup" });
      await page.getByRole("button", { name: "Save and continue" }).click();
      await expect(page).toHaveURL(/\/data-dictionary\?companyId=/);
      const projectId = /\/create\/([^/]+)\//.exec(page.url())![1]!;

      // Its pages, and the links that only lead on to one (the project itself, its wizard, its dictionary), are the portal's error page.
      for (const path of ["details", "", "data-dictionary"]
        .map((p) => `/migration/projects/${projectId}/${p}`)
        .concat(`/migration/projects/create/${projectId}`)) {
        await page.goto(withCompany(path, acme.id));
        await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
        await expect(page.getByRole("alert")).toHaveText("Project not found.");
        await expect(page.getByRole("navigation", { name: "Main menu" })).toBeVisible();
      }

      await page.goto(withCompany(`/migration/projects/${projectId}/details`, birch.id));
      await expect(page.getByRole("heading", { level: 1, name: `Birch project ${suffix}` })).toBeVisible();
      await page.getByLabel("Company", { exact: true }).selectOption({ label: "Acme Health" });
      if (!javaScriptEnabled) await page.getByRole("button", { name: "Switch" }).click();
      await expect(page).toHaveURL(`${E2E.portal}${withCompany("/migration/projects", acme.id)}`);
    });

    test("the data dictionary step finds master dictionaries by name a page at a time", async ({ page }) => {
      test.setTimeout(180_000);
      const application = `Paged masters app ${suffix}`;
      await createApplication(page, application);
      for (let i = 1; i <= 11; i++) await createDictionary(page, application, `Ledger ${String(i).padStart(2, "0")} ${suffix}`);
      await startProject(page, `Paged masters ${suffix}`, application);

      const masters = page.getByRole("table", { name: `Master dictionaries of ${application}` });
      const search = page.getByRole("search", { name: "Find master dictionaries" });
      await search.getByLabel("Page size").selectOption("10");
      await search.getByRole("button", { name: "Search" }).click();
      const pages = page.getByRole("navigation", { name: "Pages of master dictionaries" });
      await expect(pages).toContainText("Page 1 of 2 · 11 dictionaries");
      await expect(masters.getByRole("row")).toHaveCount(11);
      await pages.getByRole("link", { name: "Next" }).click();
      await expect(pages).toContainText("Page 2 of 2 · 11 dictionaries");
      // These dictionaries have no tables yet: listed, with nothing to assign (an empty copy would leave the project no tables).
      await expect(masters.getByRole("row", { name: new RegExp(`Ledger 11 ${suffix}`) })).toContainText("No tables to copy yet");
      await expect(masters.getByRole("button", { name: `Assign Ledger 11 ${suffix}` })).toHaveCount(0);

      await search.getByLabel("Dictionary name contains").fill("ledger 03");
      await search.getByRole("button", { name: "Search" }).click();
      await expect(pages).toContainText("Page 1 of 1 · 1 dictionary");
      await expect(masters.getByRole("row")).toHaveCount(2);
      await expect(masters.getByRole("row", { name: new RegExp(`Ledger 03 ${suffix}`) })).toBeVisible();
    });

    test("the list's search, status filter and sort live in the URL", async ({ page }) => {
      const application = `List app ${suffix}`;
      await createApplication(page, application);
      for (const name of [`Apple list ${suffix}`, `Banana list ${suffix}`]) {
        await page.goto(withCompany("/migration/projects/create", acme.id));
        await page.getByLabel("Project name").fill(name);
        await page.getByLabel("Application").selectOption({ label: application });
        await page.getByLabel("Source type").selectOption({ label: "Backup" });
        await page.getByRole("button", { name: "Save and continue" }).click();
        await expect(page).toHaveURL(/\/data-dictionary\?companyId=/);
      }

      await page.goto(withCompany("/migration/projects", acme.id));
      await page.getByLabel("Search projects").fill(`list ${suffix}`);
      await page.getByRole("checkbox", { name: "Setup: data dictionary" }).check();
      await page.getByRole("checkbox", { name: "Setup: add columns" }).check();
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(
        `${E2E.portal}/migration/projects?companyId=${acme.id}&name=list+${suffix}&pageSize=25&status=SetupAddColumnsIncomplete&status=SetupDataDictionaryIncomplete`,
      );
      const table = page.getByRole("table");
      const names = () => table.locator("tbody tr td:first-child a").allTextContents();
      await expect.poll(names).toEqual([`Banana list ${suffix}`, `Apple list ${suffix}`]);
      await expect(page.getByRole("checkbox", { name: "Setup: add columns" })).toBeChecked();
      // An unfinished project opens its next wizard step.
      await expect(table.getByRole("link", { name: `Apple list ${suffix}` })).toHaveAttribute(
        "href",
        /\/migration\/projects\/create\/[^/]+\/data-dictionary\?companyId=/,
      );

      await table.getByRole("link", { name: /^Name/ }).click();
      await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
      await expect(page).toHaveURL(/status=SetupAddColumnsIncomplete&status=SetupDataDictionaryIncomplete/);
      await expect.poll(names).toEqual([`Apple list ${suffix}`, `Banana list ${suffix}`]);
      await expect(table.getByRole("columnheader", { name: /^Name/ })).toHaveAttribute("aria-sort", "ascending");
      await table.getByRole("link", { name: /^Name/ }).click();
      await expect(page).toHaveURL(/[?&]sort=-name(&|$)/);
      await expect.poll(names).toEqual([`Banana list ${suffix}`, `Apple list ${suffix}`]);

      await page.getByRole("checkbox", { name: "Setup: add columns" }).uncheck();
      await page.getByRole("checkbox", { name: "Setup: data dictionary" }).uncheck();
      await page.getByRole("checkbox", { name: "Active", exact: true }).check();
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(/[?&]status=Active(&|$)/);
      await expect(page.getByText("No matching projects")).toBeVisible();
    });

    test("a colleague with read access opens an unfinished project from the list at its Details, not at a step that refuses them", async ({
      page,
      browser,
      sessionFor,
    }) => {
      // In Birch Logistics, where Carl Client (ClientAdmin) works in Migrations too.
      const application = `Reader app ${suffix}`;
      const name = `Read-only setup ${suffix}`;
      await createApplication(page, application, "", birch.id);
      await page.goto(withCompany("/migration/projects/create", birch.id));
      await page.getByLabel("Project name").fill(name);
      await page.getByLabel("Application").selectOption({ label: application });
      await page.getByLabel("Source type").selectOption({ label: "Flat file" });
      await page.getByRole("button", { name: "Save and continue" }).click();
      await expect(page).toHaveURL(/\/migration\/projects\/create\/[^/]+\/data-dictionary\?companyId=/);
      const projectId = /\/create\/([^/]+)\//.exec(page.url())![1]!;
      await page.goto(withCompany(`/migration/projects/${projectId}/users/project-access`, birch.id));
      const findUsers = page.getByRole("search", { name: "Find users" });
      await findUsers.getByLabel("Name or e-mail contains").fill("clientadmin");
      await findUsers.getByRole("button", { name: "Search" }).click();
      const add = page.getByRole("form", { name: "Add a user" });
      await add.getByLabel("User").selectOption({ label: "Carl Client (clientadmin@demo.test)" });
      await add.getByRole("button", { name: "Add user" }).click();
      await expect(page.getByRole("form", { name: "Access of Carl Client" }).getByLabel("Can write")).not.toBeChecked();
      // The writer's row still resumes the setup, in the list and on the create page.
      await page.goto(withCompany(`/migration/projects?name=${encodeURIComponent(name)}`, birch.id));
      await expect(page.getByRole("link", { name, exact: true })).toHaveAttribute("href", new RegExp(`/create/${projectId}/data-dictionary`));
      await page.goto(withCompany("/migration/projects/create", birch.id));
      await expect(page.getByRole("region", { name: "Unfinished projects" }).getByRole("link", { name: `Continue ${name}`, exact: true })).toHaveAttribute(
        "href",
        new RegExp(`/create/${projectId}/data-dictionary`),
      );

      const reader = await browser.newContext({ storageState: await sessionFor(DEMO.clientadmin.email, E2E.portal), javaScriptEnabled });
      try {
        const readerPage = await reader.newPage();
        await readerPage.goto(`${E2E.portal}${withCompany(`/migration/projects?name=${encodeURIComponent(name)}`, birch.id)}`);
        await expect(readerPage.getByRole("table").getByText("Setup not finished")).toBeVisible();
        await readerPage.getByRole("link", { name, exact: true }).click();
        await expect(readerPage).toHaveURL(at(withCompany(`/migration/projects/${projectId}/details`, birch.id)));
        await expect(readerPage.getByText("The project's setup is not finished: a user with write access continues it.")).toBeVisible();
        await expect(readerPage.getByText(/That needs write access/)).toHaveCount(0);
        // The create page's Unfinished card opens it read only, at its Details too.
        await readerPage.goto(`${E2E.portal}${withCompany("/migration/projects/create", birch.id)}`);
        const unfinished = readerPage.getByRole("region", { name: "Unfinished projects" });
        await expect(unfinished.getByRole("link", { name: `Continue ${name}` })).toHaveCount(0);
        await unfinished.getByRole("link", { name: `Open ${name} (read only)`, exact: true }).click();
        await expect(readerPage).toHaveURL(at(withCompany(`/migration/projects/${projectId}/details`, birch.id)));
        await expect(readerPage.getByText(/That needs write access/)).toHaveCount(0);
      } finally {
        await reader.close();
      }
    });
  });
}

test.describe("a search typed while the page's scripts still load", () => {
  test.use({ signedInAs: "analyst@demo.test" });

  test("is kept once they run, and is what Search looks for", async ({ page }) => {
    // Hold the page's scripts until the user has typed: the box is in the server's HTML, usable before hydration.
    let release!: () => void;
    const typed = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/.+\.js$/, async (route) => {
      await typed;
      await route.continue();
    });
    await page.goto(withCompany("/migration/projects", acme.id), { waitUntil: "domcontentloaded" });
    const box = page.getByLabel("Search projects");
    await box.fill("typed early");
    release();
    // Hydrated: React has taken the box over; then let its effects run.
    await page.waitForFunction(() => {
      const input = document.querySelector('input[type="search"]');
      return input !== null && Object.keys(input).some((key) => key.startsWith("__reactFiber"));
    });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
    await expect(box).toHaveValue("typed early");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/[?&]name=typed\+early(&|$)/);
  });
});

test.describe("accessibility of the project pages", () => {
  test.use({ signedInAs: "analyst@demo.test" });

  test("the list, the wizard steps, details, access and background process have no WCAG A/AA violation", async ({ page }) => {
    test.setTimeout(60_000);
    await createApplication(page, "Axe projects app");
    await page.goto(withCompany("/migration/projects/create", acme.id));
    await expectNoViolations(page);
    await page.getByLabel("Project name").fill("Axe project");
    await page.getByLabel("Application").selectOption({ label: "Axe projects app" });
    await page.getByLabel("Source type").selectOption({ label: "Flat file" });
    await page.getByRole("button", { name: "Save and continue" }).click();
    await expect(page).toHaveURL(/\/create\/[^/]+\/data-dictionary\?companyId=/);
    const projectId = /\/create\/([^/]+)\//.exec(page.url())![1]!;
    await expectNoViolations(page);

    for (const path of [
      "/migration/projects",
      `/migration/projects/create/${projectId}/databases`,
      `/migration/projects/${projectId}/details`,
      `/migration/projects/${projectId}/databases/current`,
      `/migration/projects/${projectId}/databases/flat-file/update-source`,
      `/migration/projects/${projectId}/databases/history/list`,
      `/migration/projects/${projectId}/data-dictionary/data-definition/tables`,
      `/migration/projects/${projectId}/users/project-access`,
      `/migration/projects/${projectId}/background-process`,
    ]) {
      await page.goto(withCompany(path, acme.id));
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNoViolations(page);
    }
  });
});
