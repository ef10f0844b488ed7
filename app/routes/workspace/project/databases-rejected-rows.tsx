import { companyHref } from "~/lib/company-href";
import { downloadFailure, downloadMiddleware } from "~/lib/downloads.server";
import { projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/databases-rejected-rows";

/**
 * databases/history/{historyId}/table/{tableId}/rejected-rows.csv: one table's rejected rows as the
 * file had them, with their row and reason, streamed from the data API through the portal (never held here).
 * A refusal goes back to the table's page of the history.
 */
export const middleware: Route.MiddlewareFunction[] = [
  downloadMiddleware(async ({ params, context }: Parameters<Route.MiddlewareFunction>[0]) => {
    const { project, paths, companyId } = await projectScope(context);
    return {
      owner: companyHref(paths.databases.entryTable(project.id, params.historyId, params.tableId), companyId),
      file: () => projectCalls(context).history.rejectedRowsCsv(params.historyId, params.tableId),
      contentType: "text/csv; charset=utf-8",
    };
  }),
];

export const loader = downloadFailure;

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
