import type { FormResult } from "~/lib/forms";
import { lazyWidget } from "~/lib/lazy-widget";

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
  /** A mapping project's table: its columns' value maps go with it, from its file data structure, and the card says so. */
  valueMaps?: boolean;
  /**
   * The page's action data, where a deletion refused as it deletes value maps holding values lists them (refusedWrite's
   * `dataLoss`), shown above the question to be confirmed; with `backUpHref`, as DataLossConfirmation takes them. The
   * wizard's step passes them here rather than render DataLossConfirmation: it is the heaviest page, and this card is
   * loaded only once a deletion is asked for. With no `table`, the card is that list alone: the step's Assign refused
   * as its copy replaces tables whose value maps hold values.
   */
  actionData?: object | null;
  backUpHref?: string;
};

/**
 * The confirmation of a table's deletion, or the refusal of one (delete-table-card.tsx): shown only after
 * a user chose "Delete" (or a deletion was refused), so loaded then, not with the dictionary's pages
 * (decision 029).
 */
export const DeleteTableConfirmation = lazyWidget(() => import("./delete-table-card").then((m) => m.DeleteTableCard));
