import { ConfirmCard } from "~/components/forms/confirm-card";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { refusalMessages, type FormResult } from "~/lib/forms";

/** ?delete={tableId}: the confirmation of that table's deletion, a link away (useConfirmParam), so it works without JavaScript. */
export const DELETE_TABLE_PARAM = "delete";

export type DeleteTableConfirmationProps = {
  /** The table of ?delete=, null when the page has none (or the table is gone). */
  table: { id: string; name: string; columnCount: number } | null;
  /** The dictionary's version the deletion is based on (a stale one is refused, and said here). */
  version: number;
  /** Where "Cancel" goes: useConfirmParam(DELETE_TABLE_PARAM).cancelHref. */
  cancelHref: string;
  lastResult?: FormResult | null;
};

/**
 * "Delete table X?": posts `deleteTableSchema` (intent delete-table) to the page's action, which redirects.
 * A refused deletion of a table that is gone meanwhile (deleted from another tab: 404) has no confirmation
 * left to say it in: it is said here, as an alert, instead.
 */
export function DeleteTableConfirmation({ table, version, cancelHref, lastResult }: DeleteTableConfirmationProps) {
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
