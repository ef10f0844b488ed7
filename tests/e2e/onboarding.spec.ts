import { E2E } from "../../playwright.config";
import { acme, birch, expect, test, withCompany } from "./sessions";
import { expectNoViolations } from "./axe";
import { createApplication } from "./master-data";

/**
 * Data Onboarding, end to end, with JavaScript on (in Acme Health) and off (in Birch Logistics): a
 * configuration with two schemes through the wizard (details, data dictionary that creates the
 * databases, templates), its details with the schemes and the default mark, its own dictionary
 * edited, a colleague given access, and the bad inputs refused at the field. The journeys run in two
 * companies so that each makes its company's first, default configuration.
 */
const at = (path: string) => new RegExp(`^${E2E.portal}${path.replace(/[?.]/g, "\\$&")}(\\?|$)`);

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "JavaScript on" : "JavaScript off";
  const suffix = javaScriptEnabled ? "js" : "html";
  const company = javaScriptEnabled ? acme : birch;
  // Vera Viewer is Acme Health's viewer; Carl Client is Birch Logistics' ClientAdmin: both may be
  // listed, neither's role opens Data Onboarding, and the page says so.
  const colleague = javaScriptEnabled
    ? { option: "Vera Viewer (viewer@demo.test)", name: "Vera Viewer", role: "Viewer" }
    : { option: "Carl Client (clientadmin@demo.test)", name: "Carl Client", role: "ClientAdmin" };

  test.describe(`data onboarding with ${mode}`, () => {
    test.use({ javaScriptEnabled, signedInAs: "analyst@demo.test" });

    test("create a configuration with two schemes, edit its dictionary, grant access; it is the default", async ({ page }) => {
      test.setTimeout(120_000);
      const application = `Onboarding app ${suffix}`;
      const name = `Monthly members ${suffix}`;
      await createApplication(page, application, "", company.id);

      // Step 1: details, with the company's schemes.
      await page.goto(withCompany("/onboarding/configurations", company.id));
      await expect(page.getByRole("heading", { level: 1, name: "Configurations" })).toBeVisible();
      await page.getByRole("link", { name: "Create configuration" }).first().click();
      await expect(page).toHaveURL(at(withCompany("/onboarding/configurations/create", company.id)));
      await expect(page.getByRole("heading", { level: 1, name: "Create configuration" })).toBeVisible();
      await expect(page.getByText("This will be the company's default configuration: it is the first one.")).toBeVisible();
      const steps = page.getByRole("navigation", { name: "Configuration setup steps" });
      await expect(steps.locator('[aria-current="step"]')).toHaveText(/Details/);
      await expect(steps.getByText("Databases")).toHaveCount(0);
      await page.getByRole("button", { name: "Save and continue" }).click();
      await expect(page.getByLabel("Configuration name")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByRole("group", { name: "Schemes" })).toContainText("Choose at least one scheme");
      await page.getByLabel("Configuration name").fill(name);
      await page.getByLabel("Application").selectOption({ label: application });
      await page.getByRole("group", { name: "Schemes" }).getByLabel("Defined Benefit Scheme").check();
      await page.getByRole("group", { name: "Schemes" }).getByLabel("Defined Contribution Scheme").check();
      await page.getByLabel("Description").fill("Made by the browser test");
      await page.getByRole("button", { name: "Save and continue" }).click();

      // Step 2: the data dictionary, which creates the databases when every table has a column.
      await expect(page).toHaveURL(/\/onboarding\/configurations\/create\/[^/]+\/data-dictionary\?companyId=/);
      const configurationId = /\/create\/([^/]+)\//.exec(page.url())![1]!;
      await expect(steps.locator('[aria-current="step"]')).toHaveText(/Data dictionary/);
      await expect(page.getByRole("button", { name: "Continue" })).toBeDisabled();
      await page.getByLabel("Table name").fill("Members");
      const column = page.getByRole("group", { name: "Column 1", exact: true });
      await column.getByLabel("Name").fill("MemberId");
      await column.getByLabel("Type").selectOption("int");
      await page.getByRole("button", { name: "Add table" }).click();
      await expect(page.getByRole("table", { name: "Tables of the configuration" }).getByRole("row", { name: /Members/ })).toContainText("1");
      await page.getByRole("button", { name: "Create databases" }).click();
      // The job's page follows it (polling with JavaScript, a <meta> refresh without) until setup can go on.
      await expect(page).toHaveURL(at(withCompany(`/onboarding/configurations/${configurationId}/background-process`, company.id)));
      // The layout and the page both offer it once the job has ended.
      await page.getByRole("link", { name: "Continue setup" }).first().click({ timeout: 30_000 });

      // Step 3: templates (assigning them is covered by the projects journey; this configuration goes on to its data).
      await expect(page).toHaveURL(at(withCompany(`/onboarding/configurations/create/${configurationId}/templates`, company.id)));
      await expect(steps.locator('[aria-current="step"]')).toHaveText(/Templates/);
      await expect(page).toHaveTitle(`Step 3 of 3: Templates · Set up ${name} · Data Transformation`);
      await expect(steps.getByText("Data dictionary (completed)")).toBeVisible();
      await expect(page.getByRole("heading", { name: "Assign templates" })).toBeVisible();

      // Its details: the schemes, the default mark, and what exists of its databases.
      await page.getByRole("link", { name: "Open the configuration" }).click();
      await expect(page).toHaveURL(at(withCompany(`/onboarding/configurations/${configurationId}/details`, company.id)));
      await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText("Configurations");
      const facts = page.getByRole("definition");
      await expect(facts.filter({ hasText: "Defined Benefit Scheme, Defined Contribution Scheme" })).toHaveCount(1);
      await expect(page.getByText("This is the company's default configuration.")).toBeVisible();
      if (javaScriptEnabled) await expectNoViolations(page);
      await page.getByRole("navigation", { name: "Configuration" }).getByRole("link", { name: "Databases" }).click();
      await expect(page.getByRole("table", { name: "Tables of the source database" }).getByRole("row", { name: /Members/ })).toBeVisible();

      // A delivery of members, previewed, then loaded from the preview; the history lists it.
      await page.getByRole("link", { name: "Load a flat file" }).first().click();
      // How the files are read: the form opens on demand (its own chunk with JavaScript), saves, and the page says what is
      // saved; the deliveries below are read with it (a comma-separated one would be refused as a single column).
      await expect(page.getByRole("definition").filter({ hasText: /^semicolon$/ })).toHaveCount(0);
      await page.getByText("Change how files are read").click();
      await page.getByLabel("Delimiter").selectOption({ label: "semicolon" });
      await page.getByRole("button", { name: "Save", exact: true }).click();
      await expect(page.getByText("Flat-file parameters saved.")).toBeVisible();
      await expect(page.getByRole("definition").filter({ hasText: /^semicolon$/ })).toHaveCount(1);
      // A delivery with a bad row: the preview says which row the load would reject, and why, before anything is loaded.
      await page
        .getByLabel("File", { exact: true })
        .setInputFiles({ name: "Members.csv", mimeType: "text/csv", buffer: Buffer.from("MemberId\r\n1\r\nx\r\n") });
      await page.getByRole("button", { name: "Preview" }).click();
      await expect(page.getByText("1 of these rows would be rejected: the last column says why.")).toBeVisible();
      await expect(page.getByRole("table", { name: "First rows of Members.csv" }).getByRole("row", { name: /^3 x/ })).toContainText(
        "MemberId: not a whole number",
      );
      await page.getByRole("link", { name: "Choose another file" }).click();
      // The delivery has a column the dictionary lacks: the preview says so, and adds it (and to the databases) before loading.
      const delivery = "MemberId;Nickname\r\n1;007\r\n2;Bo\r\n";
      await page.getByLabel("File", { exact: true }).setInputFiles({ name: "Members.csv", mimeType: "text/csv", buffer: Buffer.from(delivery) });
      await page.getByRole("button", { name: "Preview" }).click();
      await expect(page.getByRole("table", { name: "First rows of Members.csv" }).getByRole("row")).toHaveCount(3);
      await expect(page.getByRole("alert").filter({ hasText: "lacks: Nickname. Add it to the data dictionary, or leave it out of the file" })).toBeVisible();
      await expect(page.getByText("Add them to the configuration's dictionary")).toBeVisible();
      if (javaScriptEnabled) await expectNoViolations(page);
      await page.getByRole("button", { name: "Add these columns to the dictionary" }).click();
      await expect(page.getByText("Added Nickname to Members. The preview is read again with it.")).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole("alert").filter({ hasText: "lacks: Nickname" })).toHaveCount(0);
      await expect(page.getByRole("table", { name: "First rows of Members.csv" }).getByRole("columnheader", { name: "Nickname into Nickname" })).toBeVisible();
      await page.getByRole("button", { name: "Load" }).click();
      await expect(page.getByText("2 of 2 rows loaded.")).toBeVisible({ timeout: 30_000 });
      await page.getByRole("navigation", { name: "Configuration" }).getByRole("link", { name: "Databases" }).click();
      await expect(
        page
          .getByRole("table", { name: "Tables of the source database" })
          .getByRole("row", { name: /Members/ })
          .getByRole("cell"),
      ).toHaveText(["Members", "2", "2", /KB$/, /^\d{4}-\d{2}-\d{2} /]);
      // Each table links to its rows: the destination's (which the templates' runs fill; none has run yet) as well as the source's.
      await page.getByRole("table", { name: "Tables of the destination database" }).getByRole("link", { name: "Members" }).click();
      await expect(page.getByRole("heading", { name: "Destination data" })).toBeVisible();
      // Its tab says so too, and the Source data tab is back once the source is shown.
      const dataTab = (name: string) => page.getByRole("navigation", { name: "Data dictionary" }).getByRole("link", { name, exact: true });
      await expect(dataTab("Destination data")).toBeVisible();
      await expect(page.getByLabel("Database", { exact: true })).toHaveValue("destination");
      await expect(page.getByRole("table", { name: "Rows of Members" }).getByRole("row")).toHaveCount(1);
      await page.getByLabel("Database", { exact: true }).selectOption("source");
      await page.getByRole("button", { name: "Show" }).click();
      await expect(page.getByRole("heading", { name: "Source data" })).toBeVisible();
      await expect(dataTab("Source data")).toBeVisible();
      await expect(page.getByRole("table", { name: "Rows of Members" }).getByRole("row")).toHaveCount(3);
      await page.getByRole("navigation", { name: "Configuration" }).getByRole("link", { name: "Databases" }).click();

      // A second delivery; the first is then compared with the current data ("Compare an earlier delivery").
      await page.getByRole("link", { name: "Load a flat file" }).first().click();
      await page
        .getByLabel("File", { exact: true })
        .setInputFiles({ name: "Members.csv", mimeType: "text/csv", buffer: Buffer.from("MemberId;Nickname\r\n1;008\r\n3;Cy\r\n") });
      await page.getByRole("button", { name: "Load" }).click();
      await expect(page.getByText("2 of 2 rows loaded.")).toBeVisible({ timeout: 30_000 });
      await page.getByRole("navigation", { name: "Configuration" }).getByRole("link", { name: "Databases" }).click();
      await page.getByRole("link", { name: "Compare an earlier delivery" }).click();
      if (javaScriptEnabled) await expectNoViolations(page);
      await page
        .getByRole("group", { name: "Earlier delivery" })
        .getByLabel(/^Members\.csv, loaded/)
        .check();
      await page.getByRole("button", { name: "Compare" }).click();
      // The data compared is named by the load that left it and when, not only by its backup, which is dated at the next load.
      await expect(
        page.getByRole("definition").filter({ hasText: /\.backup\.tar: the data after the flat-file load of Members\.csv on \d{4}-\d{2}-\d{2} / }),
      ).toHaveCount(1);
      // Its heading says so too, and so does its line in the History list (where the backup's file named it).
      const comparedData = /^Comparison of the data after the flat-file load of Members\.csv on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC with the data then current$/;
      await expect(page.getByRole("heading", { level: 2, name: comparedData })).toBeVisible();
      // Members has no key: its rows are compared whole, so the changed one is one removed and one added.
      const differences = page.getByRole("table", { name: "Differences per table" });
      await expect(differences.getByRole("row", { name: /Members/ }).getByRole("cell")).toHaveText(["Members", "2", "2", "–", "", ""], { timeout: 30_000 });
      await expect(page.getByRole("table", { name: "Rows added to Members" }).getByRole("row").filter({ hasText: "Cy" })).toHaveCount(1);
      await expect(page.getByRole("table", { name: "Rows removed from Members" }).getByRole("row").filter({ hasText: "Bo" })).toHaveCount(1);
      if (javaScriptEnabled) await expectNoViolations(page);
      await page.getByRole("link", { name: "History", exact: true }).click();
      await expect(
        page.getByRole("table", { name: "History" }).getByRole("cell", { name: /^the data after the flat-file load of Members\.csv on \d{4}-\d{2}-\d{2} / }),
      ).toHaveCount(1);

      // A PATCH that removes every scheme is refused at the field, and nothing changes.
      await page.getByRole("navigation", { name: "Configuration" }).getByRole("link", { name: "Details" }).click();
      const schemes = page.getByRole("group", { name: "Schemes" });
      await schemes.getByLabel("Defined Benefit Scheme").uncheck();
      await schemes.getByLabel("Defined Contribution Scheme").uncheck();
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(schemes).toContainText("A configuration serves at least one scheme");
      await page.reload();
      await expect(page.getByRole("definition").filter({ hasText: "Defined Benefit Scheme, Defined Contribution Scheme" })).toHaveCount(1);

      // Edit a table of its own dictionary.
      await page.getByRole("navigation", { name: "Configuration" }).getByRole("link", { name: "Data dictionary" }).click();
      await expect(page).toHaveURL(at(withCompany(`/onboarding/configurations/${configurationId}/data-dictionary/data-definition/tables`, company.id)));
      await page.getByRole("link", { name: "Members", exact: true }).click();
      await page.getByRole("button", { name: "Add column" }).click();
      const second = page.getByRole("group", { name: "Column 3", exact: true });
      await second.getByLabel("Name").fill("Surname");
      await second.getByLabel("Type").selectOption("nvarchar");
      await second.getByLabel("Length").fill("80");
      await page.getByRole("button", { name: "Save table" }).click();
      await expect(page).toHaveURL(at(withCompany(`/onboarding/configurations/${configurationId}/data-dictionary/data-definition/tables`, company.id)));
      await expect(page.getByRole("row", { name: /Members/ })).toContainText("3");

      // Grant a colleague access; the page says the colleague's role does not open the area.
      await page.getByRole("navigation", { name: "Configuration" }).getByRole("link", { name: "Project access" }).click();
      const add = page.getByRole("form", { name: "Add a user" });
      await expect(page.getByRole("listitem").filter({ hasText: `${colleague.name}: ${colleague.role}` })).toBeVisible();
      await add.getByLabel("User").selectOption({ label: colleague.option });
      await add.getByRole("button", { name: "Add user" }).click();
      const granted = page.getByRole("form", { name: `Access of ${colleague.name}` });
      await expect(granted.getByLabel("Can read")).toBeChecked();
      await expect(page.getByText(`Cannot open this area yet: the role in this company is ${colleague.role}.`)).toBeVisible();

      // The list marks it as the default; a second one with the same name is refused at the field.
      await page.goto(withCompany("/onboarding/configurations", company.id));
      await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText("Default");
      await page.getByRole("link", { name: "Create configuration" }).first().click();
      await expect(page.getByText(`The company's default configuration is ${name}.`, { exact: false })).toBeVisible();
      await page.getByLabel("Configuration name").fill(name.toUpperCase());
      await page.getByLabel("Application").selectOption({ label: application });
      await page.getByRole("group", { name: "Schemes" }).getByLabel("Defined Benefit Scheme").check();
      await page.getByRole("button", { name: "Save and continue" }).click();
      await expect(page.getByText("A configuration with this name already exists in this company")).toBeVisible();
      await expect(page).toHaveURL(at(withCompany("/onboarding/configurations/create", company.id)));
    });
  });
}

test.describe("data onboarding, refused", () => {
  test.describe("as a ClientAdmin", () => {
    test.use({ signedInAs: "clientadmin@demo.test" });

    test("Birch Logistics' ClientAdmin gets Permission Denied on every onboarding page", async ({ page }) => {
      for (const path of ["/onboarding/configurations", "/onboarding/configurations/create"]) {
        await page.goto(withCompany(path, birch.id));
        await expect(page).toHaveURL(at(withCompany("/permission-denied", birch.id)));
        await expect(page.getByRole("heading", { name: "Permission Denied" })).toBeVisible();
      }
    });
  });

  test.describe("as an analyst", () => {
    test.use({ signedInAs: "analyst@demo.test" });

    test("another company's configuration id is not found", async ({ page }) => {
      await page.goto(withCompany("/onboarding/configurations", birch.id));
      const first = page.getByRole("table").getByRole("row").nth(1).getByRole("link").first();
      // The journey above made one in Birch Logistics (this file's tests run in order).
      await expect(first).toBeVisible();
      const href = (await first.getAttribute("href"))!;
      const id = /configurations\/(?:create\/)?([^/?]+)/.exec(href)![1]!;
      await page.goto(withCompany(`/onboarding/configurations/${id}/details`, acme.id));
      await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
      await expect(page.getByRole("alert")).toHaveText("Configuration not found.");
    });
  });
});
