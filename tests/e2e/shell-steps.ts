import type { Page } from "@playwright/test";

/**
 * The one sidebar button shown, named by what it does: "Collapse sidebar" or "Expand sidebar" on a
 * wide enough window, "Menu" or "Close menu" on a phone's (the others are hidden by app.css).
 */
/**
 * The sidebar's one shown button of four (which one is the stylesheet's choice, by width and state). Wait for the page's
 * load (pressSidebarToggle) before pressing it: until the stylesheet applies, all four show (a strict-mode failure in CI).
 */
export const sidebarToggle = (page: Page) => page.getByRole("button", { name: /^(Collapse sidebar|Expand sidebar|Menu|Close menu)$/ });

/** Presses sidebarToggle once the page, its stylesheet included, has loaded. */
export async function pressSidebarToggle(page: Page) {
  await page.waitForLoadState("load");
  await sidebarToggle(page).click();
}

/**
 * Presses the sidebar's button (sidebarToggle) and waits for the POST that remembers the choice to be answered (a form
 * post to /sidebar without JavaScript, React Router's fetch of /sidebar.data with it).
 */
export async function toggleSidebar(page: Page) {
  const answered = page.waitForResponse((res) => res.request().method() === "POST" && /^\/sidebar(\.data)?$/.test(new URL(res.url()).pathname));
  await pressSidebarToggle(page);
  await answered;
}
