import { Link } from "react-router";
import { AssignTemplatesForm } from "~/components/templates/assign-templates-form";
import { buttonVariants } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { companyHref, useCompanyHref } from "~/lib/company-href";
import { redirectWithFlash } from "~/lib/flash.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { useTemplatePaths } from "./paths";
import { assignableTemplates, assignFromForm, readAssignableSearch, requireTemplateWrite, workspaceOwnerOf } from "./templates.server";
import type { Route } from "./+types/assign";

/** …/templates/assigned/add: choose Available master templates to copy into the workspace. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const owner = workspaceOwnerOf(request);
  await requireTemplateWrite(context, (p) => p.list);
  return assignableTemplates(context, owner, readAssignableSearch(new URL(request.url)));
}

export async function action({ request, context }: Route.ActionArgs) {
  const owner = workspaceOwnerOf(request);
  const { paths, companyId } = await requireTemplateWrite(context, (p) => p.list);
  const refused = await assignFromForm(context, request, owner);
  if (refused) return refused;
  return redirectWithFlash(companyHref(paths.list, companyId), "Templates assigned.");
}

export const handle = { breadcrumb: "Assign templates" };

export default function AssignTemplates({ loaderData, actionData }: Route.ComponentProps) {
  const href = useCompanyHref();
  const paths = useTemplatePaths();
  const noun = useWorkspacePaths().ws.noun;
  return (
    <Card className="max-w-3xl">
      <h2 className="text-lg font-semibold">Assign templates</h2>
      <p className="mb-4 mt-1 text-sm text-muted-foreground">Each template is copied into this {noun}: editing the copy never changes the master.</p>
      <AssignTemplatesForm
        search={loaderData.search}
        result={loaderData.templates}
        errors={actionData?.errors ?? []}
        ticked={actionData?.selected}
        noun={noun}
      />
      <p className="mt-4 text-sm">
        <Link to={href(paths.list)} className={buttonVariants({ variant: "outline" })}>
          Back to the templates
        </Link>
      </p>
    </Card>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
