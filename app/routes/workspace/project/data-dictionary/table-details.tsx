import { Link, type UIMatch } from "react-router";
import { updateTableSchema } from "../../../../../contracts/dictionary";
import { ColumnsTable } from "~/components/dictionary/columns-table";
import { parseTableEditor, refusedOtherTable } from "~/components/dictionary/schemas.server";
import { TableEditor, tableEditorDefaults } from "~/components/dictionary/table-editor";
import { Card } from "~/components/ui/card";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { redirectWithFlash } from "~/lib/flash.server";
import { dictionaryMessages } from "~/components/dictionary/messages";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { invalid, readFormData } from "~/lib/forms.server";
import { afterGuard } from "~/lib/guards.server";
import { projectCalls, projectScope, requireWorkspace } from "../../workspace.server";
import { confirmationOf, projectDictionary, refusedWrite } from "./dictionary.server";
import { DataLossConfirmation } from "~/components/dictionary/data-loss-confirmation";
import type { Route } from "./+types/table-details";

/** ?from=setup: the table was opened from the wizard's data dictionary step, and saving goes back there. */
const FROM_SETUP = "setup";

/**
 * One table of the project's dictionary: its columns for every reader, the TableEditor for users who
 * may write while the project is not locked. Saving is a write: guarded again in the action.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  // Started beside the workspace's own load; used only once its guard passed.
  const [{ project, access }, [table, dictionary]] = await afterGuard(
    projectScope(context),
    Promise.all([projectCalls(context).dictionary.table(params.tableId), projectDictionary(context)]),
  );
  const canEdit = access.canWrite && !project.isLocked;
  return {
    projectId: project.id,
    table,
    canEdit,
    locked: project.isLocked,
    fromSetup: new URL(request.url).searchParams.get("from") === FROM_SETUP,
    defaultValue: canEdit ? tableEditorDefaults(table, dictionary.version) : null,
  };
}

// After a refusal (409: the dictionary changed meanwhile), the version the form sends is read again: the next try is applied.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export async function action({ request, params, context }: Route.ActionArgs) {
  const { project, companyId, api, paths } = await projectScope(context);
  const fromSetup = new URL(request.url).searchParams.get("from") === FROM_SETUP;
  await requireWorkspace(context, { write: paths.dictionary.table(project.id, params.tableId), unlocked: true });
  const formData = await readFormData(request);
  const submission = parseTableEditor(formData, updateTableSchema);
  const otherTable = refusedOtherTable(submission, params.tableId);
  if (otherTable) return otherTable;
  // A list intent (add, remove, move a column) sent without JavaScript: the form comes back changed (invalid).
  if (submission.status !== "success") return invalid(submission);
  try {
    await api.dictionary.updateTable(submission.value, confirmationOf(formData));
  } catch (err) {
    // Data the databases would lose: listed at the top with the confirmation (refusedWrite).
    return refusedWrite(submission, err, formData, "save");
  }
  return redirectWithFlash(
    companyHref(fromSetup ? paths.wizard(project.id, paths.ws.dictionaryStep) : paths.dictionary.tables(project.id), companyId),
    dictionaryMessages.tableSaved(submission.value.name, false),
  );
}

type LoaderData = Awaited<ReturnType<typeof loader>>;

export const handle = {
  breadcrumb: (match: UIMatch) => (match.loaderData as LoaderData | undefined)?.table.name ?? null,
};

export default function ProjectTableDetails({ loaderData, actionData }: Route.ComponentProps) {
  const { projectId, table, canEdit, locked, fromSetup, defaultValue } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  const back = fromSetup ? paths.wizard(projectId, paths.ws.dictionaryStep) : paths.dictionary.tables(projectId);
  if (canEdit && defaultValue) {
    return (
      <div className="flex flex-col gap-4">
        <DataLossConfirmation actionData={actionData} backUpHref={href(paths.databases.current(projectId))} />
        <Card>
          <h2 className="mb-4 text-lg font-semibold">Table {table.name}</h2>
          <TableEditor key={table.id} defaultValue={defaultValue} lastResult={actionData?.result} submitLabel="Save table" cancelHref={back} />
        </Card>
      </div>
    );
  }
  return (
    <Card>
      <h2 className="text-lg font-semibold">Table {table.name}</h2>
      {table.description ? <p className="mt-1 text-sm text-muted-foreground">{table.description}</p> : null}
      {locked ? (
        <p className="mt-2 text-sm">
          The project is locked while a{" "}
          <Link to={href(paths.page(projectId, "background-process"))} className="text-brand underline underline-offset-2">
            background process
          </Link>{" "}
          runs; the table can be changed again when it ends.
        </p>
      ) : null}
      <div className="mt-4">
        <ColumnsTable columns={table.columns} caption={`Columns of ${table.name}`} />
      </div>
    </Card>
  );
}
