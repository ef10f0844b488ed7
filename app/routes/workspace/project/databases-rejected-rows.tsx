import { projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/databases-rejected-rows";

/**
 * databases/history/{historyId}/table/{tableId}/rejected-rows.csv: one table's rejected rows as the
 * file had them, with a reason column, streamed from the data API through the portal (never held here).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  await projectScope(context);
  const res = await projectCalls(context).history.rejectedRowsCsv(params.historyId, params.tableId);
  const headers = new Headers({ "content-type": res.headers.get("content-type") ?? "text/csv; charset=utf-8" });
  const disposition = res.headers.get("content-disposition");
  if (disposition) headers.set("content-disposition", disposition);
  return new Response(res.body, { status: 200, headers });
}
