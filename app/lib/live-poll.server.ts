import type { Polled } from "~/lib/live-poll";

/**
 * A job poll's answer (useLivePoll): what it read, stamped with the server's clock, which the page
 * compares with its loaders' own stamp to show the newer, and never cached (each tick must be read).
 */
export function pollAnswer<T extends Polled>(read: Omit<T, "readAt">): Response {
  return Response.json({ ...read, readAt: Date.now() }, { headers: { "Cache-Control": "no-store" } });
}
