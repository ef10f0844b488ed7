import { RUN_STATUS_LABELS, type RunStatus } from "../../../contracts/values/runs";
import { cn } from "~/lib/utils";

const TONE: Record<RunStatus, string> = {
  None: "tone-slate",
  IN_PROGRESS: "tone-sky",
  SUCCESS: "tone-emerald",
  CompletedWithWarning: "tone-amber",
  CompletedWithFailures: "tone-amber",
  ERROR: "tone-red",
};

/** A run's result in words, toned. */
export function RunStatusBadge({ status, className }: { status: RunStatus; className?: string }) {
  return <span className={cn("badge", TONE[status], className)}>{RUN_STATUS_LABELS[status]}</span>;
}
