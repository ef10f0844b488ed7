import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { acme, expect, test, withCompany } from "./sessions";
import { expectNoViolations } from "./axe";
import { createBackupProject, sqliteExport } from "./project-steps";

/**
 * SQL access (issue 13), end to end with JavaScript on and off: a SuperAdmin creates a SQL
 * credential, grants it Read on one project and reads the source rows with psql, fails to write, is
 * granted Write and writes, rotates the password (the old one stops working), revokes it (it cannot
 * connect); the audit log shows each step and exports them as CSV. A revocation from a tab left open
 * after another revoked the credential is refused at the top of the page.
 */
const run = promisify(execFile);

/** What psql answers (stdout), or its refusal (stderr). */
async function psql(uri: string, sql: string): Promise<{ out: string } | { error: string }> {
  try {
    const { stdout } = await run("psql", [uri, "-XAtc", sql], { timeout: 15_000 });
    return { out: stdout.trim() };
  } catch (err) {
    return { error: (err as { stderr?: string }).stderr ?? String(err) };
  }
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "JavaScript on" : "JavaScript off";
  const suffix = javaScriptEnabled ? "sql-js" : "sql-html";

  test.describe(`SQL access with ${mode}`, () => {
    test.use({ javaScriptEnabled, signedInAs: "super@demo.test" });

    test("create a credential, grant Read then Write, connect with psql, rotate, revoke; the audit log shows each step", async ({ page }) => {
      test.setTimeout(180_000);
      const projectId = await createBackupProject(page, suffix);
      const database = `dt_${projectId.replaceAll("-", "")}`;
      // Source rows to read: the client's export, restored.
      await page.getByRole("link", { name: "Restore a backup" }).first().click();
      await page.getByLabel("Backup archive or SQLite database").setInputFiles(
        sqliteExport("customers.sqlite", [
          [1, "Ann"],
          [2, "Bob"],
        ]),
      );
      await page.getByRole("button", { name: "Restore from the file" }).click();
      await expect(page.getByRole("status").filter({ hasText: "2 rows restored into the source database." })).toBeVisible({ timeout: 30_000 });

      // Additional Options → SQL Credentials: a bad expiry is refused at its field.
      const credentialsPage = withCompany("/additional-options/sql-credentials/users", acme.id);
      await page.goto(credentialsPage);
      await expect(page.getByRole("heading", { name: "SQL Credentials", level: 1 })).toBeVisible();
      const create = page.getByRole("form", { name: "Create credential" });
      // Its User select offers a page of the company's people, found through a GET form, never the whole company.
      const findUsers = page.getByRole("search", { name: "Find users" });
      await findUsers.getByLabel("Name or e-mail contains").fill("ANALYST@");
      await findUsers.getByRole("button", { name: "Search" }).click();
      await expect(page.getByRole("navigation", { name: "Pages of the company's users" })).toContainText("Page 1 of 1 · 1 user");
      await expect(create.getByLabel("User").locator("option")).toHaveText(["None: a named service", "Ann Analyst (analyst@demo.test)"]);
      await create.getByLabel("Service name").fill(`Reporting ${suffix}`);
      await create.getByRole("button", { name: "Create credential" }).click();
      await expect(create.getByText("Choose the day the credential expires")).toBeVisible();
      await create.getByLabel("Service name").fill(`Reporting ${suffix}`);
      await create.getByLabel("Expiry date").fill(inDays(30));
      await create.getByLabel("Note").fill("dashboards");
      await create.getByRole("button", { name: "Create credential" }).click();

      // The password, once, with how to connect.
      const issued = page.getByRole("region", { name: /^Password of dtc_/ });
      await expect(issued).toBeVisible();
      const login = (await issued.getByRole("heading").textContent())!.replace("Password of ", "").trim();
      const password = (await issued.getByTestId("issued-password").textContent())!.trim();
      const template = (await issued.locator("code", { hasText: "postgresql://" }).textContent())!.trim();
      const uri = template.replace("<database>", database);
      expect(uri).toContain(`${login}:${password}@`);
      if (javaScriptEnabled) await expectNoViolations(page);
      const row = page.getByRole("table", { name: "SQL credentials" }).getByRole("row", { name: new RegExp(login) });
      await expect(row).toContainText("Active");
      await expect(row).toContainText(`Reporting ${suffix}`);
      // Not granted anything yet: it cannot even connect.
      expect(await psql(uri, "select 1")).toMatchObject({ error: expect.stringContaining("permission denied for database") });

      // The project's SQL permissions: Read.
      const permissionsPage = withCompany(`/migration/projects/${projectId}/users/sql-permissions`, acme.id);
      await page.goto(permissionsPage);
      const level = page.getByLabel(`SQL permission of Reporting ${suffix} (${login})`);
      await expect(level).toHaveValue("none");
      if (javaScriptEnabled) await expectNoViolations(page);
      await level.selectOption({ label: "Read" });
      await page.getByRole("button", { name: "Save permissions" }).click();
      await expect(page.getByRole("status")).toHaveText("SQL permissions saved: 1 credential changed.");
      await expect(level).toHaveValue("read");
      expect(await psql(uri, `select "Name" from "Customers" order by "CustomerId"`)).toEqual({ out: "Ann\nBob" });
      expect(await psql(uri, `insert into destination."Customers" values (3, 'Cy')`)).toMatchObject({ error: expect.stringContaining("permission denied") });

      // Write: it inserts into destination. The page says the same as after Read: wait for this save's answer, not the last one's words.
      await level.selectOption({ label: "Write" });
      const saved = page.waitForResponse((res) => res.request().method() === "POST" && new URL(res.url()).pathname.includes("/users/sql-permissions"));
      await page.getByRole("button", { name: "Save permissions" }).click();
      await saved;
      await expect(page.getByRole("status")).toHaveText("SQL permissions saved: 1 credential changed.");
      expect(await psql(uri, `insert into destination."Customers" values (3, 'Cy')`)).toEqual({ out: "INSERT 0 1" });

      // Rotate: a new password with the project's URI; the old one stops working.
      await page.goto(credentialsPage);
      await expect(row).toContainText("Write");
      await page.getByRole("button", { name: `Rotate password of ${login}` }).click();
      const rotated = page.getByRole("region", { name: `Password of ${login}` });
      const newUri = (await rotated.getByRole("list", { name: "Connection URIs" }).locator("code").first().textContent())!.trim();
      expect(newUri).toContain(`/${database}`);
      expect(newUri).not.toContain(password);
      expect(await psql(uri, "select 1")).toMatchObject({ error: expect.stringContaining("password authentication failed") });
      expect(await psql(newUri, 'select count(*) from destination."Customers"')).toEqual({ out: "1" });

      // Revoke, with a reason: it cannot connect any more.
      await page.getByRole("link", { name: `Revoke ${login}` }).click();
      const confirm = page.getByRole("form", { name: `Revoke ${login}?` });
      await confirm.getByLabel("Reason").fill("dashboards moved");
      await confirm.getByRole("button", { name: "Revoke credential" }).click();
      await expect(page.getByRole("status")).toHaveText(`Credential ${login} revoked: it can no longer connect.`);
      await expect(row).toContainText("Revoked");
      expect(await psql(newUri, "select 1")).toMatchObject({ error: expect.stringContaining("not permitted to log in") });

      // The audit log: each step, newest first, with the reason; exported as CSV.
      await page.goto(withCompany("/additional-options/audit-log", acme.id));
      await page.getByLabel("Target or change contains").fill(login);
      await page.getByRole("button", { name: "Filter" }).click();
      const entries = page.getByRole("table", { name: "Audit entries" });
      await expect(entries.getByRole("row")).toHaveCount(6);
      await expect(entries.getByRole("row").nth(1)).toContainText("SQL credential revoked");
      await expect(entries.getByRole("row").nth(1)).toContainText("dashboards moved");
      await expect(entries.getByRole("row").nth(5)).toContainText("SQL credential created");
      if (javaScriptEnabled) await expectNoViolations(page);
      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: "Export CSV" }).click();
      const csv = await (await download).path().then((file) => import("node:fs").then((fs) => fs.readFileSync(file!, "utf8")));
      const lines = csv.trim().split("\r\n");
      expect(lines).toHaveLength(6);
      expect(lines[1]).toContain("sql_credential.revoked");
      expect(csv).not.toContain(password);

      // Who had SQL access to the project, found by the project's name: each entry names it, linked to its page.
      await page.getByLabel("Target or change contains").fill("");
      await page.getByLabel("Project", { exact: true }).fill(`Restored project ${suffix}`);
      await page.getByLabel("Action").selectOption({ label: "SQL permission changed" });
      await page.getByRole("button", { name: "Filter" }).click();
      await expect(entries.getByRole("row")).toHaveCount(3);
      await expect(entries.getByRole("link", { name: `Restored project ${suffix}` })).toHaveCount(2);
      await entries
        .getByRole("link", { name: `Restored project ${suffix}` })
        .first()
        .click();
      await expect(page).toHaveURL(new RegExp(`/migration/projects/${projectId}/details\\?companyId=${acme.id}$`));
    });

    test("the password's page loaded again (without JavaScript a reload sends its form again) makes no second credential, and says so", async ({ page }) => {
      const credentialsPage = withCompany("/additional-options/sql-credentials/users", acme.id);
      await page.goto(credentialsPage);
      const create = page.getByRole("form", { name: "Create credential" });
      const name = `Reloaded ${suffix} ${Date.now()}`;
      await create.getByLabel("Service name").fill(name);
      await create.getByLabel("Expiry date").fill(inDays(30));
      await create.getByRole("button", { name: "Create credential" }).click();
      const issued = page.getByRole("region", { name: /^Password of dtc_/ });
      const login = (await issued.getByRole("heading").textContent())!.replace("Password of ", "").trim();
      await page.reload();
      if (!javaScriptEnabled) {
        await expect(create.getByText(`This form was sent already: SQL credential ${login} for ${name} was made by it at`)).toBeVisible();
        await expect(issued).toHaveCount(0);
      }
      await page.goto(credentialsPage);
      await expect(page.getByRole("table", { name: "SQL credentials" }).getByRole("row", { name: new RegExp(name) })).toHaveCount(1);
    });

    test("a second credential for a service of a name a credential of the company holds is refused at Service name, and nothing is made", async ({ page }) => {
      const credentialsPage = withCompany("/additional-options/sql-credentials/users", acme.id);
      await page.goto(credentialsPage);
      const create = page.getByRole("form", { name: "Create credential" });
      const name = `etl_job ${suffix} ${Date.now()}`;
      await create.getByLabel("Service name").fill(name);
      await create.getByLabel("Expiry date").fill(inDays(30));
      await create.getByRole("button", { name: "Create credential" }).click();
      await expect(page.getByRole("region", { name: /^Password of dtc_/ })).toBeVisible();
      await page.goto(credentialsPage);
      await create.getByLabel("Service name").fill(name.toUpperCase());
      await create.getByLabel("Expiry date").fill(inDays(30));
      await create.getByRole("button", { name: "Create credential" }).click();
      await expect(create.getByLabel("Service name")).toHaveAccessibleDescription(
        "The company already has a SQL credential for a service with this name: revoke it first, or choose another name.",
      );
      await expect(page.getByRole("region", { name: /^Password of dtc_/ })).toHaveCount(0);
      await page.goto(credentialsPage);
      await expect(page.getByRole("table", { name: "SQL credentials" }).getByRole("row", { name: new RegExp(name, "i") })).toHaveCount(1);
    });

    test("a rotation from a tab left open once another tab rotated the password says so in its row, and rotates nothing", async ({ page }) => {
      const credentialsPage = withCompany("/additional-options/sql-credentials/users", acme.id);
      await page.goto(credentialsPage);
      const create = page.getByRole("form", { name: "Create credential" });
      await create.getByLabel("Service name").fill(`Rotated ${suffix} ${Date.now()}`);
      await create.getByLabel("Expiry date").fill(inDays(30));
      await create.getByRole("button", { name: "Create credential" }).click();
      const issued = page.getByRole("region", { name: /^Password of dtc_/ });
      const login = (await issued.getByRole("heading").textContent())!.replace("Password of ", "").trim();
      await page.goto(credentialsPage);

      // The other tab rotates first, and hands its password out.
      const other = await page.context().newPage();
      await other.goto(credentialsPage);
      await other.getByRole("button", { name: `Rotate password of ${login}` }).click();
      const handedOut = (await other
        .getByRole("region", { name: `Password of ${login}` })
        .getByTestId("issued-password")
        .textContent())!.trim();
      await other.close();

      await page.getByRole("button", { name: `Rotate password of ${login}` }).click();
      await expect(page.getByText(`The password of ${login} was rotated meanwhile, at`)).toBeVisible();
      await expect(page.getByRole("region", { name: `Password of ${login}` })).toHaveCount(0);
      expect(handedOut).not.toBe("");
    });

    test("a revocation from a tab left open once another tab revoked the credential says so at the top, and the credential stays revoked", async ({ page }) => {
      const credentialsPage = withCompany("/additional-options/sql-credentials/users", acme.id);
      await page.goto(credentialsPage);
      const create = page.getByRole("form", { name: "Create credential" });
      await create.getByLabel("Service name").fill(`Stale ${suffix}`);
      await create.getByLabel("Expiry date").fill(inDays(30));
      await create.getByRole("button", { name: "Create credential" }).click();
      const issued = page.getByRole("region", { name: /^Password of dtc_/ });
      const login = (await issued.getByRole("heading").textContent())!.replace("Password of ", "").trim();
      await page.getByRole("link", { name: `Revoke ${login}` }).click();
      const confirm = page.getByRole("form", { name: `Revoke ${login}?` });
      await expect(confirm).toBeVisible();

      // The other tab revokes it first.
      const other = await page.context().newPage();
      await other.goto(credentialsPage);
      await other.getByRole("link", { name: `Revoke ${login}` }).click();
      await other.getByRole("button", { name: "Revoke credential" }).click();
      await expect(other.getByRole("status")).toHaveText(`Credential ${login} revoked: it can no longer connect.`);
      await other.close();

      await confirm.getByLabel("Reason").fill("left the company");
      await confirm.getByRole("button", { name: "Revoke credential" }).click();
      await expect(page.getByRole("alert").filter({ hasText: "This SQL credential is already revoked." })).toBeVisible();
      await expect(page.getByRole("table", { name: "SQL credentials" }).getByRole("row", { name: new RegExp(login) })).toContainText("Revoked");
    });
  });
}
