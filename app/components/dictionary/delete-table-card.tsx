import { ConfirmCard } from "~/components/forms/confirm-card-body";
import { RefusalAlert } from "~/components/forms/refusal-alert";
import { refusalMessages } from "~/lib/forms";
import { DataLossCard } from "./data-loss-card";
import { dataLossOf } from "./data-loss";
import type { DeleteTableConfirmationProps } from "./delete-table-confirmation";

/**
 * "Delete table X?": posts `deleteTableSchema` (intent delete-table) to the page's action, which redirects.
 * A refused deletion of a table that is gone meanwhile (deleted from another tab: 404) has no confirmation
 * left to say it in: it is said here, as an alert, instead.
 *
 * The card's body is imported as it is, not as the ConfirmCard widget: this module is a widget itself
 * (loaded on demand), and a widget inside another one broke the hydration of a page opened at ?delete=
 * (a reload, a link opened in a new tab): the server renders each widget in a Suspense boundary, and the
 * inner one, mounted once the outer chunk arrives, after the page's hydration, rendered none (lazyWidget).
 */
export function DeleteTableCard({ table, version, cancelHref, lastResult, valueMaps = false, actionData, backUpHref = "" }: DeleteTableConfirmationProps) {
  const dataLoss = dataLossOf(actionData);
  if (!table) {
    // No deletion asked: the wizard's Assign, refused as its copy replaces tables whose value maps hold values, to confirm.
    if (dataLoss) return <DataLossCard dataLoss={dataLoss} backUpHref={backUpHref} />;
    const refused = lastResult?.initialValue?.intent === "delete-table" ? refusalMessages(lastResult) : [];
    return refused.length ? <RefusalAlert refusal={lastResult}>{refused.join(" ")}</RefusalAlert> : null;
  }
  const question = (
    <ConfirmCard
      id={`delete-table-${table.id}`}
      title={`Delete table ${table.name}?`}
      intent="delete-table"
      fields={{ tableId: table.id, version }}
      submitLabel="Delete table"
      cancelHref={cancelHref}
      lastResult={lastResult}
    >
      {valueMaps
        ? `The table, its ${table.columnCount} ${table.columnCount === 1 ? "column" : "columns"} and their value maps are removed from the file data structure.`
        : `The table and its ${table.columnCount} ${table.columnCount === 1 ? "column" : "columns"} are removed from the dictionary.`}
    </ConfirmCard>
  );
  return dataLoss ? (
    <div className="flex flex-col gap-4">
      <DataLossCard dataLoss={dataLoss} backUpHref={backUpHref} />
      {question}
    </div>
  ) : (
    question
  );
}
