import { Icon } from "~/components/ui/icon";
import { Link } from "react-router";
import { useCompanyHref } from "~/lib/company-href";
import { cn } from "~/lib/utils";

export type Step = {
  id: string;
  label: string;
  /** A path the user may (re)open this step at; none for the current step or one not open yet. */
  to?: string | null;
  /** A short remark after the label, e.g. "(a later step)". */
  note?: string;
};

/**
 * The steps of a guided flow; earlier steps are ticked, the current one carries aria-current="step".
 * The tick is a picture: the words "(completed)" say it to a screen reader (and to a text browser).
 */
export function StepIndicator({ label, steps, current }: { label: string; steps: Step[]; current: string }) {
  const href = useCompanyHref();
  const index = steps.findIndex((s) => s.id === current);
  return (
    <nav aria-label={label} className="mt-4">
      <ol className="flex flex-wrap items-center gap-2 text-sm">
        {steps.map((step, i) => {
          const done = i < index;
          const isCurrent = step.id === current;
          const content = (
            <>
              <span
                aria-hidden="true"
                className={cn(
                  "flex size-6 items-center justify-center rounded-full border text-xs",
                  isCurrent ? "border-brand bg-brand text-brand-foreground" : done ? "border-brand text-brand" : "border-border text-muted-foreground",
                )}
              >
                {done ? <Icon name="check" className="size-3.5" /> : i + 1}
              </span>{" "}
              <span>{step.label}</span>
              {done ? <span className="sr-only"> (completed)</span> : null}
              {step.note ? (
                <>
                  {" "}
                  <span className="text-xs text-muted-foreground">{step.note}</span>
                </>
              ) : null}
            </>
          );
          return (
            <li key={step.id} className="flex items-center gap-2">
              {/* The spaces keep the steps' text apart where CSS does not apply (flex items ignore them). */}
              {i > 0 ? (
                <>
                  <span aria-hidden="true" className="h-px w-6 bg-border" />{" "}
                </>
              ) : null}
              {isCurrent ? (
                <span aria-current="step" className="flex items-center gap-2 font-medium">
                  {content}
                </span>
              ) : step.to ? (
                <Link to={href(step.to)} className="flex items-center gap-2 text-brand hover:underline">
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
