import { Check } from "lucide-react";
import { Link } from "react-router";
import type { ProjectStatus } from "../../../contracts/projects";
import { useCompanyHref } from "~/lib/company-href";
import { cn } from "~/lib/utils";
import { projectPath, stepOpen, wizardPath, type WizardStep } from "./next-step";

const STEPS: { step: WizardStep; label: string }[] = [
  { step: "details", label: "Details" },
  { step: "data-dictionary", label: "Data dictionary" },
  { step: "databases", label: "Databases" },
  { step: "templates", label: "Templates" },
];

/**
 * The wizard's step indicator (DOMAIN.md "Migration project life cycle"). Steps the project may open
 * are links; the current one carries aria-current="step"; Templates is shown as a later step.
 */
export function WizardSteps({ current, project }: { current: WizardStep; project?: { id: string; status: ProjectStatus } }) {
  const href = useCompanyHref();
  const index = STEPS.findIndex((s) => s.step === current);

  return (
    <nav aria-label="Project setup steps" className="mt-4">
      <ol className="flex flex-wrap items-center gap-2 text-sm">
        {STEPS.map(({ step, label }, i) => {
          const done = i < index;
          const isCurrent = step === current;
          const to = !project || isCurrent
            ? null
            : step === "details"
              ? projectPath(project.id)
              : step === "templates" || !stepOpen(project.status, step)
                ? null
                : wizardPath(project.id, step);
          const content = (
            <>
              <span
                aria-hidden="true"
                className={cn(
                  "flex size-6 items-center justify-center rounded-full border text-xs",
                  isCurrent ? "border-brand bg-brand text-brand-foreground" : done ? "border-brand text-brand" : "border-border text-muted-foreground",
                )}
              >
                {done ? <Check className="size-3.5" /> : i + 1}
              </span>
              <span>{label}</span>
              {step === "templates" ? <span className="text-xs text-muted-foreground">(a later step)</span> : null}
            </>
          );
          return (
            <li key={step} className="flex items-center gap-2">
              {i > 0 ? <span aria-hidden="true" className="h-px w-6 bg-border" /> : null}
              {isCurrent ? (
                <span aria-current="step" className="flex items-center gap-2 font-medium">
                  {content}
                </span>
              ) : to ? (
                <Link to={href(to)} className="flex items-center gap-2 text-brand hover:underline">
                  {content}
                </Link>
              ) : (
                <span className="flex items-center gap-2 text-muted-foreground">{content}</span>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
