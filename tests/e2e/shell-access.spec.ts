import { E2E } from "../../playwright.config";
import { ALL_AREAS, AREAS, type AreaName, expectAreaPage, expectPermissionDenied, expectSidebar, mayOpen } from "./areas";
import { acme, birch, cedar, DEMO, expect, test, withCompany } from "./sessions";

/**
 * Spec §6 and DOMAIN.md "Who sees what", per company: every demo user × every area URL gives the page
 * or /permission-denied. The default company is the first of the user's companies by name.
 */
type Case = {
  user: keyof typeof DEMO;
  company: { id: string; name: string };
  /** Whether the URL names the company; otherwise the portal must pick `company` by itself. */
  explicit: boolean;
  /** The readable role the header shows for this company. */
  role: string;
  areas: AreaName[];
};

const CASES: Case[] = [
  { user: "super", company: acme, explicit: false, role: "SuperAdmin", areas: ALL_AREAS },
  { user: "support", company: acme, explicit: false, role: "Support", areas: ALL_AREAS },
  { user: "analyst", company: acme, explicit: false, role: "Analyst", areas: ["migration", "translations", "onboarding"] },
  { user: "clientadmin", company: birch, explicit: false, role: "ClientAdmin", areas: ["migration"] },
  { user: "clientadmin", company: cedar, explicit: true, role: "Viewer", areas: [] },
  { user: "viewer", company: acme, explicit: false, role: "Viewer", areas: [] },
  { user: "manager", company: cedar, explicit: false, role: "Manager", areas: [] },
  { user: "translator", company: acme, explicit: false, role: "TranslationAnalyst", areas: ["translations"] },
];

for (const c of CASES) {
  const user = DEMO[c.user];
  const open = (path: string) => (c.explicit ? withCompany(path, c.company.id) : path);

  test.describe(`${user.email} in ${c.company.name}`, () => {
    test.use({ signedInAs: user.email });

    test("every area URL gives the page or /permission-denied", async ({ page }) => {
      for (const area of AREAS) {
        for (const p of [...area.pages, ...(area.morePages ?? [])]) {
          const allowed = c.areas.includes(area.area) && mayOpen(p, c.role);
          const label = `${user.email} in ${c.company.name}, ${p.path} → ${allowed ? `the ${p.heading} page` : "/permission-denied"}`;
          await test.step(label, async () => {
            await page.goto(open(p.path));
            // The guards redirect on the server, so the URL is final once the page has loaded: a wrong
            // outcome is reported at once, and the page's details are checked only on the right one.
            const expected = `${E2E.portal}${allowed ? p.path : "/permission-denied"}?companyId=${c.company.id}`;
            expect.soft(page.url(), `${label}: where the browser ends`).toBe(expected);
            if (page.url() !== expected) return;
            if (allowed) await expectAreaPage(page, E2E.portal, p.path, p.heading, c.company.id, { soft: true, label });
            else await expectPermissionDenied(page, E2E.portal, c.company.id, { soft: true, label });
          });
        }
      }
    });

    const sections = AREAS.filter((a) => c.areas.includes(a.area)).map((a) => a.section);
    test(`sidebar shows ${sections.length ? sections.join(", ") : "no area"}; header shows ${user.name} and ${c.role}`, async ({ page }) => {
      const first = AREAS.find((a) => c.areas.includes(a.area))?.pages[0];
      await page.goto(open(first?.path ?? "/migration/projects"));
      if (first) {
        await expectAreaPage(page, E2E.portal, first.path, first.heading, c.company.id);
        await expectSidebar(page, c.areas, c.company.id, c.role);
        await expect(page.getByRole("combobox", { name: "Company" })).toHaveValue(c.company.id);
      } else {
        await expectPermissionDenied(page, E2E.portal, c.company.id);
        for (const area of AREAS) await expect(page.getByRole("list", { name: area.section })).toHaveCount(0);
      }
      const banner = page.getByRole("banner");
      await expect(banner.getByText(user.name, { exact: true })).toBeVisible();
      await expect(banner.getByText(c.role, { exact: true })).toBeVisible();
      await expect(banner.getByRole("button", { name: "Log out" })).toBeVisible();
    });
  });
}

test.describe("company picker lists the user's companies by name", () => {
  for (const [key, names] of [
    ["super", ["Acme Health", "Birch Logistics", "Cedar Retail"]],
    ["analyst", ["Acme Health", "Birch Logistics"]],
    ["clientadmin", ["Birch Logistics", "Cedar Retail"]],
  ] as const) {
    test.describe(() => {
      test.use({ signedInAs: DEMO[key].email });
      test(`${DEMO[key].email}: ${names.join(", ")}`, async ({ page }) => {
        await page.goto("/migration/projects");
        await expect(page.getByRole("combobox", { name: "Company" }).getByRole("option")).toHaveText([...names]);
      });
    });
  }
});

test.describe("top-level redirects and breadcrumbs", () => {
  test.use({ signedInAs: DEMO.analyst.email });

  test("/ signed in opens /migration/projects in the first company", async ({ page }) => {
    await page.goto("/");
    await expectAreaPage(page, E2E.portal, "/migration/projects", "Projects", acme.id);
  });

  test("/ keeps the company it is given", async ({ page }) => {
    await page.goto(withCompany("/", birch.id));
    await expectAreaPage(page, E2E.portal, "/migration/projects", "Projects", birch.id);
  });

  test("an unknown path goes to /, then to the projects, keeping the company", async ({ page }) => {
    const visited: string[] = [];
    page.on("request", (req) => req.isNavigationRequest() && req.frame() === page.mainFrame() && visited.push(req.url()));
    await page.goto(withCompany("/no/such/page", birch.id));
    await expectAreaPage(page, E2E.portal, "/migration/projects", "Projects", birch.id);
    expect(visited.slice(0, 3)).toEqual([
      `${E2E.portal}/no/such/page?companyId=${birch.id}`,
      `${E2E.portal}/?companyId=${birch.id}`,
      `${E2E.portal}/migration/projects?companyId=${birch.id}`,
    ]);

    visited.length = 0;
    await page.goto("/no/such/page");
    await expectAreaPage(page, E2E.portal, "/migration/projects", "Projects", acme.id);
    expect(visited.slice(0, 2)).toEqual([`${E2E.portal}/no/such/page`, `${E2E.portal}/`]);
  });

  test("area pages have breadcrumbs: the area links to its first page, the page is current", async ({ page }) => {
    await page.goto("/migration/data-dictionary");
    const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
    await expect(crumbs.getByRole("listitem")).toHaveText(["Migrations", "Data Dictionary"]);
    await expect(crumbs.getByRole("link", { name: "Migrations" })).toHaveAttribute("href", `/migration?companyId=${acme.id}`);
    await expect(crumbs.getByText("Data Dictionary")).toHaveAttribute("aria-current", "page");
    await crumbs.getByRole("link", { name: "Migrations" }).click();
    await expectAreaPage(page, E2E.portal, "/migration/projects", "Projects", acme.id);
    await expect(crumbs.getByRole("listitem")).toHaveText(["Migrations", "Projects"]);
    await expect(crumbs.getByText("Projects")).toHaveAttribute("aria-current", "page");
  });

  test("the error page (loaded on demand) comes with the page, and after a navigation in the page", async ({ page }) => {
    // From the server: the page is whole in its HTML, and the menu works once it is interactive.
    await page.goto(withCompany("/migration/projects/no-such-project/details", acme.id));
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
    await expect(page.getByRole("alert")).toHaveText("Project not found.");
    // Hydrated around it: a sidebar link navigates in place (no new document: the marker survives).
    await page.evaluate(() => ((window as unknown as { __marker: string }).__marker = "same document"));
    const menu = page.getByRole("navigation", { name: "Main menu" });
    await menu.getByRole("link", { name: "Data Dictionary" }).first().click();
    await expect(page).toHaveURL(new RegExp(`/migration/data-dictionary\\?companyId=${acme.id}$`));
    await expect(page.getByRole("heading", { name: "Not found" })).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { __marker?: string }).__marker)).toBe("same document");

    // In the page (the router's navigation, as a link's): the error page replaces the page once its code is there.
    await page.evaluate(
      (to) => (window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }).__reactRouterDataRouter.navigate(to),
      withCompany("/migration/projects/no-such-project/details", acme.id),
    );
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
    await expect(page.getByRole("alert")).toHaveText("Project not found.");
    await menu.getByRole("link", { name: "Projects" }).click();
    await expectAreaPage(page, E2E.portal, "/migration/projects", "Projects", acme.id);
    expect(await page.evaluate(() => (window as unknown as { __marker?: string }).__marker)).toBe("same document");
  });

  test("no breadcrumbs on /permission-denied", async ({ page }) => {
    await page.goto("/additional-options/product-info/details");
    await expectPermissionDenied(page, E2E.portal, acme.id);
    await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toHaveCount(0);
  });
});

test.describe("the error page with JavaScript off", () => {
  test.use({ signedInAs: DEMO.analyst.email, javaScriptEnabled: false });

  test("is in the page's HTML, where it stands", async ({ page }) => {
    const res = await page.goto(withCompany("/migration/projects/no-such-project/details", acme.id));
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("main").getByRole("heading", { name: "Not found" })).toBeVisible();
    await expect(page.getByRole("alert")).toHaveText("Project not found.");
    await expect(page.getByRole("link", { name: "Go to main page" })).toBeVisible();
  });
});

test.describe("a role that does not open the main page", () => {
  test.use({ signedInAs: DEMO.translator.email });

  test("/ is refused with a way to the areas the role opens", async ({ page }) => {
    await page.goto("/");
    await expectPermissionDenied(page, E2E.portal, acme.id);
    const areas = page.getByRole("navigation", { name: "Your role opens" });
    await expect(areas.getByRole("link")).toHaveText(["Fusion PSI Configuration"]);
    await areas.getByRole("link", { name: "Fusion PSI Configuration" }).click();
    await expectAreaPage(page, E2E.portal, "/translations/mappings", "Mappings", acme.id);
  });
});

test.describe("a role that opens no area", () => {
  test.use({ signedInAs: DEMO.viewer.email });

  test("is refused with no area offered", async ({ page }) => {
    await page.goto("/");
    await expectPermissionDenied(page, E2E.portal, acme.id);
    await expect(page.getByRole("navigation", { name: "Your role opens" })).toHaveCount(0);
  });
});

test.describe("breadcrumbs of Additional Options", () => {
  test.use({ signedInAs: DEMO.super.email });

  test("Additional Options › Product Info", async ({ page }) => {
    await page.goto("/additional-options/product-info/details");
    const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
    await expect(crumbs.getByRole("listitem")).toHaveText(["Additional Options", "Product Info"]);
    await expect(crumbs.getByRole("link", { name: "Additional Options" })).toHaveAttribute(
      "href",
      `/additional-options?companyId=${acme.id}`,
    );
  });
});
