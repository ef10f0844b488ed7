import type { ProjectStatus } from "../../../contracts/values/projects";
import { cn } from "~/lib/utils";

// The tones' colours are classes in app.css (.tone-*): a list repeats the badge on every row.
const TONE: Partial<Record<ProjectStatus, string>> = {
  Active: "tone-emerald",
  Completed: "tone-sky",
  Inactive: "tone-slate",
  DatabaseCreation: "tone-amber",
  DatabaseCreationFailed: "tone-red",
};

/**
 * A project's status in readable words (never the enum name: `label`, PROJECT_STATUS_LABELS's, which a
 * layout's loader reads so that its pages' code does not carry the table), toned by how settled it is.
 */
export function ProjectStatusBadge({ status, label, className }: { status: ProjectStatus; label: string; className?: string }) {
  return (
    <span
      className={cn(
        "badge",
        TONE[status] ?? "tone-violet",
        className,
      )}
    >
      {label}
    </span>
  );
}
