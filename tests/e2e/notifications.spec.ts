import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { acme, birch, expect, test, withCompany } from "./sessions";
import { expectNoViolations } from "./axe";

/**
 * Notifications (issue 13), with JavaScript on and off: a SuperAdmin adds a webhook of Acme Health
 * pointing at a receiver this test starts, copies its secret (shown once), sends a test event and the
 * receiver gets it signed with that secret; the delivery log shows it; the webhook is removed through
 * its confirmation, Cancel first. (A run's end reaching a webhook is tested in the data API:
 * services/data-api/src/routes/notifications.)
 */
for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "JavaScript on" : "JavaScript off";

  test.describe(`notifications with ${mode}`, () => {
    test.use({ javaScriptEnabled, signedInAs: "super@demo.test" });

    test("add a webhook, send a test event that arrives signed, see the delivery, remove it", async ({ page }) => {
      const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
      const server = http.createServer((req, res) => {
        let body = "";
        req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
        req.on("end", () => {
          received.push({ headers: req.headers, body });
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${javaScriptEnabled ? "js" : "html"}`;
      try {
        await page.goto(withCompany("/additional-options/notifications", acme.id));
        await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
        const add = page.getByRole("form", { name: "Add webhook" });
        // No event chosen: refused at its field.
        await add.getByLabel("URL").fill(url);
        await add.getByRole("button", { name: "Add webhook" }).click();
        await expect(add.getByText("Choose at least one event")).toBeVisible();
        await add.getByLabel("URL").fill(url);
        await add.getByLabel("Run ended").check();
        await add.getByLabel("Job failed").check();
        await add.getByRole("button", { name: "Add webhook" }).click();

        const shown = page.getByRole("region", { name: `Signing secret of ${url}` });
        await expect(shown).toBeVisible();
        const secret = (await shown.getByTestId("webhook-secret").textContent())!.trim();
        const card = page.getByRole("region", { name: `Webhook ${url}` });
        await expect(card).toContainText("Run ended, Job failed");
        if (javaScriptEnabled) await expectNoViolations(page);

        await card.getByRole("button", { name: `Send test to ${url}` }).click();
        await expect(page.getByRole("status")).toHaveText("Test delivered: the endpoint answered 204.");
        expect(received).toHaveLength(1);
        const [post] = received;
        expect(post!.headers["x-dt-event"]).toBe("test");
        expect(post!.headers["x-dt-signature"]).toBe(`sha256=${createHmac("sha256", secret).update(post!.body).digest("hex")}`);
        expect(JSON.parse(post!.body)).toMatchObject({ event: "test", companyId: acme.id });
        const deliveries = page.getByRole("table", { name: `Deliveries to ${url}` });
        await expect(deliveries.getByRole("row").nth(1).getByRole("cell")).toContainText(["test", "Delivered", "1", "204"]);

        // Remove asks first: Cancel keeps the webhook, the confirmation's button removes it. (The
        // confirmation's name does not contain "Webhook <url>", so `card` stays one region.)
        await card.getByRole("link", { name: `Remove ${url}` }).click();
        const confirmation = page.getByRole("region", { name: `Remove the webhook to ${url}?` });
        await confirmation.getByRole("link", { name: "Cancel" }).click();
        await expect(page.getByRole("region", { name: `Remove the webhook to ${url}?` })).toHaveCount(0);
        await expect(card).toBeVisible();
        await card.getByRole("link", { name: `Remove ${url}` }).click();
        await confirmation.getByRole("button", { name: "Remove webhook" }).click();
        await expect(page.getByRole("status")).toHaveText("Webhook removed: nothing more is sent to it.");
        await expect(page.getByRole("region", { name: `Webhook ${url}` })).toHaveCount(0);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    test("product info tells each process's version, build, uptime and database, and the project database server's PostgreSQL version", async ({ page }) => {
      await page.goto(withCompany("/additional-options/product-info/details", acme.id));
      for (const name of ["Portal", "Data API", "Client portal"]) {
        const card = page.getByRole("region", { name, exact: true });
        await expect(card.getByRole("definition").first()).toHaveText(/^\d+\.\d+\.\d+/);
        await expect(card).toContainText("Uptime");
      }
      await expect(page.getByRole("region", { name: "Data API" })).toContainText(/PostgreSQL at embedded\s*17\./);
      await expect(page.getByRole("region", { name: "Data API" })).toContainText("Control plane databaseSQLite");
      if (javaScriptEnabled) await expectNoViolations(page);
    });
  });
}

test.describe("notifications for a company's ClientAdmin", () => {
  test.use({ signedInAs: "clientadmin@demo.test" });

  test("Birch Logistics' ClientAdmin adds and removes a webhook of Birch from Migrations", async ({ page }) => {
    await page.goto(withCompany("/migration/projects", birch.id));
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Notifications" }).click();
    await expect(page).toHaveURL(`/migration/notifications?companyId=${birch.id}`);
    await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
    const url = "https://hooks.example.test/birch";
    const add = page.getByRole("form", { name: "Add webhook" });
    await add.getByLabel("URL").fill(url);
    await add.getByLabel("Lock held longer than N minutes").check();
    await add.getByRole("button", { name: "Add webhook" }).click();
    await expect(add.getByText("Say after how many minutes a held lock is reported")).toBeVisible();
    await add.getByLabel("Lock held longer than (minutes)").fill("45");
    await add.getByRole("button", { name: "Add webhook" }).click();
    await expect(page.getByRole("region", { name: `Signing secret of ${url}` })).toBeVisible();
    await expect(page.getByRole("region", { name: `Webhook ${url}` })).toContainText("Lock held longer than N minutes (45)");
    await expectNoViolations(page);
    await page.getByRole("link", { name: `Remove ${url}` }).click();
    await page
      .getByRole("region", { name: `Remove the webhook to ${url}?` })
      .getByRole("button", { name: "Remove webhook" })
      .click();
    await expect(page.getByRole("status")).toHaveText("Webhook removed: nothing more is sent to it.");
  });
});
