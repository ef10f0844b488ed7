import crypto from "node:crypto";
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, type RenderToPipeableStreamOptions } from "react-dom/server";
import type { EntryContext, HandleErrorFunction } from "react-router";
import { ServerRouter } from "react-router";
import { createLogger } from "../services/shared/logger";
import { ErrorReferenceContext } from "./lib/error-reference";

export const streamTimeout = 5_000;

const log = createLogger("portal");

/** Reference ids of unexpected errors, by the request that met them, for the error page to show. */
const errorReferences = new WeakMap<Request, string>();

export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  const reference = crypto.randomBytes(6).toString("hex");
  errorReferences.set(request, reference);
  log.error("unexpected error", { reference, method: request.method, url: request.url, err: error });
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";

    const { pipe, abort } = renderToPipeableStream(
      <ErrorReferenceContext.Provider value={errorReferences.get(request) ?? null}>
        <ServerRouter context={routerContext} url={request.url} />
      </ErrorReferenceContext.Provider>,
      {
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
