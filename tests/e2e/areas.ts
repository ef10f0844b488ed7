import type { Page } from "@playwright/test";
import { E2E } from "../../playwright.config";
import { expect } from "./fixtures";

const hardExpect = expect;
const softExpect = expect.configure({ soft: true });

export type AreaName = "additionalOptions" | "migration" | "translations" | "onboarding";

/** The sidebar of the issue, section by section, with each page's URL and the heading it shows. */
export const AREAS: {
  area: AreaName;
  section: string;
  /** `onlyFor`: the sidebar links it for these readable roles alone; SuperAdmin and Support may open it too. */
  pages: { link: string; path: string; heading: string; onlyFor?: string[] }[];
  /** Pages of the area that the sidebar does not link to, guarded all the same (issue 4's create pages). */
  morePages?: { path: string; heading: string }[];
}[] = [
  {
    area: "additionalOptions",
    section: "Additional Options",
    pages: [
      { link: "SQL Credentials", path: "/additional-options/sql-credentials/users", heading: "SQL Credentials" },
      { link: "Product Info", path: "/additional-options/product-info/details", heading: "Product Info" },
      { link: "Audit Log", path: "/additional-options/audit-log", heading: "Audit Log" },
      { link: "Notifications", path: "/additional-options/notifications", heading: "Notifications" },
    ],
  },
  {
    area: "migration",
    section: "Migrations",
    pages: [
      { link: "Projects", path: "/migration/projects", heading: "Projects" },
      { link: "Master Templates", path: "/migration/master-templates", heading: "Master Templates" },
      { link: "Data Dictionary", path: "/migration/data-dictionary", heading: "Data Dictionary" },
      { link: "Applications", path: "/migration/application", heading: "Applications" },
      { link: "Notifications", path: "/migration/notifications", heading: "Notifications", onlyFor: ["ClientAdmin"] },
    ],
    morePages: [
      { path: "/migration/projects/create", heading: "Create project" },
      { path: "/migration/application/create", heading: "Create application" },
      { path: "/migration/data-dictionary/create/new/application", heading: "Create data dictionary" },
    ],
  },
  {
    area: "translations",
    section: "Fusion PSI Configuration",
    pages: [
      { link: "Mappings", path: "/translations/mappings", heading: "Mappings" },
      { link: "Master Templates", path: "/translations/master-templates", heading: "Master Templates" },
    ],
  },
  {
    area: "onboarding",
    section: "Data Onboarding",
    pages: [
      { link: "Configurations", path: "/onboarding/configurations", heading: "Configurations" },
      { link: "Master Templates", path: "/onboarding/master-templates", heading: "Master Templates" },
      { link: "Data Dictionary", path: "/onboarding/data-dictionary", heading: "Data Dictionary" },
    ],
    morePages: [{ path: "/onboarding/configurations/create", heading: "Create configuration" }],
  },
];

export const ALL_AREAS: AreaName[] = AREAS.map((a) => a.area);

/** The page opened: its heading, at `path` with the company scope. */
export async function expectAreaPage(page: Page, portal: string, path: string, heading: string, companyId: string, { soft = false, label = "" } = {}) {
  const expect = soft ? softExpect : hardExpect;
  const why = (what: string) => (label ? `${label}: ${what}` : what);
  await expect(page, why(`stays on ${path} with the company`)).toHaveURL(`${portal}${path}?companyId=${companyId}`);
  await expect(page.getByRole("heading", { level: 1, name: heading, exact: true }), why(`shows "${heading}"`)).toBeVisible();
  // One name per page: the current breadcrumb reads as the heading (and the sidebar's link).
  const current = page.getByRole("navigation", { name: "Breadcrumb" }).locator('[aria-current="page"]');
  await expect(current, why(`names "${heading}" in the breadcrumbs`)).toHaveText(heading);
  await expect(page.getByRole("heading", { name: "Permission Denied" }), why("is not refused")).toHaveCount(0);
}

/** The redirect of a refused area: the Permission Denied card with its two ways out. */
export async function expectPermissionDenied(page: Page, portal: string, companyId: string, { soft = false, label = "" } = {}) {
  const expect = soft ? softExpect : hardExpect;
  const why = (what: string) => (label ? `${label}: ${what}` : what);
  await expect(page, why("redirects to /permission-denied")).toHaveURL(`${portal}/permission-denied?companyId=${companyId}`);
  await expect(page.getByRole("heading", { name: "Permission Denied" }), why("shows Permission Denied")).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to main page" })).toHaveAttribute("href", `/?companyId=${companyId}`);
  await expect(page.getByRole("link", { name: "Go to client portal dashboard" })).toHaveAttribute("href", `${E2E.clientPortal}/dashboard`);
}

/** Whether a user of this readable role may open the page of an area it may enter. */
export function mayOpen(p: { path: string; onlyFor?: string[] }, role: string | undefined): boolean {
  return !p.onlyFor || (role !== undefined && (p.onlyFor.includes(role) || role === "SuperAdmin" || role === "Support"));
}

/** The sidebar lists exactly the `allowed` sections, each with its links for `role`, and "All Products". */
export async function expectSidebar(page: Page, allowed: readonly AreaName[], companyId: string, role?: string) {
  const menu = page.getByRole("navigation", { name: "Main menu" });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole("link", { name: "All Products" })).toHaveAttribute("href", `${E2E.clientPortal}/dashboard`);
  for (const area of AREAS) {
    const section = menu.getByRole("list", { name: area.section, exact: true });
    if (!allowed.includes(area.area)) {
      await expect(section, `section "${area.section}" should be hidden`).toHaveCount(0);
      continue;
    }
    await expect(section, `section "${area.section}" should be shown`).toHaveCount(1);
    const links = section.getByRole("link");
    const linked = area.pages.filter((p) => !p.onlyFor || (role !== undefined && p.onlyFor.includes(role)));
    await expect(links).toHaveCount(linked.length);
    for (const p of linked) {
      await expect(section.getByRole("link", { name: p.link, exact: true })).toHaveAttribute("href", `${p.path}?companyId=${companyId}`);
    }
  }
}
