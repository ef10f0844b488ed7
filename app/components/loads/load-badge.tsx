import type { Load } from "../../../contracts/loads";

// The tones' colours are classes in app.css (.tone-*), as the project status badge's.
const TONES: Record<Load["status"], string> = {
  Loading: "tone-amber",
  Loaded: "tone-emerald",
  Refused: "tone-red",
  Completed: "tone-emerald",
  Failed: "tone-red",
};

/**
 * A history entry's status as a badge, in the words given (statusLabel's, read by LoadStatusBadge or by a
 * page's loader: a page that has its words from its loader carries no table of them).
 */
export function LoadBadge({ status, label }: { status: Load["status"]; label: string }) {
  return <span className={`badge ${TONES[status]}`}>{label}</span>;
}
