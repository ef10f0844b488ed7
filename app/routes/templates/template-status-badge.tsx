import type { TemplateStatus } from "../../../contracts/values/templates";
import { cn } from "~/lib/utils";

const TONE: Record<TemplateStatus, string> = { Draft: "tone-violet", Available: "tone-emerald", Archived: "tone-slate" };

/** A template's status, toned: Available may be assigned, Draft not yet, Archived no more. */
export function TemplateStatusBadge({ status, className }: { status: TemplateStatus; className?: string }) {
  return <span className={cn("badge", TONE[status], className)}>{status}</span>;
}
