import { sqlAccessApi } from "~/lib/api/sql-access.server";
import { callerOf, shellOf } from "~/lib/guards.server";
import { auditFilters } from "./audit-filters";
import type { Route } from "./+types/audit-log-csv";

/** /additional-options/audit-log.csv: the entries the page's filters keep, streamed from the data API through the portal. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await shellOf(context);
  const { page: _page, pageSize: _size, ...filters } = auditFilters(new URL(request.url).searchParams);
  const res = await sqlAccessApi(callerOf(context)).auditCsv(filters);
  const headers = new Headers({ "content-type": res.headers.get("content-type") ?? "text/csv; charset=utf-8", "Cache-Control": "no-store" });
  headers.set("content-disposition", res.headers.get("content-disposition") ?? 'attachment; filename="audit-log.csv"');
  return new Response(res.body, { status: 200, headers });
}
