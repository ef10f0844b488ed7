import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import type { Page } from "@playwright/test";
import { acme, expect, withCompany } from "./sessions";

/**
 * Steps of a Backup-source migration project in Acme Health, shared by the specs that need a project
 * with databases: an application, the project, one table (Customers: CustomerId key, Name), Single
 * file, and its databases created.
 */

/** A client's SQLite export with a Customers table of these rows. */
export function sqliteExport(name: string, rows: [number, string][]): { name: string; mimeType: string; buffer: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-e2e-sqlite-"));
  const file = path.join(dir, name);
  const db = new Database(file);
  db.exec("create table customers (CustomerId integer primary key, Name text)");
  const insert = db.prepare("insert into customers values (?, ?)");
  for (const row of rows) insert.run(...row);
  db.close();
  const buffer = fs.readFileSync(file);
  fs.rmSync(dir, { recursive: true, force: true });
  return { name, mimeType: "application/vnd.sqlite3", buffer };
}

/** The wizard's first step: a project `name` of `application` (Acme Health's) with the source type labelled `source`; answers its id. */
export async function startProject(page: Page, name: string, application: string, source: "Backup" | "Flat file" = "Backup"): Promise<string> {
  await page.goto(withCompany("/migration/projects/create", acme.id));
  await page.getByLabel("Project name").fill(name);
  await page.getByLabel("Application").selectOption({ label: application });
  await page.getByLabel("Source type").selectOption({ label: source });
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page).toHaveURL(/\/migration\/projects\/create\/[^/]+\/data-dictionary\?companyId=/);
  return /\/create\/([^/]+)\//.exec(page.url())![1]!;
}

/** Creates the project (named "Restored project {suffix}") up to its databases; answers its id. */
export async function createBackupProject(page: Page, suffix: string): Promise<string> {
  const application = `Backups app ${suffix}`;
  await page.goto(withCompany("/migration/application/create", acme.id));
  await page.getByLabel("Name").fill(application);
  await page.getByRole("button", { name: "Create application" }).click();
  await expect(page).toHaveURL(new RegExp(`/migration/application\\?companyId=${acme.id}`));

  const projectId = await startProject(page, `Restored project ${suffix}`, application);
  await page.getByLabel("Table name").fill("Customers");
  const first = page.getByRole("group", { name: "Column 1", exact: true });
  await first.getByLabel("Name").fill("CustomerId");
  await first.getByLabel("Type").selectOption("int");
  await first.getByLabel("Nullable").selectOption({ label: "No" });
  await first.getByLabel("Key").check();
  await page.getByRole("button", { name: "Add column" }).click();
  const second = page.getByRole("group", { name: "Column 2", exact: true });
  await second.getByLabel("Name").fill("Name");
  await second.getByLabel("Type").selectOption("nvarchar");
  await second.getByLabel("Length").fill("50");
  await page.getByRole("button", { name: "Add table" }).click();
  await expect(page.getByRole("table", { name: "Tables of the project" }).getByRole("row", { name: /Customers/ })).toContainText("2");
  await page.getByRole("link", { name: "Continue" }).click();
  await page.getByLabel("Upload type", { exact: true }).selectOption({ label: "Single file" });
  await page.getByRole("button", { name: "Save" }).click();
  await page.getByRole("button", { name: "Create databases" }).click();
  await expect(page.getByText("The databases are created.")).toBeVisible({ timeout: 30_000 });
  return projectId;
}
