/*
 * Zod-free: the browser imports these (labels, options, limits) without pulling in Zod. The schemas in
 * contracts/common.ts build on them and re-export them, so the services import from there as before.
 */

/** A page of a list: paginated, filtered and sorted in SQL (ARCHITECTURE.md §3). */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE: (typeof PAGE_SIZES)[number] = 25;

/**
 * The name and value of a search form's "Clear search" when it is a submit button of the form (ListSearchForm's
 * clearSubmits): the form's other fields (a list's ticks) go with it, and its loader drops the search (clearedSearchHref).
 */
export const CLEAR_SEARCH = { name: "clear", value: "search" } as const;

/** "mapping project" → "Mapping project": a noun at the start of a sentence, a tag, a landmark's name. */
export const capitalised = (noun: string) => noun.charAt(0).toUpperCase() + noun.slice(1);

/** A calendar day as YYYY-MM-DD that exists (2020-02-30 and 2020-13-45 do not): Date would read them as invalid or as another day. */
export function isRealDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}

/** Who saved the version a refused save was not based on, and when (ISO): `byCaller` when it was the user refused. */
export type LastChange = { byCaller: boolean; at: string };

/**
 * The refusal of a save based on a version that has moved on (409), for every kind of thing: "This
 * dictionary was changed by someone else. Nothing was saved.", or, when the user refused saved
 * that version themselves, "You changed this dictionary in another tab or window at 14:05 UTC. …".
 * `what` names the thing as a sentence's object ("this dictionary", "the map of Gender"); `then` ends
 * it. It does not say "reload": every page that sends a version reads itself again after a 409
 * (revalidateAfterConflict) and keeps what the user typed, which a reload would throw away. Without
 * `last` (not recorded), it is someone else's change.
 */
/**
 * The refusal (409 `already_made`) of a create form sent again (a reload of the page that answered it,
 * Back and resubmit) once it has made its thing: `made` names it ("SQL credential dtc_… for Power BI
 * gateway"), `then` says what to do instead, since its secret was shown once, with the first answer.
 */
export const alreadyMadeMessage = (made: string, at: string, then: string) =>
  `This form was sent already: ${made} was made by it at ${new Date(at).toISOString().slice(11, 16)} UTC. Nothing more was made; ${then}`;

export function staleSaveMessage(what: string, last: LastChange | null | undefined, then = "Nothing was saved.", now = new Date()): string {
  if (!last?.byCaller) return `${capitalised(what)} was changed by someone else. ${then}`;
  const at = new Date(last.at).toISOString();
  const day = at.slice(0, 10);
  const when = `${day === now.toISOString().slice(0, 10) ? "" : `on ${day} `}at ${at.slice(11, 16)} UTC`;
  return `You changed ${what} in another tab or window ${when}. ${then}`;
}
