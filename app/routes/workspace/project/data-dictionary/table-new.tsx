import { TableEditor, tableEditorDefaults } from "~/components/dictionary/table-editor";
import { Card } from "~/components/ui/card";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { companyHref } from "~/lib/company-href";
import { readFormData } from "~/lib/forms.server";
import { checkWorkspace, projectScope } from "../../workspace.server";
import { createTableFrom, projectDictionary } from "./dictionary.server";
import type { Route } from "./+types/table-new";

/** Adding a table to the project's dictionary: an edit page (write access, project not locked). */
async function guard(context: Route.LoaderArgs["context"]) {
  const scope = await projectScope(context);
  return checkWorkspace(scope, { write: scope.paths.dictionary.tables(scope.project.id), unlocked: true });
}

export async function loader({ context }: Route.LoaderArgs) {
  const [{ project }, dictionary] = await Promise.all([guard(context), projectDictionary(context)]);
  return { projectId: project.id, defaultValue: tableEditorDefaults(null, dictionary.version) };
}

// After a refusal (409: the dictionary changed meanwhile), the version the form sends is read again: the next try is applied.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export async function action({ request, context }: Route.ActionArgs) {
  const { project, companyId, api, paths } = await guard(context);
  return createTableFrom(await readFormData(request), api.dictionary, companyHref(paths.dictionary.tables(project.id), companyId));
}

export const handle = { breadcrumb: "New table" };

export default function NewProjectTable({ loaderData, actionData }: Route.ComponentProps) {
  const { projectId, defaultValue } = loaderData;
  const paths = useWorkspacePaths();
  return (
    <Card>
      <h2 className="mb-4 text-lg font-semibold">New table</h2>
      <TableEditor
        defaultValue={defaultValue}
        lastResult={actionData?.result}
        submitLabel="Add table"
        cancelHref={paths.dictionary.tables(projectId)}
      />
    </Card>
  );
}
