import type { FlatFileParameters, LockReason } from "../../../contracts/projects";
import { DATE_ORDER_LABELS, DELIMITER_LABELS, ENCODING_LABELS, TEXT_QUALIFIER_LABELS } from "../../../contracts/values/projects";

export const LOCK_REASON_LABELS: Record<LockReason, string> = {
  Restore: "Restore",
  Backup: "Backup",
  DataComparison: "Data comparison",
  ProjectRun: "Project run",
  FlatFileCreation: "Flat file creation",
  DatabaseCreation: "Database creation",
};

/**
 * A timestamp the same on the server and in the browser (no locale or time-zone dependence, so the
 * hydrated page matches the server's HTML): "2025-03-04 14:05 UTC".
 */
export function formatTimestamp(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** How a workspace's flat files are read, as label and value pairs (the wizard's summary, the load page). */
export function flatFileParameterRows(p: FlatFileParameters): [string, string][] {
  const rows: [string, string][] = [
    ["File extension", p.extension],
    ["Delimiter", DELIMITER_LABELS[p.delimiter]],
    ["Header row", p.hasHeaderRow ? "Yes" : "No"],
  ];
  if (p.extension === ".xlsx") rows.push(["Worksheet", p.worksheet || "The first"]);
  else rows.push(["Text qualifier", TEXT_QUALIFIER_LABELS[p.textQualifier]], ["Encoding", ENCODING_LABELS[p.encoding]]);
  rows.push(["Date order", DATE_ORDER_LABELS[p.dateOrder]]);
  if (p.delimiter === "FixedLength") {
    const saved = Object.entries(p.columnWidths);
    rows.push(["Column widths", saved.length ? saved.map(([table, widths]) => `${table}: ${widths.join(", ")}`).join("; ") : "From the data dictionary"]);
  }
  return rows;
}

/** "1,234": counts of rows, the same on the server and in the browser. */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** "56.2 MB": a file's size or the part of it read, in the unit that keeps it readable. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** "2 h 5 min", "3 min 20 s", "45 s": how long something took or will take. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ""}`;
  const minutes = Math.floor((s % 3600) / 60);
  return `${Math.floor(s / 3600)} h${minutes ? ` ${minutes} min` : ""}`;
}
