import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { createTableSchema } from "../../../../../../contracts/dictionary";
import { TableEditor, tableEditorDefaults } from "~/components/dictionary/table-editor";
import { projectDictionaryPaths } from "~/components/projects/next-step";
import { Card } from "~/components/ui/card";
import { companyHref } from "~/lib/company-href";
import { invalid, readFormData, refusedByService } from "~/lib/forms.server";
import { projectScope, requireProjectUnlocked, requireProjectWrite } from "../../project.server";
import { createProjectTable, projectDictionary } from "./dictionary.server";
import type { Route } from "./+types/table-new";

/** Adding a table to the project's dictionary: an edit page (write access, project not locked). */
function guard(context: Route.LoaderArgs["context"]) {
  const scope = projectScope(context);
  requireProjectWrite(context, projectDictionaryPaths.tables(scope.project.id));
  requireProjectUnlocked(context);
  return scope;
}

export async function loader({ context }: Route.LoaderArgs) {
  const { project } = guard(context);
  return { projectId: project.id, defaultValue: tableEditorDefaults(null, projectDictionary(context).version) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { project, companyId, as } = guard(context);
  const submission = parseWithZod(await readFormData(request), { schema: createTableSchema });
  // A list intent (add, remove, move a column) sent without JavaScript: the form comes back changed.
  if (submission.status === undefined) return data({ result: submission.reply() });
  if (submission.status !== "success") return invalid(submission);
  try {
    await createProjectTable(as, project.id, submission.value);
  } catch (err) {
    // A name the dictionary already has, a stale version (409): next to the field or at the top.
    return refusedByService(submission, err);
  }
  throw redirect(companyHref(projectDictionaryPaths.tables(project.id), companyId));
}

export const handle = { breadcrumb: "New table" };

export default function NewProjectTable({ loaderData, actionData }: Route.ComponentProps) {
  const { projectId, defaultValue } = loaderData;
  return (
    <Card>
      <h2 className="mb-4 text-lg font-semibold">New table</h2>
      <TableEditor
        schema={createTableSchema}
        defaultValue={defaultValue}
        lastResult={actionData?.result}
        submitLabel="Add table"
        cancelHref={projectDictionaryPaths.tables(projectId)}
      />
    </Card>
  );
}
