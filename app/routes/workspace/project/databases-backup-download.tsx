import { projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/databases-backup-download";

/** databases/backups/{backupId}/download: a backup's archive, streamed from the data API through the portal (never held here). */
export async function loader({ params, context }: Route.LoaderArgs) {
  await projectScope(context);
  const res = await projectCalls(context).backups.download(params.backupId);
  const headers = new Headers({ "content-type": res.headers.get("content-type") ?? "application/x-tar" });
  for (const name of ["content-disposition", "content-length"]) {
    const value = res.headers.get(name);
    if (value) headers.set(name, value);
  }
  return new Response(res.body, { status: 200, headers });
}
