import { Check } from "lucide-react";
import { Link } from "react-router";
import { useCompanyHref } from "~/lib/company-href";
import { cn } from "~/lib/utils";

export type DictionaryStep = "application" | "upload" | "review";

const STEPS: { step: DictionaryStep; label: string }[] = [
  { step: "application", label: "Application" },
  { step: "upload", label: "Upload data" },
  { step: "review", label: "Review and apply" },
];

/**
 * The steps of creating a master data dictionary. Earlier steps with a link (`links`, paths) can be
 * reopened; the current one carries aria-current="step".
 */
export function DictionarySteps({ current, links = {} }: { current: DictionaryStep; links?: Partial<Record<DictionaryStep, string>> }) {
  const href = useCompanyHref();
  const index = STEPS.findIndex((s) => s.step === current);
  return (
    <nav aria-label="Data dictionary setup steps" className="mt-4">
      <ol className="flex flex-wrap items-center gap-2 text-sm">
        {STEPS.map(({ step, label }, i) => {
          const done = i < index;
          const isCurrent = step === current;
          const to = isCurrent ? undefined : links[step];
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
