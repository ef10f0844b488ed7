import { companyHref } from "~/lib/company-href";
import { downloadFailure, downloadMiddleware } from "~/lib/downloads.server";
import { projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/mapping-column-csv";

/**
 * …/mappingTable/{id}/column/{columnId}/values.csv: the column's map as CSV (source_value,target_value),
 * streamed from the data API through the portal, never held here. A refusal goes back to the column's page.
 */
export const middleware: Route.MiddlewareFunction[] = [
  downloadMiddleware(async ({ params, context }: Parameters<Route.MiddlewareFunction>[0]) => {
    const { project, paths, companyId } = await projectScope(context);
    return {
      owner: companyHref(paths.valueMaps.column(project.id, params.mappingSourceTableId, params.columnId), companyId),
      file: () => projectCalls(context).valueMaps.exportCsv(params.columnId),
      contentType: "text/csv; charset=utf-8",
    };
  }),
];

export const loader = downloadFailure;

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
