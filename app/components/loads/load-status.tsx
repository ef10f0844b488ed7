import type { Load } from "../../../contracts/loads";

// The tones' colours are classes in app.css (.tone-*), as the project status badge's.
const TONES: Record<Load["status"], string> = { Loading: "tone-amber", Loaded: "tone-emerald", Refused: "tone-red", Failed: "tone-red" };

/** A load's status as a badge (the history's list and entry). */
export function LoadStatusBadge({ status }: { status: Load["status"] }) {
  return <span className={`badge ${TONES[status]}`}>{status}</span>;
}
