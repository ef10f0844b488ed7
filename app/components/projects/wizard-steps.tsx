import type { ProjectStatus } from "../../../contracts/projects";
import type { WizardStepId } from "../../../contracts/workspaces";
import { capitalised } from "../../../contracts/values/common";
import { StepIndicator } from "~/components/ui/step-indicator";
import { useWorkspacePaths } from "~/lib/workspace-paths";

/**
 * The wizard's step indicator (DOMAIN.md "Migration project life cycle"; spec §2 for onboarding), with
 * the steps of the current page's workspace kind. Steps the workspace may open are links.
 */
export function WizardSteps({ current, project }: { current: WizardStepId; project?: { id: string; status: ProjectStatus } }) {
  const paths = useWorkspacePaths();
  const steps = paths.ws.steps.map(({ id, label }) => {
    const to =
      !project
        ? null
        : id === "details"
          ? paths.page(project.id)
          : paths.stepOpen(project.status, id)
            ? paths.wizard(project.id, id)
            : null;
    return { id, label, to };
  });
  return <StepIndicator label={`${capitalised(paths.ws.noun)} setup steps`} current={current} steps={steps} />;
}
