import type { LockReason } from "../../../contracts/projects";

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
