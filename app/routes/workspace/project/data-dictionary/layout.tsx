import { Link, Outlet, useLocation, useMatches, type UIMatch } from "react-router";
import { useCompanyHref } from "~/lib/company-href";
import { cn } from "~/lib/utils";
import { useWorkspacePaths, workspaceOfPath } from "~/lib/workspace-paths";
import { projectScope } from "../../workspace.server";
import { loadProjectDictionary, projectDictionary } from "./dictionary.server";
import type { Route } from "./+types/layout";

/** The project's own data dictionary: its tables, and the bulk update for users who may write. */
export const middleware: Route.MiddlewareFunction[] = [loadProjectDictionary];

// After a refused save (409: the dictionary changed meanwhile), its counts are read again with the page below.
export { revalidateAfterConflict as shouldRevalidate } from "~/lib/revalidate";

export async function loader({ context }: Route.LoaderArgs) {
  const [{ project, access }, dictionary] = await Promise.all([projectScope(context), projectDictionary(context)]);
  return { projectId: project.id, dictionary, canEdit: access.canWrite && !project.isLocked };
}

export const handle = { breadcrumb: (match: UIMatch<unknown, unknown>) => workspaceOfPath(match.pathname).dictionaryLabel };

export default function ProjectDictionaryLayout({ loaderData }: Route.ComponentProps) {
  const { projectId, dictionary, canEdit } = loaderData;
  const href = useCompanyHref();
  const paths = useWorkspacePaths();
  // The data page showing the destination (?database=destination) is headed and crumbed "Destination data": its tab says so too, and stays on it.
  const dataPath = paths.dictionary.sourceData(projectId);
  const showsDestination = useMatches().some((m) => m.pathname === dataPath && (m.loaderData as { database?: string } | undefined)?.database === "destination");
  // Each link with the pages it stays current on: a table's page and a mapping table are the definition's,
  // the review of an upload the bulk update's, as the underline shows them.
  const { pathname } = useLocation();
  const root = paths.dictionary.root(projectId);
  const under = (...sections: string[]) => sections.some((section) => pathname.startsWith(`${root}/${section}/`));
  const links = [
    { to: href(paths.dictionary.tables(projectId)), label: "Data definition", current: under("data-definition", "tables", "mappingTable") },
    ...(paths.ws.features.databases
      ? [
          showsDestination
            ? { to: href(dataPath, { database: "destination" }), label: "Destination data", current: pathname === dataPath }
            : { to: href(dataPath), label: "Source data", current: pathname === dataPath },
        ]
      : []),
    ...(canEdit ? [{ to: href(paths.dictionary.upload(projectId)), label: "Bulk update", current: under("bulk-update") }] : []),
  ];
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">
          {dictionary.tableCount} {dictionary.tableCount === 1 ? "table" : "tables"}, {dictionary.columnCount} {dictionary.columnCount === 1 ? "column" : "columns"}
          {dictionary.sourceDictionaryName ? `; copied from the master dictionary ${dictionary.sourceDictionaryName}, changed here without touching it` : ""}.
        </p>
        <nav aria-label={paths.ws.dictionaryLabel}>
          <ul className="flex gap-1 text-sm">
            {links.map((l) => (
              <li key={l.to}>
                <Link
                  to={l.to}
                  aria-current={l.current ? "page" : undefined}
                  className={cn("rounded-md px-3 py-1.5", l.current ? "bg-brand/10 font-medium text-brand" : "text-muted-foreground hover:bg-muted")}
                >
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <Outlet />
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
