import type { Locator, Page } from "@playwright/test";
import { acme, birch, expect, test, withCompany } from "./sessions";

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
    });
  });
}
