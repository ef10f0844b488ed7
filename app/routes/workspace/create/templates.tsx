import { Link } from "react-router";
import { WizardSteps } from "~/components/projects/wizard-steps";
import { Card } from "~/components/ui/card";
import { useCompanyHref } from "~/lib/company-href";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { requireWorkspace } from "../workspace.server";
import type { Route } from "./+types/templates";

/**
 * The templates step (spec §2 create/{configurationId}/templates). Assigning master templates comes
 * with the templates issue; until then the configuration waits here in SetupAssignTemplatesIncomplete,
 * and the page says so rather than offering a choice that does nothing.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { project } = await requireWorkspace(context, { step: "templates" });
  return { project: { id: project.id, status: project.status } };
}

export const handle = { breadcrumb: "Templates" };

export default function TemplatesStep({ loaderData }: Route.ComponentProps) {
  const { project } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  return (
    <>
      <WizardSteps current="templates" project={project} />
      <Card className="mt-6 max-w-2xl">
        <h2 className="text-lg font-semibold">Assign templates</h2>
        <p className="mt-2 text-sm">
          The {paths.ws.noun}'s databases are created. Assigning master templates, the last setup step, arrives with the templates release of the
          portal; the {paths.ws.noun} stays in "Setup: assign templates" until then.
        </p>
        <p className="mt-3 text-sm">
          <Link to={href(paths.page(project.id))} className="font-medium text-brand underline underline-offset-2">
            Open the {paths.ws.noun}
          </Link>
        </p>
      </Card>
    </>
  );
}
