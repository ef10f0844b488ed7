/*
 * Zod-free: the browser imports these (labels, options, limits) without pulling in Zod. The schemas in
 * contracts/common.ts build on them and re-export them, so the services import from there as before.
 */

/** A page of a list: paginated, filtered and sorted in SQL (ARCHITECTURE.md §3). */
export const PAGE_SIZES = [10, 25, 50, 100] as const;

/** "mapping project" → "Mapping project": a noun at the start of a sentence, a tag, a landmark's name. */
export const capitalised = (noun: string) => noun.charAt(0).toUpperCase() + noun.slice(1);

/** A calendar day as YYYY-MM-DD that exists (2020-02-30 and 2020-13-45 do not): Date would read them as invalid or as another day. */
export function isRealDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}
