import { ConfirmCard } from "~/components/forms/confirm-card";
import type { FormResult } from "~/lib/forms";

/** ?delete={tableId}: the confirmation of that table's deletion, a link away (useConfirmParam), so it works without JavaScript. */
export const DELETE_TABLE_PARAM = "delete";

export type DeleteTableConfirmationProps = {
  table: { id: string; name: string; columnCount: number };
  /** The dictionary's version the deletion is based on (a stale one is refused, and said here). */
  version: number;
  /** Where "Cancel" goes: useConfirmParam(DELETE_TABLE_PARAM).cancelHref. */
  cancelHref: string;
  lastResult?: FormResult | null;
};

/** "Delete table X?": posts `deleteTableSchema` (intent delete-table) to the page's action, which redirects. */
export function DeleteTableConfirmation({ table, version, cancelHref, lastResult }: DeleteTableConfirmationProps) {
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
