import path from "node:path";
import type { Page } from "@playwright/test";
import { E2E } from "../../playwright.config";
import { acme, expect, withCompany } from "./sessions";

/** Steps shared by the journeys through applications and master data dictionaries (in Acme Health). */

export const FIXTURES = path.resolve(import.meta.dirname, "../../services/data-api/test-fixtures");
export const SAMPLE = path.join(FIXTURES, "sample-dictionary.csv");
export const SAMPLE_ERRORS = path.join(FIXTURES, "sample-dictionary-errors.csv");

/** The portal URL `p` (a path, maybe with a search), followed by a search or nothing. */
export const url = (p: string) => new RegExp(`^${E2E.portal}${p.replace(/[?.]/g, "\\$&")}(\\?|$)`);

/** Fills and submits the application form of `companyId` (Acme Health by default); what it answers is the caller's to check. */
export async function submitApplication(page: Page, name: string, description = "", companyId: string = acme.id) {
  await page.goto(withCompany("/migration/application", companyId));
  await expect(page.getByRole("heading", { level: 1, name: "Applications", exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Create application" }).click();
  await expect(page).toHaveURL(`${E2E.portal}${withCompany("/migration/application/create", companyId)}`);
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Description").fill(description);
  await page.getByRole("button", { name: "Create application" }).click();
}

/** Registers an application and waits for its answer: a page opened meanwhile would cancel the submission (with JavaScript on, a fetch). */
export async function createApplication(page: Page, name: string, description = "", companyId: string = acme.id) {
  await submitApplication(page, name, description, companyId);
  await expect(page.getByRole("status").filter({ hasText: `Application ${name} created.` })).toBeVisible();
}

/**
 * Creates a dictionary of `application` from the list at `base` (Migration's, or Onboarding's: the
 * same pages) and answers its id, on the wizard's upload step.
 */
export async function createDictionary(page: Page, application: string, name: string, base = "/migration/data-dictionary") {
  await page.goto(withCompany(base, acme.id));
  await expect(page.getByRole("heading", { level: 1, name: "Data Dictionary", exact: true })).toBeVisible();
  await page.getByRole("link", { name: "Create data dictionary" }).click();
  // The list has an Application select too (its filter): wait for the create page before choosing.
  await expect(page.getByRole("heading", { level: 1, name: "Create data dictionary" })).toBeVisible();
  await page.getByLabel("Application").selectOption({ label: application });
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Description").fill("Tables of the legacy system");
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page).toHaveURL(new RegExp(`${base}/create/[^/]+/upload-data\\?companyId=`));
  return /\/create\/([^/]+)\/upload-data/.exec(page.url())![1]!;
}
