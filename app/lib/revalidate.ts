import type { ShouldRevalidateFunctionArgs } from "react-router";

/*
 * A module of its own, not in forms.ts: layouts export it for the pages below them, and a page without
 * a form should not load the forms' code for it (issue 8's initial JS bar).
 */

/**
 * A route's shouldRevalidate for pages whose refusals must show things as they are now: 409, someone
 * changed the thing meanwhile; 404, something the form named is gone meanwhile (a SQL credential
 * revoked in another tab). React Router skips reloading after a 4xx action otherwise, where a page
 * posted without JavaScript is always read again; the refusal's message stays either way.
 */
export function revalidateAfterConflict({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 || actionStatus === 404 || defaultShouldRevalidate;
}
