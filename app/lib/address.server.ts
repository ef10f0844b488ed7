import { data } from "react-router";

/** The words of an address whose path has a `%` not followed by a character's code (a link cut short or mistyped). */
export const MALFORMED_ADDRESS = "This address could not be read: a % in it does not stand for a character. Check the link, or go to the main page.";

/**
 * Refuses, with the product's page (400, the root's error boundary in the layout), a request whose path
 * cannot be decoded (…/projects/%E0%A4%A/details): React Router would match it with its parameters still
 * encoded, and Express answered it with a bare "Bad Request" (server/portal.ts). A path that only the
 * not-found route matches (its splat, `*`) is an unknown path, sent home as every other is (spec §2); that
 * route has no page to show a refusal on. A query string never fails here: its parameters are read leniently.
 */
export function refuseMalformedAddress(request: Request, params: Readonly<Record<string, string | undefined>>): void {
  if (params["*"] !== undefined) return;
  try {
    decodeURIComponent(new URL(request.url).pathname);
  } catch {
    throw data({ errors: [MALFORMED_ADDRESS] }, { status: 400 });
  }
}
