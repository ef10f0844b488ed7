import type { Page } from "@playwright/test";

/** Fills column `n` (1-based) of the TableEditor (a workspace's dictionary, a mapping project's file data structure). */
export async function fillColumn(page: Page, n: number, column: { name: string; type: string; length?: string; nullable?: "Yes" | "No"; key?: boolean }) {
  const row = page.getByRole("group", { name: `Column ${n}`, exact: true });
  await row.getByLabel("Name").fill(column.name);
  await row.getByLabel("Type").selectOption(column.type);
  if (column.length) await row.getByLabel("Length").fill(column.length);
  if (column.nullable) await row.getByLabel("Nullable").selectOption({ label: column.nullable });
  if (column.key) await row.getByLabel("Key").check();
}
