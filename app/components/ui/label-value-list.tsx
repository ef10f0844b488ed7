import type * as React from "react";
import { cn } from "~/lib/utils";

/** Labels and their values as a two-column definition list (a summary of settings, say). */
export function LabelValueList({ rows, label, className }: { rows: readonly (readonly [string, React.ReactNode])[]; label?: string; className?: string }) {
  return (
    <dl aria-label={label} className={cn("label-values gap-x-6 gap-y-1 text-sm", className)}>
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-muted-foreground">{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
