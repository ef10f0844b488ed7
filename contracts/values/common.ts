/*
 * Zod-free: the browser imports these (labels, options, limits) without pulling in Zod. The schemas in
 * contracts/common.ts build on them and re-export them, so the services import from there as before.
 */

/** A page of a list: paginated, filtered and sorted in SQL (ARCHITECTURE.md §3). */
export const PAGE_SIZES = [10, 25, 50, 100] as const;

/** "mapping project" → "Mapping project": a noun at the start of a sentence, a tag, a landmark's name. */
export const capitalised = (noun: string) => noun.charAt(0).toUpperCase() + noun.slice(1);
