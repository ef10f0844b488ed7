import type { Backup } from "../../../../contracts/backups";
import type { FlatFileParameters } from "../../../../contracts/projects";
import type { HistoryEntry } from "../../../../contracts/loads";
import { HISTORY_TYPE_LABELS, LOAD_MODE_LABELS, ON_REJECTED_LABELS, statusLabel } from "../../../../contracts/values/loads";
import { backupContents } from "~/components/backups/backups-table";
import { historyEntryName } from "~/components/loads/load-status";
import { flatFileParameterRows } from "~/components/projects/flat-file-parameter-rows";
import { formatCount, formatCountOf } from "~/components/projects/format";

/**
 * What a history entry's page says of it, in words read by its loader: the page's code then carries no table
 * of the history's types, modes and statuses, nor of the flat-file parameters (issue 8's initial JS bar).
 */
export function entryWords({
  entry,
  about,
  backup,
  parameters,
}: {
  entry: HistoryEntry;
  about: HistoryEntry | null;
  backup: Pick<Backup, "name" | "after"> | null;
  parameters: FlatFileParameters | null;
}) {
  return {
    /** Its breadcrumb: not its title, which can be a long backup file name. */
    name: historyEntryName(entry),
    title: titleOf(entry, about, backup),
    status: statusLabel(entry.type, entry.status),
    outcome: outcomeOf(entry),
    rows: summaryOf(entry, about, backup),
    parameters: parameters ? flatFileParameterRows(parameters) : null,
  };
}

/** The entry's title: what it did, to what (a comparison: what the backup it compared holds, as the comparison page says it). */
function titleOf(entry: HistoryEntry, about: HistoryEntry | null, backup: Pick<Backup, "after"> | null): string {
  switch (entry.type) {
    case "FlatFile":
      return `${entry.fileName} into ${entry.tableName}`;
    case "Backup":
      return `Backup ${entry.fileName}`;
    case "Undo":
      return about ? `Undo of the ${HISTORY_TYPE_LABELS[about.type].toLowerCase()} of ${about.fileName}` : `Undo: ${entry.fileName} restored`;
    case "Comparison":
      return backup
        ? `Comparison of the data ${backupContents(backup)} with the data then current`
        : `Comparison of ${entry.fileName} with the data then current`;
    default:
      return `${HISTORY_TYPE_LABELS[entry.type]} of ${entry.fileName}`;
  }
}

/** The entry's summary, as label and value pairs, before when it started and ended. */
function summaryOf(entry: HistoryEntry, about: HistoryEntry | null, backup: Pick<Backup, "name" | "after"> | null): [string, string][] {
  return [
    ["Type", HISTORY_TYPE_LABELS[entry.type]],
    ...(entry.type === "FlatFile"
      ? ([
          ["Mode", LOAD_MODE_LABELS[entry.mode]],
          ["When rows are rejected", ON_REJECTED_LABELS[entry.onRejected]],
        ] as [string, string][])
      : []),
    ...(about
      ? ([[entry.type === "Undo" ? "Undid" : "Data as left by", `${HISTORY_TYPE_LABELS[about.type]} of ${about.fileName}`]] as [string, string][])
      : []),
    ...(backup && entry.type !== "Backup" && entry.type !== "Comparison" ? ([["Backup taken before", backup.name]] as [string, string][]) : []),
    ...(backup && entry.type === "Comparison" ? ([["Earlier data", `${backup.name}: the data ${backupContents(backup)}`]] as [string, string][]) : []),
  ];
}

/** What the entry's outcome says, in a sentence. */
function outcomeOf(entry: HistoryEntry): string | null {
  if (entry.status === "Loading") return `${HISTORY_TYPE_LABELS[entry.type]} running: this page follows it until it ends.`;
  if (entry.status === "Failed" || entry.status === "Refused") return entry.message;
  if (entry.type === "FlatFile")
    // The message of a load that went through: the files of its upload it skipped.
    return `${formatCount(entry.rowsLoaded)} of ${formatCountOf(entry.rowsRead, "row")} loaded${entry.rowsRejected ? `; ${formatCount(entry.rowsRejected)} rejected` : ""}.${entry.message ? ` ${entry.message}` : ""}`;
  if (entry.type === "Backup") return `${formatCountOf(entry.rowsRead, "row")} of ${formatCountOf(entry.tables.length, "table")} backed up.`;
  if (entry.type === "Comparison") return entry.message ?? "Compared: the differences per table are below.";
  return `${formatCountOf(entry.rowsLoaded, "row")} restored into the source database.${entry.message ? ` ${entry.message}` : ""}`;
}
