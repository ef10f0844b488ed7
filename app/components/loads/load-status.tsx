import type { Load } from "../../../contracts/loads";

// The tones' colours are classes in app.css (.tone-*), as the project status badge's.
const TONES: Record<Load["status"], string> = { Loading: "tone-amber", Loaded: "tone-emerald", Refused: "tone-red", Failed: "tone-red" };

/** A load's status as a badge (history list and entry). */
export function LoadStatusBadge({ status }: { status: Load["status"] }) {
  return <span className={`badge ${TONES[status]}`}>{status}</span>;
}

/** "1,234": counts of rows, as the history shows them. */
export const rows = (n: number) => n.toLocaleString("en-US");
