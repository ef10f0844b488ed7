import { sqlAccessApi } from "~/lib/api/sql-access.server";
import { downloadFailure, downloadMiddleware } from "~/lib/downloads.server";
import { callerOf, shellOf } from "~/lib/guards.server";
import { auditFilters } from "./audit-filters";
import type { Route } from "./+types/audit-log-csv";

/**
 * /additional-options/audit-log.csv: the entries the page's filters keep, streamed from the data API
 * through the portal. A refusal goes back to the audit log with the same filters (and company).
 */
export const middleware: Route.MiddlewareFunction[] = [
  downloadMiddleware(async ({ request, context }: Parameters<Route.MiddlewareFunction>[0]) => {
    await shellOf(context);
    const url = new URL(request.url);
    const { page: _page, pageSize: _size, ...filters } = auditFilters(url.searchParams);
    return {
      owner: `${url.pathname.replace(/\.csv$/, "")}${url.search}`,
      file: () => sqlAccessApi(callerOf(context)).auditCsv(filters),
      contentType: "text/csv; charset=utf-8",
      disposition: 'attachment; filename="audit-log.csv"',
      headers: { "Cache-Control": "no-store" },
    };
  }),
];

export const loader = downloadFailure;

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
