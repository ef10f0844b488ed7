import crypto from "node:crypto";
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import type { EntryContext, HandleErrorFunction } from "react-router";
import { ServerRouter } from "react-router";
import type { Branding } from "../contracts/client-portal";
import { createLogger } from "../services/shared/logger";
import { ErrorReferenceContext } from "./lib/error-reference";
import { BOUNDARIES_INLINE, widgetsLoaded } from "./lib/lazy-widget";
import { NonceContext } from "./lib/nonce";
import { applySecurityHeaders, documentPolicy, logoSource, newNonce } from "./lib/security-headers.server";

export const streamTimeout = 5_000;

/** The portal's server entry answers /healthz with it before React Router sees the request (server/portal.ts, decision 031). */
export { healthAnswer as healthz } from "./lib/health.server";

const log = createLogger("portal");

/** Reference ids of unexpected errors, by the request that met them, for the error page to show. */
const errorReferences = new WeakMap<Request, string>();

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  const reference = crypto.randomBytes(6).toString("hex");
  errorReferences.set(request, reference);
  log.error("unexpected error", { reference, method: request.method, url: request.url, err: error });
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  // One nonce per HTML response: in the policy, and on every inline script React Router writes.
  const nonce = newNonce();
  const branding = (routerContext.staticHandlerContext.loaderData?.root as { branding?: Branding } | undefined)?.branding;
  applySecurityHeaders(responseHeaders, request, documentPolicy(nonce, { imageSources: [logoSource(branding?.logoUrl)] }));
  // Widgets loaded on demand in the browser are rendered in the page here, with it (decision 029).
  await widgetsLoaded();
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ErrorReferenceContext.Provider value={errorReferences.get(request) ?? null}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </ErrorReferenceContext.Provider>
      </NonceContext.Provider>,
      {
        // React's own streaming scripts (Suspense boundaries completing) need it too.
        nonce,
        ...BOUNDARIES_INLINE,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) log.error("render error", { err: error });
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}
