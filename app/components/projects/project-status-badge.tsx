import { PROJECT_STATUS_LABELS, type ProjectStatus } from "../../../contracts/values/projects";
import { cn } from "~/lib/utils";

const TONE: Partial<Record<ProjectStatus, string>> = {
  Active: "bg-emerald-50 text-emerald-800 ring-emerald-600/20",
  Completed: "bg-sky-50 text-sky-800 ring-sky-600/20",
  Inactive: "bg-slate-100 text-slate-700 ring-slate-500/20",
  DatabaseCreation: "bg-amber-50 text-amber-800 ring-amber-600/20",
  DatabaseCreationFailed: "bg-red-50 text-red-800 ring-red-600/20",
};

/** A project's status in readable words (never the enum name), toned by how settled it is. */
export function ProjectStatusBadge({ status, className }: { status: ProjectStatus; className?: string }) {
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-md px-2 py-0.5 text-xs font-medium ring-1 ring-inset",
        TONE[status] ?? "bg-violet-50 text-violet-800 ring-violet-600/20",
        className,
      )}
    >
      {PROJECT_STATUS_LABELS[status]}
    </span>
  );
}
