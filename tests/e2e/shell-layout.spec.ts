import type { Page } from "@playwright/test";
import { E2E } from "../../playwright.config";
import { expectAreaPage, expectPermissionDenied } from "./areas";
import { signIn } from "./fixtures";
import { acme, birch, cedar, DEMO, expect, test, withCompany } from "./sessions";
import { toggleSidebar, sidebarToggle } from "./shell-steps";

/** Spec §9: the sidebar breakpoint. */
const WIDE = { width: 1366, height: 900 };
const NARROW = { width: 1365, height: 900 };

/**
 * Expanded: the link texts show. Collapsed: a narrow bar of icons whose links keep their accessible
 * names with the text visually hidden. Either way exactly one sidebar button is shown, named by what it
 * does ("Collapse sidebar", "Expand sidebar"), its visible word first.
 */
async function expectSidebar(page: Page, state: "expanded" | "collapsed") {
  const menu = page.getByRole("navigation", { name: "Main menu" });
  const projects = menu.getByRole("link", { name: "Projects", exact: true });
  await expect(projects).toBeVisible();
  const label = projects.getByText("Projects", { exact: true });
  const toggle = sidebarToggle(page);
  await expect(toggle).toHaveCount(1);
  await expect(toggle).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-expanded", String(state === "expanded"));
  await expect(toggle).toHaveAccessibleName(state === "expanded" ? "Collapse sidebar" : "Expand sidebar");
  if (state === "expanded") await expect(toggle).toContainText("Collapse");
  const width = async (l: typeof menu) => (await l.boundingBox())?.width ?? 0;
  if (state === "expanded") {
    await expect.poll(() => width(menu), { message: "sidebar width" }).toBeGreaterThan(200);
    await expect.poll(() => width(label), { message: "link text width" }).toBeGreaterThan(20);
  } else {
    await expect.poll(() => width(menu), { message: "sidebar width" }).toBeLessThan(100);
    await expect.poll(() => width(label), { message: "link text width" }).toBeLessThanOrEqual(1);
  }
}

test.describe("sidebar and window width", () => {
  test.use({ signedInAs: DEMO.analyst.email });

  test.describe("1366 px wide", () => {
    test.use({ viewport: WIDE });

    test("the sidebar is expanded", async ({ page }) => {
      await page.goto("/migration/projects");
      await expectSidebar(page, "expanded");
    });

    test("it collapses when the window narrows to 1365 px, and expands again", async ({ page }) => {
      await page.goto("/migration/projects");
      await expectSidebar(page, "expanded");
      await page.setViewportSize(NARROW);
      await expectSidebar(page, "collapsed");
      await page.setViewportSize(WIDE);
      await expectSidebar(page, "expanded");
    });

    test("Collapse sidebar collapses it; the choice survives a reload and a narrower window", async ({ page }) => {
      const url = withCompany("/migration/projects", birch.id);
      await page.goto(url);
      await toggleSidebar(page);
      await expectSidebar(page, "collapsed");
      await expect(page).toHaveURL(`${E2E.portal}${url}`);
      await page.reload();
      await expectSidebar(page, "collapsed");
      await toggleSidebar(page);
      await expectSidebar(page, "expanded");
      await page.reload();
      await expectSidebar(page, "expanded");
      // A remembered choice wins over the window width.
      await page.setViewportSize(NARROW);
      await expectSidebar(page, "expanded");
    });
  });

  test.describe("1365 px wide", () => {
    test.use({ viewport: NARROW });

    test("the sidebar is collapsed; every link keeps its name", async ({ page }) => {
      await page.goto("/migration/projects");
      await expectSidebar(page, "collapsed");
      const menu = page.getByRole("navigation", { name: "Main menu" });
      for (const name of ["All Products", "Projects", "Master Templates", "Data Dictionary", "Applications", "Mappings", "Configurations"]) {
        await expect(menu.getByRole("link", { name, exact: true }).first()).toBeVisible();
      }
      await expect(page.getByRole("combobox", { name: "Company" })).toHaveCount(1);
    });

    test("Expand sidebar expands it and the choice is remembered", async ({ page }) => {
      await page.goto("/migration/projects");
      await toggleSidebar(page);
      await expectSidebar(page, "expanded");
      await page.reload();
      await expectSidebar(page, "expanded");
      await toggleSidebar(page);
      await expectSidebar(page, "collapsed");
      await page.reload();
      await expectSidebar(page, "collapsed");
    });
  });
});

test.describe("the company scope", () => {
  test.use({ signedInAs: DEMO.analyst.email });

  test("companyId survives three sidebar navigations and a form post", async ({ page }) => {
    await page.goto(withCompany("/migration/projects", birch.id));
    const menu = page.getByRole("navigation", { name: "Main menu" });
    const steps = [
      { section: "Migrations", link: "Master Templates", path: "/migration/master-templates", heading: "Master Templates" },
      { section: "Fusion PSI Configuration", link: "Mappings", path: "/translations/mappings", heading: "Mappings" },
      { section: "Data Onboarding", link: "Configurations", path: "/onboarding/configurations", heading: "Configurations" },
    ];
    for (const step of steps) {
      await menu.getByRole("list", { name: step.section }).getByRole("link", { name: step.link }).click();
      await expectAreaPage(page, E2E.portal, step.path, step.heading, birch.id);
      await expect(page.getByRole("combobox", { name: "Company" })).toHaveValue(birch.id);
    }
    // The sidebar toggle is a POST whose redirect must keep the company.
    await toggleSidebar(page);
    await expectAreaPage(page, E2E.portal, "/onboarding/configurations", "Configurations", birch.id);
    await expect(page.getByRole("main").getByText("Birch Logistics")).toBeVisible();
  });

  test("an unknown companyId is corrected to the first company by a redirect", async ({ page }) => {
    const answers: number[] = [];
    page.on("response", (res) => res.request().isNavigationRequest() && answers.push(res.status()));
    await page.goto("/migration/data-dictionary?companyId=nope");
    await expectAreaPage(page, E2E.portal, "/migration/data-dictionary", "Data Dictionary", acme.id);
    expect(answers[0]).toBeGreaterThanOrEqual(300);
    expect(answers[0]).toBeLessThan(400);
    // A real company that is not one of the user's is unknown to this user, too.
    await page.goto(withCompany("/migration/data-dictionary", cedar.id));
    await expectAreaPage(page, E2E.portal, "/migration/data-dictionary", "Data Dictionary", acme.id);
  });

  test("with JavaScript, choosing a company is enough", async ({ page }) => {
    await page.goto("/migration/projects");
    await expectAreaPage(page, E2E.portal, "/migration/projects", "Projects", acme.id);
    await page.getByRole("combobox", { name: "Company" }).selectOption({ label: "Birch Logistics" });
    await expectAreaPage(page, E2E.portal, "/migration/projects", "Projects", birch.id);
    await expect(page.getByRole("main").getByText("Birch Logistics")).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Company" })).toHaveValue(birch.id);
  });

  test("with the keyboard, the arrows pass over companies and Enter switches to the one chosen", async ({ page }) => {
    await page.goto("/migration/projects");
    await expectAreaPage(page, E2E.portal, "/migration/projects", "Projects", acme.id);
    const picker = page.getByRole("combobox", { name: "Company" });
    await picker.focus();
    await page.keyboard.press("ArrowDown");
    await expect(picker).toHaveValue(birch.id);
    // Passing over Birch Logistics leaves the page as it is, and the Switch button offers itself.
    await expect(page.getByRole("button", { name: "Switch" })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`companyId=${acme.id}`));
    await page.keyboard.press("Enter");
    await expectAreaPage(page, E2E.portal, "/migration/projects", "Projects", birch.id);
  });
});

test.describe("the role in the header follows the company", () => {
  test.use({ signedInAs: DEMO.clientadmin.email });

  test("Carl Client is ClientAdmin in Birch Logistics and Viewer in Cedar Retail", async ({ page }) => {
    await page.goto("/migration/projects");
    const banner = page.getByRole("banner");
    await expectAreaPage(page, E2E.portal, "/migration/projects", "Projects", birch.id);
    await expect(banner.getByText("ClientAdmin", { exact: true })).toBeVisible();
    await page.getByRole("combobox", { name: "Company" }).selectOption({ label: "Cedar Retail" });
    // A Viewer may not enter Migrations: the switch ends on Permission Denied, in Cedar Retail.
    await expectPermissionDenied(page, E2E.portal, cedar.id);
    await expect(banner.getByText("Carl Client", { exact: true })).toBeVisible();
    await expect(banner.getByText("Viewer", { exact: true })).toBeVisible();
    await expect(banner.getByText("ClientAdmin", { exact: true })).toHaveCount(0);
  });
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("sign in, then switch company with the picker and the Switch button", async ({ page }) => {
    await page.goto("/migration/projects");
    await signIn(page, DEMO.super.email);
    await expectAreaPage(page, E2E.portal, "/migration/projects", "Projects", acme.id);
    await expect(page.getByRole("banner").getByText("Sam Super", { exact: true })).toBeVisible();

    await page.getByRole("combobox", { name: "Company" }).selectOption({ label: "Cedar Retail" });
    // Without JavaScript choosing alone does nothing.
    await expect(page).toHaveURL(`${E2E.portal}/migration/projects?companyId=${acme.id}`);
    await page.getByRole("button", { name: "Switch" }).click();
    await expectAreaPage(page, E2E.portal, "/migration/projects", "Projects", cedar.id);
    await expect(page.getByRole("main").getByText("Cedar Retail")).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Company" })).toHaveValue(cedar.id);

    // The new company stays on the next navigation.
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Product Info" }).click();
    await expectAreaPage(page, E2E.portal, "/additional-options/product-info/details", "Product Info", cedar.id);
  });

  test.describe("signed in", () => {
    test.use({ signedInAs: DEMO.analyst.email });

    test("at 1366 px Collapse sidebar collapses it with a form post that keeps the URL; remembered", async ({ page }) => {
      await page.setViewportSize(WIDE);
      const url = withCompany("/translations/mappings", birch.id);
      await page.goto(url);
      await expectSidebar(page, "expanded");
      await toggleSidebar(page);
      await expect(page).toHaveURL(`${E2E.portal}${url}`);
      await expectSidebar(page, "collapsed");
      await page.reload();
      await expectSidebar(page, "collapsed");
      await page.goto("/migration/projects");
      await expectSidebar(page, "collapsed");
      await toggleSidebar(page);
      await expectAreaPage(page, E2E.portal, "/migration/projects", "Projects", acme.id);
      await expectSidebar(page, "expanded");
    });

    test("at 1365 px Expand sidebar expands it; remembered", async ({ page }) => {
      await page.setViewportSize(NARROW);
      await page.goto("/migration/projects");
      await expectSidebar(page, "collapsed");
      await toggleSidebar(page);
      await expectSidebar(page, "expanded");
      await page.reload();
      await expectSidebar(page, "expanded");
    });

    test("an analyst switches between her companies with the Switch button", async ({ page }) => {
      await page.goto("/onboarding/configurations");
      await expectAreaPage(page, E2E.portal, "/onboarding/configurations", "Configurations", acme.id);
      await expect(page.getByRole("button", { name: "Switch" })).toBeVisible();
      await page.getByRole("combobox", { name: "Company" }).selectOption({ label: "Birch Logistics" });
      await page.getByRole("button", { name: "Switch" }).click();
      await expectAreaPage(page, E2E.portal, "/onboarding/configurations", "Configurations", birch.id);
    });
  });
});
