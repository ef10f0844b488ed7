import { Link } from "react-router";
import type { Project } from "../../../contracts/projects";
import { useCompanyHref } from "~/lib/company-href";
import { useWorkspacePaths } from "~/lib/workspace-paths";

/** The next step once the databases exist: a Backup-source project restores its first backup, a Flat file one loads a file. */
export function LoadSourceLink({ project, className }: { project: Pick<Project, "id" | "sourceType">; className?: string }) {
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  return project.sourceType === "BackUp" ? (
    <Link to={href(paths.databases.restore(project.id))} className={className}>
      Restore a backup
    </Link>
  ) : (
    <Link to={href(paths.databases.load(project.id))} className={className}>
      Load a flat file
    </Link>
  );
}
