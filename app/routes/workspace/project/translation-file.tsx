import { projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/translation-file";

/** translate/{translationId}/file: the translated CSV, streamed from the data API through the portal, never held here. */
export async function loader({ params, context }: Route.LoaderArgs) {
  await projectScope(context);
  const res = await projectCalls(context).translations.file(params.translationId);
  const headers = new Headers({ "content-type": res.headers.get("content-type") ?? "text/csv; charset=utf-8" });
  const disposition = res.headers.get("content-disposition");
  if (disposition) headers.set("content-disposition", disposition);
  return new Response(res.body, { status: 200, headers });
}
