import { Icon } from "~/components/ui/icon";
import { useState } from "react";
import { useLocation } from "react-router";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import type { FlashMessage } from "~/lib/flash";

/**
 * The flash message above the page (what the last write did), in a polite live region that is
 * always there, so that with JavaScript a message arriving after a client-side navigation is read
 * out. Without JavaScript it is plain HTML on the page after the redirect.
 *
 * An error (a refused download, a write refused for want of access) is a refusal like any other: an
 * alert that takes focus (RefusalAlert), so that a keyboard or screen-reader user who is sent back here,
 * often by a full page load, learns at once that nothing happened, rather than starting again on <body>.
 *
 * The next navigation dismisses it: with JavaScript the shell's data can outlive a navigation that
 * does not reload it, so the message belongs to the location it arrived with.
 */
export function FlashRegion({ flash }: { flash: FlashMessage | null }) {
  const location = useLocation();
  const [arrival, setArrival] = useState({ flash, key: location.key });
  const current = arrival.flash === flash ? arrival : { flash, key: location.key };
  if (current !== arrival) setArrival(current);
  const shown = flash && current.key === location.key ? flash : null;
  return (
    <div role="status" aria-live="polite">
      {shown?.kind === "error" ? (
        // Each arrival is a new refusal, focused again.
        <RefusalAlert refusal={current} className="mb-6 flex items-start gap-2">
          <Icon name="circle-alert" className="mt-0.5 size-4 shrink-0" />
          <span>{shown.text}</span>
        </RefusalAlert>
      ) : shown ? (
        <p className="mb-6 flex items-start gap-2 rounded-md border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
          <Icon name="circle-check" className="mt-0.5 size-4 shrink-0" />
          <span>{shown.text}</span>
        </p>
      ) : null}
    </div>
  );
}
