import { Link } from "react-router";
import { WizardSteps } from "~/components/projects/wizard-steps";
import { AssignTemplatesForm } from "~/components/templates/assign-templates-form";
import { Card } from "~/components/ui/card";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { WORKSPACES } from "../../../../contracts/workspaces";
import type { TemplateArea } from "../../../../contracts/values/templates";
import { assignableTemplates, assignFromForm, readAssignableSearch } from "../../templates/templates.server";
import { requireWorkspace } from "../workspace.server";
import type { Route } from "./+types/templates";

/**
 * The wizard's last step (spec §2 create/{id}/templates): assign at least one Available master
 * template; the first assignment makes the workspace Active (the data API moves it in the same
 * transaction), and its project pages take over.
 */
function ownerOf(kind: keyof typeof WORKSPACES, id: string) {
  const ws = WORKSPACES[kind];
  return { kind: "workspace" as const, area: ws.area as TemplateArea, base: `${ws.routeBase}/${id}/templates`, workspace: kind, workspaceId: id };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { project, ws } = await requireWorkspace(context, { step: "templates", write: true });
  const { search, templates } = await assignableTemplates(context, ownerOf(ws.kind, project.id), readAssignableSearch(new URL(request.url)));
  return { project: { id: project.id, status: project.status }, search, templates };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { project, ws, companyId, paths } = await requireWorkspace(context, { step: "templates", write: true, unlocked: true });
  const refused = await assignFromForm(context, request, ownerOf(ws.kind, project.id));
  if (refused) return refused;
  return redirectWithFlash(companyHref(paths.page(project.id, "templates/assigned"), companyId), `Templates assigned: the ${ws.noun} is Active.`);
}

export const handle = { breadcrumb: "Templates" };

export default function TemplatesStep({ loaderData, actionData }: Route.ComponentProps) {
  const { project, search, templates } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  return (
    <>
      <WizardSteps current="templates" project={project} />
      <Card className="mt-6 max-w-3xl">
        <h2 className="text-lg font-semibold">Assign templates</h2>
        <p className="mb-4 mt-1 text-sm text-muted-foreground">
          The last setup step: choose the master templates whose scripts transform this {paths.ws.noun}'s data. Each is copied into the {paths.ws.noun}, and the
          first one makes it Active.
        </p>
        <AssignTemplatesForm search={search} result={templates} errors={actionData?.errors ?? []} ticked={actionData?.selected} noun={paths.ws.noun} />
        <p className="mt-4 text-sm">
          No master template fits?{" "}
          <Link to={href(paths.page(project.id, "templates/create"))} className="font-medium text-brand underline underline-offset-2">
            Create a template for this {paths.ws.noun} only
          </Link>
          : it makes the {paths.ws.noun} Active too.
        </p>
        <p className="mt-2 text-sm">
          <Link to={href(paths.page(project.id))} className="font-medium text-brand underline underline-offset-2">
            Open the {paths.ws.noun}
          </Link>
        </p>
      </Card>
    </>
  );
}
