import { companyHref } from "~/lib/company-href";
import { downloadFailure, downloadMiddleware } from "~/lib/downloads.server";
import { projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/databases-backup-download";

/**
 * databases/backups/{backupId}/download: a backup's archive, streamed from the data API through the
 * portal (never held here). A refusal goes back to the databases page, which lists the backups.
 */
export const middleware: Route.MiddlewareFunction[] = [
  downloadMiddleware(async ({ params, context }: Parameters<Route.MiddlewareFunction>[0]) => {
    const { project, paths, companyId } = await projectScope(context);
    return {
      owner: companyHref(paths.databases.current(project.id), companyId),
      file: () => projectCalls(context).backups.download(params.backupId),
      contentType: "application/x-tar",
      passOn: ["content-length"],
    };
  }),
];

export const loader = downloadFailure;

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
