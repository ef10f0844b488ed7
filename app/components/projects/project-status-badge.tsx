import { PROJECT_STATUS_LABELS, type ProjectStatus } from "../../../contracts/values/projects";
import { cn } from "~/lib/utils";

// The tones' colours are classes in app.css (.tone-*): a list repeats the badge on every row.
const TONE: Partial<Record<ProjectStatus, string>> = {
  Active: "tone-emerald",
  Completed: "tone-sky",
  Inactive: "tone-slate",
  DatabaseCreation: "tone-amber",
  DatabaseCreationFailed: "tone-red",
};

/** A project's status in readable words (never the enum name), toned by how settled it is. */
export function ProjectStatusBadge({ status, className }: { status: ProjectStatus; className?: string }) {
  return (
    <span
      className={cn(
        "badge",
        TONE[status] ?? "tone-violet",
        className,
      )}
    >
      {PROJECT_STATUS_LABELS[status]}
    </span>
  );
}
