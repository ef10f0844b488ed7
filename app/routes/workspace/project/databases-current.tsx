import { Link, useLocation } from "react-router";
import { Card } from "~/components/ui/card";
import { TablesTable } from "~/components/databases/tables-table";
import { afterGuard } from "~/lib/guards.server";
import { useCompanyHref } from "~/lib/company-href";
import { useWorkspacePaths, workspaceKindOf } from "~/lib/workspace-paths";
import { projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/databases-current";

/** When each kind's databases are made: a configuration's dictionary step; a project's databases step. */
const NOT_CREATED = {
  migration: "Not created yet: the databases are created at the setup step “Databases”.",
  onboarding: "Not created yet: the databases are created when the data dictionary step is completed.",
} as const;

/** databases/current: the workspace's source and destination databases as they exist so far (DOMAIN.md). */
export async function loader({ context }: Route.LoaderArgs) {
  // Asked beside the workspace's own load; answered once its guard passed.
  const [{ project, access }, databases] = await afterGuard(projectScope(context), projectCalls(context).databases());
  const created = databases.databases.some((d) => d.kind === "source" && d.exists);
  return { ...databases, projectId: project.id, created, canLoad: created && access.canWrite && !project.isLocked };
}

export const handle = { breadcrumb: "Databases" };

export default function CurrentDatabases({ loaderData }: Route.ComponentProps) {
  const kind = workspaceKindOf(useLocation().pathname);
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  return (
    <div className="space-y-6">
      {loaderData.created ? (
        <p className="flex flex-wrap gap-4 text-sm">
          {loaderData.canLoad ? (
            <Link to={href(paths.databases.load(loaderData.projectId))} className="font-medium text-brand underline underline-offset-2">
              Load a flat file
            </Link>
          ) : null}
          <Link to={href(paths.databases.history(loaderData.projectId))} className="text-brand underline underline-offset-2">
            History
          </Link>
          <Link to={href(paths.databases.tables(loaderData.projectId))} className="text-brand underline underline-offset-2">
            Tables and their rows
          </Link>
        </p>
      ) : null}
      {loaderData.databases.map((db) => (
        <Card key={db.kind} aria-labelledby={`${db.kind}-title`}>
          <h2 id={`${db.kind}-title`} className="text-lg font-semibold">
            {db.name}
          </h2>
          {!db.exists ? (
            <p className="mt-2 text-sm text-muted-foreground">{NOT_CREATED[kind]}</p>
          ) : db.tables.length === 0 ? (
            <p className="mt-2 text-sm text-muted-foreground">It has no tables.</p>
          ) : (
            <div className="mt-4">
              <TablesTable label={`Tables of the ${db.name.toLowerCase()}`} tables={db.tables} />
            </div>
          )}
        </Card>
      ))}
    </div>
  );
}
