import { Link } from "react-router";
import { Card } from "~/components/ui/card";
import { TablesTable } from "~/components/databases/tables-table";
import { useCompanyHref } from "~/lib/company-href";
import { afterGuard } from "~/lib/guards.server";
import { useWorkspacePaths } from "~/lib/workspace-paths";
import { projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/databases-tables";

/** databases/tables: the source database's tables with their row counts, each linking to its rows. */
export async function loader({ context }: Route.LoaderArgs) {
  const [{ project }, databases] = await afterGuard(projectScope(context), projectCalls(context).databases());
  const source = databases.databases.find((d) => d.kind === "source");
  return { projectId: project.id, created: Boolean(source?.exists), tables: source?.tables ?? [] };
}

export const handle = { breadcrumb: "Tables" };

export default function DatabaseTables({ loaderData }: Route.ComponentProps) {
  const { projectId, created, tables } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  return (
    <Card aria-labelledby="tables-title">
      <h2 id="tables-title" className="text-lg font-semibold">
        Tables of the source database
      </h2>
      {!created ? (
        <p className="mt-2 text-sm text-muted-foreground">The databases are not created yet.</p>
      ) : (
        <div className="mt-4 overflow-x-auto">
          <TablesTable
            label="Source tables"
            tables={tables}
            name={(t) => (
              <Link to={href(paths.dictionary.sourceData(projectId), { table: t.name })} className="row-link">
                {t.name}
              </Link>
            )}
          />
        </div>
      )}
    </Card>
  );
}
