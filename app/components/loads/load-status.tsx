import type { Load } from "../../../contracts/loads";
import { HISTORY_TYPE_LABELS, statusLabel } from "../../../contracts/values/loads";
import { formatTimestamp } from "~/components/projects/format";
import { LoadBadge } from "./load-badge";

/** An entry's status as a badge (the history's list and entry), as it reads for its type: a running backup is "Running". */
export function LoadStatusBadge({ status, type = "FlatFile" }: { status: Load["status"]; type?: Load["type"] }) {
  return <LoadBadge status={status} label={statusLabel(type, status)} />;
}

/** An entry named as the history lists it, by what it was and when it started: its link's name and its page's breadcrumb. */
export function historyEntryName(entry: Pick<Load, "type" | "createdAt">): string {
  return `${HISTORY_TYPE_LABELS[entry.type]} ${formatTimestamp(entry.createdAt)}`;
}
