import type { Page } from "@playwright/test";
import { acme, expect, withCompany } from "./sessions";

/**
 * On a template's create page (a master's or a workspace's): creates template `name` with one level and
 * one script in it, and stays on the new script's page.
 */
export async function createTemplateWithScript(page: Page, t: { name: string; level: string; script: string; sql: string; type?: "Core" | "Mapping" }) {
  await page.getByLabel("Name").fill(t.name);
  if (t.type) await page.getByLabel("Type").selectOption(t.type);
  await page.getByRole("button", { name: "Create template" }).click();
  // A master's name is its page's h1; a workspace's template's is under the workspace's h1.
  const level = page.url().includes("/master-templates/") ? 1 : 2;
  await expect(page.getByRole("heading", { level, name: t.name })).toBeVisible();
  await page.getByLabel("New level name").fill(t.level);
  await page.getByRole("button", { name: "Add level" }).click();
  await page.getByRole("link", { name: `Add script to ${t.level}` }).click();
  await expect(page.getByRole("heading", { name: `Add a script to ${t.level}` })).toBeVisible();
  await page.getByLabel("Name").fill(t.script);
  await fillSql(page, t.sql);
  await page.getByRole("button", { name: "Add script" }).click();
  await expect(page.getByRole("status")).toHaveText(`Script ${t.script} added to ${t.level}.`);
}

/** Creates an Available master template of `area` with one level "Load" and one script "Customers" (in Acme Health). */
export async function availableMasterTemplate(
  page: Page,
  name: string,
  area: "migration" | "onboarding" | "translations" = "migration",
  type?: "Core" | "Mapping",
) {
  await page.goto(withCompany(`/${area}/master-templates/create`, acme.id));
  await createTemplateWithScript(page, {
    name,
    type,
    level: "Load",
    script: "Customers",
    sql: 'insert into destination."Customers" select * from source."Customers";',
  });
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await page.getByRole("button", { name: "Make available" }).click();
  await expect(page.getByRole("status")).toHaveText("Status changed.");
}

/** Types into a script's SQL field: the textarea without JavaScript, the code editor with it (a textbox named by the same label). */
export async function fillSql(page: Page, text: string) {
  // With JavaScript, the code editor replaces the textarea once its chunk has loaded: fill the editor,
  // not the textarea it is replacing (a form sent in that instant once carried no SQL; see issue 11's note).
  // The page ran its scripts when React Router's context is there (never with JavaScript off).
  const scripted = await page.evaluate(() => "__reactRouterContext" in window).catch(() => false);
  if (scripted) await page.locator(".cm-content").first().waitFor();
  await page.getByRole("textbox", { name: "SQL", exact: true }).fill(text);
}

/** The SQL the form will send: the textarea's, or the editor's hidden field. */
export async function expectSql(page: Page, text: string) {
  await expect(page.locator('[name="sql"]')).toHaveValue(text);
}
