import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { createTableSchema } from "../../../../../contracts/dictionary";
import { TableEditor, tableEditorDefaults } from "~/components/dictionary/table-editor";
import { Card } from "~/components/ui/card";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { redirectWithFlash } from "~/lib/flash.server";
import { dictionaryMessages } from "~/components/dictionary/messages";
import { companyHref } from "~/lib/company-href";
import { invalid, readFormData, refusedByService } from "~/lib/forms.server";
import { projectScope, requireWorkspace } from "../../workspace.server";
import { projectDictionary } from "./dictionary.server";
import type { Route } from "./+types/table-new";

/** Adding a table to the project's dictionary: an edit page (write access, project not locked). */
function guard(context: Route.LoaderArgs["context"]) {
  const { paths, project } = projectScope(context);
  return requireWorkspace(context, { write: paths.dictionary.tables(project.id), unlocked: true });
}

export async function loader({ context }: Route.LoaderArgs) {
  const { project } = guard(context);
  return { projectId: project.id, defaultValue: tableEditorDefaults(null, projectDictionary(context).version) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { project, companyId, api, paths } = guard(context);
  const submission = parseWithZod(await readFormData(request), { schema: createTableSchema });
  // A list intent (add, remove, move a column) sent without JavaScript: the form comes back changed.
  if (submission.status === undefined) return data({ result: submission.reply() });
  if (submission.status !== "success") return invalid(submission);
  try {
    await api.dictionary.createTable(submission.value);
  } catch (err) {
    // A name the dictionary already has, a stale version (409): next to the field or at the top.
    return refusedByService(submission, err);
  }
  return redirectWithFlash(companyHref(paths.dictionary.tables(project.id), companyId), dictionaryMessages.tableSaved(submission.value.name, true));
}

export const handle = { breadcrumb: "New table" };

export default function NewProjectTable({ loaderData, actionData }: Route.ComponentProps) {
  const { projectId, defaultValue } = loaderData;
  const paths = useWorkspacePaths();
  return (
    <Card>
      <h2 className="mb-4 text-lg font-semibold">New table</h2>
      <TableEditor
        schema={createTableSchema}
        defaultValue={defaultValue}
        lastResult={actionData?.result}
        submitLabel="Add table"
        cancelHref={paths.dictionary.tables(projectId)}
      />
    </Card>
  );
}
