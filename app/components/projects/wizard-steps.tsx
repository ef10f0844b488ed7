import type { ProjectStatus } from "../../../contracts/projects";
import { StepIndicator } from "~/components/ui/step-indicator";
import { projectPath, stepOpen, wizardPath, type WizardStep } from "./next-step";

const STEPS: { id: WizardStep; label: string }[] = [
  { id: "details", label: "Details" },
  { id: "data-dictionary", label: "Data dictionary" },
  { id: "databases", label: "Databases" },
  { id: "templates", label: "Templates" },
];

/**
 * The wizard's step indicator (DOMAIN.md "Migration project life cycle"). Steps the project may open
 * are links; Templates is shown as a later step.
 */
export function WizardSteps({ current, project }: { current: WizardStep; project?: { id: string; status: ProjectStatus } }) {
  const steps = STEPS.map(({ id, label }) => {
    const to =
      !project || id === "templates"
        ? null
        : id === "details"
          ? projectPath(project.id)
          : stepOpen(project.status, id)
            ? wizardPath(project.id, id)
            : null;
    return { id, label, to, note: id === "templates" ? "(a later step)" : undefined };
  });
  return <StepIndicator label="Project setup steps" current={current} steps={steps} />;
}
