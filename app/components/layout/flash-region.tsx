import { Icon } from "~/components/ui/icon";
import { useState } from "react";
import { useLocation } from "react-router";
import type { FlashMessage } from "~/lib/flash";
import { cn } from "~/lib/utils";

/**
 * The flash message above the page (what the last write did), in a polite live region that is
 * always there, so that with JavaScript a message arriving after a client-side navigation is read
 * out. Without JavaScript it is plain HTML on the page after the redirect.
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
  const icon = shown?.kind === "error" ? "circle-alert" : "circle-check";
  return (
    <div role="status" aria-live="polite">
      {shown ? (
        <p
          className={cn(
            "mb-6 flex items-start gap-2 rounded-md border px-4 py-3 text-sm",
            shown.kind === "error" ? "border-destructive/40 bg-destructive/5 text-destructive" : "border-emerald-300 bg-emerald-50 text-emerald-900",
          )}
        >
          <Icon name={icon} className="mt-0.5 size-4 shrink-0" />
          <span>{shown.text}</span>
        </p>
      ) : null}
    </div>
  );
}
