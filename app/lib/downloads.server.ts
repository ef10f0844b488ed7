/**
 * The one way a download route (a file streamed from a service through the portal: a backup, rejected
 * rows, a value map, a translated file, the audit log) answers. Its file passes through as it streams,
 * never held here; when it cannot be had, the user gets a page to read, never the service's JSON:
 *
 * - a refusal (a 4xx other than 403 and 404: a failed translation, a file not ready) is a 303 back to
 *   the page that offers the download, the refusal's words in a message at its top;
 * - an unknown or another company's id (404), a role refused (403) or a service down (5xx) is the
 *   portal's error page at the download's URL, with that status, as any page answers them.
 *
 * A route is a document route so that it can render that error page: its middleware answers the file
 * (or the redirect) before any loader runs, and otherwise leaves the failure to its loader, which
 * throws it to the route's ErrorBoundary. A resource route's thrown error is answered as JSON.
 *
 *   export const middleware: Route.MiddlewareFunction[] = [downloadMiddleware(async ({ context }) => ({ owner, file, contentType }))];
 *   export const loader = downloadFailure;
 *   export { RouteErrorBoundary as ErrorBoundary } from "~/components/layout/route-error";
 */
import { createContext, data, type RouterContextProvider } from "react-router";
import { attachment } from "../../services/shared/content-disposition";
import type { ServiceFailure } from "./api.server";
import { redirectWithFlash } from "./flash.server";
import { serviceFailure } from "./forms.server";

export type Download = {
  /** The page that offers the download (with its company): a refusal is said at its top. */
  owner: string;
  /** The service's answer to stream on (callServiceStream); a refusal is thrown as callService throws it. */
  file: () => Promise<Response>;
  /** The file's type when the service names none. */
  contentType: string;
  /** Its file's name when the service gives none (the service's Content-Disposition otherwise). */
  fileName?: string;
  /** Headers besides these, passed on when the service sets them (content-length). */
  passOn?: readonly string[];
  /** Extra headers of the answer (Cache-Control). */
  headers?: Record<string, string>;
};

type Failure = { status: number; body: ServiceFailure };

const failureContext = createContext<Failure | null>(null);

/** Said on the portal's error page rather than on the page the download belongs to. */
const onErrorPage = (status: number) => status === 403 || status === 404 || status >= 500;

/**
 * The download route's middleware: `prepare` runs the route's guards and says which file and whose page
 * (throwing the workspace's or the shell's failure as they throw it); the file streams, or a refusal
 * goes back to the owner's page, or the failure waits for the route's loader (downloadFailure).
 */
export function downloadMiddleware<A extends { context: Readonly<RouterContextProvider> }>(
  prepare: (args: A) => Promise<Download>,
): (args: A, next: () => Promise<Response>) => Promise<Response> {
  return async (args, next) => {
    try {
      const download = await prepare(args);
      let res: Response;
      try {
        res = await download.file();
      } catch (err) {
        const failure = serviceFailure(err);
        if (!failure || onErrorPage(failure.status)) throw err;
        return await redirectWithFlash(download.owner, { kind: "error", text: failure.body.errors.join(" ") }, 303);
      }
      return streamed(res, download);
    } catch (err) {
      // Redirects (sign-in, permission denied) and unexpected errors go on as thrown.
      const failure = serviceFailure(err);
      if (!failure) throw err;
      args.context.set(failureContext, failure);
      return next();
    }
  };
}

/** The download route's loader: runs only when its middleware kept a failure, and throws it to the error page. */
export async function downloadFailure({ context }: { context: Readonly<RouterContextProvider> }): Promise<never> {
  const failure = context.get(failureContext) ?? { status: 404, body: { errors: ["There is nothing to download here."] } };
  throw data<ServiceFailure>(failure.body, { status: failure.status });
}

function streamed(res: Response, download: Download): Response {
  const headers = new Headers({ "content-type": res.headers.get("content-type") ?? download.contentType, ...download.headers });
  const disposition = res.headers.get("content-disposition") ?? (download.fileName === undefined ? null : attachment(download.fileName));
  if (disposition) headers.set("content-disposition", disposition);
  for (const name of download.passOn ?? []) {
    const value = res.headers.get(name);
    if (value) headers.set(name, value);
  }
  return new Response(res.body, { status: 200, headers });
}
