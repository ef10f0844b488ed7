import type { UIMatch } from "react-router";
import { createMasterTableSchema, updateMasterTableSchema } from "../../../../contracts/dictionary";
import { dictionaryMessages } from "~/components/dictionary/messages";
import { parseTableEditor, refusedOtherTable } from "~/components/dictionary/schemas.server";
import { TableEditor, tableEditorDefaults } from "~/components/dictionary/table-editor";
import { Card } from "~/components/ui/card";
import { companyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { invalid, readFormData, refusedByService } from "~/lib/forms.server";
import { createTable, updateTable } from "~/lib/api/dictionaries.server";
import { callerOf } from "~/lib/guards.server";
import { dictionaryOf, dictionaryPathsOfRequest, requireMasterDataWrite, tableOf } from "./dictionary.server";
import { useDictionaryPaths } from "./paths";
import type { Route } from "./+types/table";

/**
 * One table of the dictionary in the TableEditor: edit/{id}/data-definition/tables/new adds one,
 * …/tables/{tableId} changes one. Both are based on the dictionary's version (a stale save is refused).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const tableId = "tableId" in params ? params.tableId : undefined;
  // The table read on its own (the dictionary may hold thousands), beside the dictionary's summary,
  // and used only once that passed its guards.
  const reading = tableId ? tableOf(callerOf(context), params.dataDictionaryId, tableId) : null;
  reading?.catch(() => undefined);
  const dictionary = await dictionaryOf(context);
  const table = await reading;
  return { id: dictionary.id, table, defaultValue: tableEditorDefaults(table, dictionary.version) };
}

// After a refusal (409: the dictionary changed meanwhile), the version the form sends is read again: the next try is applied.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export async function action({ params, request, context }: Route.ActionArgs) {
  const dictionary = await dictionaryOf(context);
  // The table the URL names (none: a new one), never one the form names instead.
  const tableId = "tableId" in params ? params.tableId : undefined;
  const isNew = !tableId;
  const paths = dictionaryPathsOfRequest(request);
  const { shell, companyId } = await requireMasterDataWrite(context, paths.definition("view", dictionary.id));
  const submission = parseTableEditor(await readFormData(request), isNew ? createMasterTableSchema : updateMasterTableSchema);
  const otherTable = tableId ? refusedOtherTable(submission, tableId) : null;
  if (otherTable) return otherTable;
  // A list intent (add, remove, move a column) sent without JavaScript: the form comes back changed (invalid).
  if (submission.status !== "success") return invalid(submission);
  try {
    if (!tableId) await createTable(shell, dictionary.id, submission.value);
    else await updateTable(shell, dictionary.id, { ...submission.value, tableId });
  } catch (err) {
    // A table name the dictionary already has, a stale version (409): next to the field or at the top.
    return refusedByService(submission, err);
  }
  return redirectWithFlash(companyHref(paths.definition("edit", dictionary.id), companyId), dictionaryMessages.tableSaved(submission.value.name, isNew));
}

type LoaderData = Awaited<ReturnType<typeof loader>>;

export const handle = {
  breadcrumb: (match: UIMatch) => {
    const loaderData = match.loaderData as LoaderData | undefined;
    return loaderData ? (loaderData.table?.name ?? "New table") : null;
  },
};

export default function DictionaryTable({ loaderData, actionData }: Route.ComponentProps) {
  const { id, table, defaultValue } = loaderData;
  const paths = useDictionaryPaths();
  return (
    <Card>
      <h2 className="mb-4 text-lg font-semibold">{table ? `Table ${table.name}` : "New table"}</h2>
      <TableEditor
        // A different table (or a new one) is a different form: never carry one's state into the other.
        key={table?.id ?? "new"}
        defaultValue={defaultValue}
        lastResult={actionData?.result}
        submitLabel={table ? "Save table" : "Add table"}
        cancelHref={paths.definition("edit", id)}
      />
    </Card>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
