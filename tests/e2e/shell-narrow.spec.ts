import type { Locator, Page } from "@playwright/test";
import { fillColumn } from "./dictionary-steps";
import { createApplication } from "./master-data";
import { acme, birch, DEMO, expect, test, withCompany } from "./sessions";
import { toggleSidebar, sidebarToggle } from "./shell-steps";

/**
 * Below 1366 px the sidebar is a narrow rail: the selected company stays readable in the header,
 * and the picker (select and, without JavaScript, the Switch button) stays inside the rail.
 */
const NARROW = { width: 1200, height: 800 };

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error("not rendered");
  return b;
}

/** `inner` lies within `outer` (to the pixel) and within the window's width. */
async function expectInside(page: Page, inner: Locator, outer: Locator) {
  const i = await box(inner);
  const o = await box(outer);
  expect(i.x, "left edge").toBeGreaterThanOrEqual(o.x - 0.5);
  expect(i.x + i.width, "right edge").toBeLessThanOrEqual(o.x + o.width + 0.5);
  expect(i.x + i.width, "right edge in the window").toBeLessThanOrEqual(page.viewportSize()!.width);
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "JavaScript on" : "JavaScript off";

  test.describe(`the collapsed sidebar at 1200 px with ${mode}`, () => {
    test.use({ javaScriptEnabled, viewport: NARROW, signedInAs: "analyst@demo.test" });

    test("the header names the selected company; the picker stays inside the rail", async ({ page }) => {
      await page.goto(withCompany("/migration/data-dictionary", acme.id));
      await expect(page.getByRole("heading", { level: 1, name: "Data Dictionary", exact: true })).toBeVisible();
      // The sidebar is the page's one complementary landmark (an <aside>).
      const rail = page.getByRole("complementary");
      await expect.poll(async () => (await box(rail)).width, { message: "rail width" }).toBeLessThan(100);

      const banner = page.getByRole("banner");
      await expect(banner.getByText("Acme Health", { exact: true })).toBeVisible();
      await expect(banner).toContainText("Company");

      const picker = page.getByRole("combobox", { name: "Company" });
      await expect(picker).toBeVisible();
      await expectInside(page, picker, rail);
      // The rail shows the company's initials, not the first letters of its name cut off ("Ac…"); the
      // select over them keeps the name as its value and its title.
      const badge = rail.getByText("AH", { exact: true });
      await expect(badge).toBeVisible();
      await expectInside(page, badge, rail);
      await expect(picker).toHaveAttribute("title", "Company: Acme Health");
      if (!javaScriptEnabled) {
        const switchButton = page.getByRole("button", { name: "Switch" });
        await expect(switchButton).toBeVisible();
        await expectInside(page, switchButton, rail);
        // Nothing in the rail is wider than the rail.
        const overflow = await rail.evaluate((el) => el.scrollWidth - el.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }

      // Switching company: the header follows.
      await picker.selectOption({ label: "Birch Logistics" });
      if (!javaScriptEnabled) await page.getByRole("button", { name: "Switch" }).click();
      await expect(page).toHaveURL(new RegExp(`companyId=${birch.id}`));
      await expect(banner.getByText("Birch Logistics", { exact: true })).toBeVisible();
      await expect(banner.getByText("Acme Health", { exact: true })).toHaveCount(0);
      await expect(rail.getByText("BL", { exact: true })).toBeVisible();
    });
  });
}

/** A phone's width: every page fits it, and only a wide table scrolls sideways, inside its own box. */
const PHONE = { width: 375, height: 800 };

/** The page is no wider than the window: nothing in it makes the page itself scroll sideways. */
async function expectFitsPhone(page: Page) {
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  const width = () => page.evaluate(() => document.documentElement.scrollWidth);
  await expect.poll(width, { message: `the page's width at ${new URL(page.url()).pathname}` }).toBeLessThanOrEqual(PHONE.width);
}

/** The list's table is wider than the phone and scrolls in its own box. */
async function expectTableScrollsInItsBox(table: Locator) {
  const overflow = await table.evaluate((el) => el.parentElement!.scrollWidth - el.parentElement!.clientWidth);
  expect(overflow, "the table's box scrolls sideways").toBeGreaterThan(0);
  expect(await table.evaluate((el) => getComputedStyle(el.parentElement!).overflowX)).toBe("auto");
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "JavaScript on" : "JavaScript off";
  const suffix = javaScriptEnabled ? "js" : "html";

  test.describe(`375 px wide with ${mode}`, () => {
    test.use({ javaScriptEnabled, viewport: PHONE, signedInAs: DEMO.analyst.email });

    test("lists, a project's pages and its dictionary's tables fit the width", async ({ page }) => {
      test.setTimeout(120_000);
      const application = `Narrow app ${suffix}`;
      await createApplication(page, application);
      await page.goto(withCompany("/migration/projects/create", acme.id));
      await page.getByLabel("Project name").fill(`Narrow project ${suffix}`);
      await page.getByLabel("Application", { exact: true }).selectOption({ label: application });
      await page.getByLabel("Source type").selectOption({ label: "Flat file" });
      await page.getByRole("button", { name: "Save and continue" }).click();
      await expect(page).toHaveURL(/\/migration\/projects\/create\/[^/]+\/data-dictionary\?companyId=/);
      const projectId = /\/create\/([^/]+)\//.exec(page.url())![1]!;
      await expectFitsPhone(page);
      await page.getByLabel("Table name").fill("Customers");
      await fillColumn(page, 1, { name: "CustomerId", type: "int", nullable: "No", key: true });
      await page.getByRole("button", { name: "Add table" }).click();
      await expect(page.getByRole("table", { name: "Tables of the project" }).getByRole("row", { name: /Customers/ })).toBeVisible();

      await page.goto(withCompany("/migration/projects", acme.id));
      await expectFitsPhone(page);
      await expectTableScrollsInItsBox(page.getByRole("main").getByRole("table"));
      // The search box stays inside its card.
      await expectInside(page, page.getByRole("searchbox", { name: "Search projects" }), page.getByRole("search", { name: "Find projects" }));

      for (const path of [
        `/migration/projects/${projectId}/details`,
        `/migration/projects/${projectId}/data-dictionary/data-definition/tables`,
        `/migration/projects/${projectId}/users/project-access`,
        "/migration/data-dictionary",
        "/migration/application",
        "/migration/master-templates",
        "/onboarding/configurations",
      ]) {
        await page.goto(withCompany(path, acme.id));
        await expectFitsPhone(page);
      }
      await expectInside(page, page.getByRole("searchbox", { name: "Search configurations" }), page.getByRole("search", { name: "Find configurations" }));
    });

    test("the collapsed sidebar is only its menu button above the page, which opens the menu over it", async ({ page }) => {
      await page.goto(withCompany("/migration/projects", acme.id));
      const main = page.getByRole("main");
      const menu = page.getByRole("navigation", { name: "Main menu" });
      const toggle = sidebarToggle(page);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      // No rail beside the content: the page has the window's whole width, the button a bar above it.
      expect((await box(main)).width).toBeGreaterThanOrEqual(PHONE.width - 1);
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      // Named by the word it shows.
      await expect(toggle).toHaveAccessibleName("Menu");
      const button = await box(toggle);
      expect(button.y + button.height).toBeLessThanOrEqual((await box(main)).y + 0.5);
      // The menu and the company picker are out of the way, not tabbed through.
      await expect(menu).toBeHidden();
      await expect(page.getByRole("combobox", { name: "Company" })).toBeHidden();

      // Opened by this page alone (a fragment without JavaScript, state with it): nothing is posted or remembered.
      const posts: string[] = [];
      page.on("request", (req) => void (req.method() === "POST" && posts.push(req.url())));
      await toggle.click();
      await expect(toggle).toHaveAttribute("aria-expanded", "true");
      await expect(toggle).toHaveAccessibleName("Close menu");
      await expect(menu.getByRole("link", { name: "Projects" })).toBeVisible();
      await expect.poll(async () => (await box(page.getByRole("complementary"))).width, { message: "sidebar width" }).toBeGreaterThan(200);
      await expect(page.getByRole("combobox", { name: "Company" })).toBeVisible();
      // Over the content: the page keeps its width.
      expect((await box(main)).width).toBeGreaterThanOrEqual(PHONE.width - 1);
      await expectFitsPhone(page);
      expect(new URL(page.url()).searchParams.get("companyId"), "the page's query is kept").toBe(acme.id);

      await toggle.click();
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      await expect(menu).toBeHidden();

      if (javaScriptEnabled) {
        // Escape closes it, the focus back on its button.
        await toggle.click();
        await menu.getByRole("link", { name: "Projects" }).focus();
        await page.keyboard.press("Escape");
        await expect(menu).toBeHidden();
        await expect(toggle).toBeFocused();
      }

      // A page reached from the menu starts with it closed: it was open for the page it was opened on.
      await toggle.click();
      await menu.getByRole("link", { name: "Applications" }).click();
      await expect(page).toHaveURL(/\/migration\/application\?/);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      await expect(menu).toBeHidden();
      expect(posts, "nothing posted").toEqual([]);
    });

    test("the choice of wider windows to keep the sidebar expanded does not open the menu over a phone's page", async ({ page }) => {
      await page.setViewportSize({ width: 1365, height: 800 });
      await page.goto(withCompany("/migration/projects", acme.id));
      const toggle = sidebarToggle(page);
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      await toggleSidebar(page);
      await expect(toggle).toHaveAttribute("aria-expanded", "true");
      await page.reload();
      await expect(toggle).toHaveAttribute("aria-expanded", "true");

      await page.setViewportSize(PHONE);
      await page.goto(withCompany("/migration/application", acme.id));
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      await expect(page.getByRole("navigation", { name: "Main menu" })).toBeHidden();
      expect((await box(page.getByRole("main"))).width).toBeGreaterThanOrEqual(PHONE.width - 1);
    });
  });

  test.describe(`375 px wide, Additional Options, with ${mode}`, () => {
    test.use({ javaScriptEnabled, viewport: PHONE, signedInAs: DEMO.super.email });

    test("the audit log and the product's details fit the width", async ({ page }) => {
      for (const path of ["/additional-options/audit-log", "/additional-options/product-info/details", "/additional-options/sql-credentials"]) {
        await page.goto(withCompany(path, acme.id));
        await expectFitsPhone(page);
      }
    });
  });
}
