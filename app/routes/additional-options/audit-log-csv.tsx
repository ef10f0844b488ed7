import { data } from "react-router";
import { FROM_AFTER_TO_MESSAGE, fromAfterTo } from "../../../contracts/sql-access";
import type { ServiceFailure } from "~/lib/api.server";
import { sqlAccessApi } from "~/lib/api/sql-access.server";
import { downloadFailure, downloadMiddleware } from "~/lib/downloads.server";
import { callerOf, shellOf } from "~/lib/guards.server";
import { auditFilters, unreadDays } from "./audit-filters";
import type { Route } from "./+types/audit-log-csv";

/**
 * /additional-options/audit-log.csv: the entries the page's filters keep, streamed from the data API
 * through the portal. A refusal goes back to the audit log with the same filters (and company): dates the
 * page refuses (no real day, From after To) are refused here too, never exported as a file unfiltered by them.
 */
export const middleware: Route.MiddlewareFunction[] = [
  downloadMiddleware(async ({ request, context }: Parameters<Route.MiddlewareFunction>[0]) => {
    await shellOf(context);
    const url = new URL(request.url);
    const { page: _page, pageSize: _size, ...filters } = auditFilters(url.searchParams);
    const unread = unreadDays(url.searchParams, "nothing was exported");
    const refused = [unread.from, unread.to, fromAfterTo(filters) ? `${FROM_AFTER_TO_MESSAGE} Nothing was exported.` : null].filter((e) => e !== null);
    return {
      owner: `${url.pathname.replace(/\.csv$/, "")}${url.search}`,
      file: async () => {
        if (refused.length) throw data<ServiceFailure>({ errors: refused }, { status: 400 });
        return sqlAccessApi(callerOf(context)).auditCsv(filters);
      },
      contentType: "text/csv; charset=utf-8",
      fileName: "audit-log.csv",
      headers: { "Cache-Control": "no-store" },
    };
  }),
];

export const loader = downloadFailure;

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
