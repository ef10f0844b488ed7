import { ConfirmCard } from "~/components/forms/confirm-card";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { refusalMessages } from "~/lib/forms";
import type { DeleteTableConfirmationProps } from "./delete-table-confirmation";

/**
 * "Delete table X?": posts `deleteTableSchema` (intent delete-table) to the page's action, which redirects.
 * A refused deletion of a table that is gone meanwhile (deleted from another tab: 404) has no confirmation
 * left to say it in: it is said here, as an alert, instead.
 */
export function DeleteTableCard({ table, version, cancelHref, lastResult }: DeleteTableConfirmationProps) {
  if (!table) {
    const refused = lastResult?.initialValue?.intent === "delete-table" ? refusalMessages(lastResult) : [];
    return refused.length ? <RefusalAlert refusal={lastResult}>{refused.join(" ")}</RefusalAlert> : null;
  }
  return (
    <ConfirmCard
      id={`delete-table-${table.id}`}
      title={`Delete table ${table.name}?`}
      intent="delete-table"
      fields={{ tableId: table.id, version }}
      submitLabel="Delete table"
      cancelHref={cancelHref}
      lastResult={lastResult}
    >
      The table and its {table.columnCount} {table.columnCount === 1 ? "column" : "columns"} are removed from the dictionary.
    </ConfirmCard>
  );
}
