import type { Page } from "@playwright/test";

/**
 * Presses "Toggle sidebar" and waits for the POST that remembers the choice to be answered (a form
 * post to /sidebar without JavaScript, React Router's fetch of /sidebar.data with it).
 */
export async function toggleSidebar(page: Page) {
  const answered = page.waitForResponse((res) => res.request().method() === "POST" && /^\/sidebar(\.data)?$/.test(new URL(res.url()).pathname));
  await page.getByRole("button", { name: "Toggle sidebar" }).click();
  await answered;
}
