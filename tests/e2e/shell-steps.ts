import type { Page } from "@playwright/test";

/**
 * The one sidebar button shown, named by what it does: "Collapse sidebar" or "Expand sidebar" on a
 * wide enough window, "Menu" or "Close menu" on a phone's (the others are hidden by app.css).
 */
export const sidebarToggle = (page: Page) => page.getByRole("button", { name: /^(Collapse sidebar|Expand sidebar|Menu|Close menu)$/ });

/**
 * Presses the sidebar's button (sidebarToggle) and waits for the POST that remembers the choice to be answered (a form
 * post to /sidebar without JavaScript, React Router's fetch of /sidebar.data with it).
 */
export async function toggleSidebar(page: Page) {
  const answered = page.waitForResponse((res) => res.request().method() === "POST" && /^\/sidebar(\.data)?$/.test(new URL(res.url()).pathname));
  await sidebarToggle(page).click();
  await answered;
}
