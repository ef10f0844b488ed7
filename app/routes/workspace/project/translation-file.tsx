import { companyHref } from "~/lib/company-href";
import { downloadFailure, downloadMiddleware } from "~/lib/downloads.server";
import { projectCalls, projectScope } from "../workspace.server";
import type { Route } from "./+types/translation-file";

/**
 * translate/{translationId}/file: the translated CSV, streamed from the data API through the portal,
 * never held here. A translation without a file (running, failed) sends the user back to its page,
 * which says why (downloads.server.ts).
 */
export const middleware: Route.MiddlewareFunction[] = [
  downloadMiddleware(async ({ params, context }: Parameters<Route.MiddlewareFunction>[0]) => {
    const { project, paths, companyId } = await projectScope(context);
    return {
      owner: companyHref(paths.translations.one(project.id, params.translationId), companyId),
      file: () => projectCalls(context).translations.file(params.translationId),
      contentType: "text/csv; charset=utf-8",
    };
  }),
];

export const loader = downloadFailure;

export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
