import type * as React from "react";
import { useEffect, useRef } from "react";
import { Alert } from "~/components/ui/alert";

/**
 * Focus for a refused post's message outside a useServerForm form (a page's buttons, a list's row
 * actions, a check before a run): the message takes focus as FormErrors does when no field can. Without
 * JavaScript the page comes back with `autofocus` on it; with it, each new refusal (`refusal`: the
 * action's answer or its messages, a new object each time, as useServerForm compares results) moves
 * focus there. Spread on the message's element (RefusalAlert).
 */
export function useRefusalFocus(refusal: unknown) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (refusal) ref.current?.focus();
  }, [refusal]);
  return { ref, tabIndex: -1, autoFocus: true };
}

/**
 * A refused post's message at the top of a page or card whose post is not a useServerForm form (its
 * refusal has no field to point at): announced as an alert and focused as FormErrors is, so a keyboard
 * or screen-reader user is not left on <body> or on the button they pressed (useRefusalFocus).
 * `refusal` is the action's answer (or its messages): each new one takes focus again.
 *
 * A module of its own, apart from the form fields and Conform: the flash region of every page's shell
 * uses it, and what it imports goes into the shell's chunk, which every signed-in page loads first.
 */
export function RefusalAlert({ refusal, ...props }: React.ComponentProps<typeof Alert> & { refusal: unknown }) {
  return <Alert {...props} {...useRefusalFocus(refusal)} />;
}
