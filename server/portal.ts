/**
 * The portal's HTTP request listener in production (decision 031): what react-router-serve did, but
 * `GET /healthz` is answered first, before Express, its middlewares and React Router see the request.
 *
 * During a 1 GB upload passing through the portal its event loop is busy most of the time, and each
 * turn of it a request waits for is a turn behind the upload's chunks. react-router-serve's static
 * middlewares ran before the app for every request, /healthz included: two `fs.stat` calls through
 * libuv's thread pool (10–28 ms each during the upload), then React Router matched 268 routes twice
 * (5–7 ms). Here /healthz asks the portal's database (healthz in entry.server.tsx, the same check and
 * headers as the route) and nothing else; static files are looked for on the disk only where they are:
 * under /assets/, and the few other files at the top of build/client.
 */
import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import compression from "compression";
import express from "express";
import type { ServerBuild } from "react-router";
import type { Logger } from "../services/shared/logger.ts";

/** What entry.server.tsx exports beside React Router's own: the health answer (app/lib/health.server.ts). */
type PortalEntry = { healthz: (request: Request) => Promise<Response> };

export async function createPortalListener({ build, logger }: { build: ServerBuild; logger: Logger }): Promise<http.RequestListener> {
  const { healthz } = build.entry.module as unknown as Partial<PortalEntry>;
  if (typeof healthz !== "function") throw new Error("this server build's entry.server exports no healthz: build the portal again");
  // Where react-router-serve looked: the build's client folder (relative to the working directory) under its public path.
  const clientDir = path.resolve(build.assetsBuildDirectory);

  const app = express();
  app.disable("x-powered-by");
  app.use(compression());
  // Fingerprinted by Vite: a changed file has a new name, so browsers keep them a year without asking.
  app.use(path.posix.join(build.publicPath, "assets"), express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y" }));
  // The client folder's other files (none in this build but what Vite copies from a public/ folder), by name:
  // a page's request does not stat the disk for a file that is not there.
  const topLevel = new Set(fs.readdirSync(clientDir).filter((name) => name !== "assets"));
  if (topLevel.size) {
    const clientFiles = express.static(clientDir);
    app.use(build.publicPath, (req, res, next) => (topLevel.has(req.path.split("/")[1] ?? "") ? clientFiles(req, res, next) : next()));
  }
  app.use(requestLog(logger));
  // Imported only now, once the caller has settled NODE_ENV: it loads React Router, which chooses its development
  // or production build by NODE_ENV when first loaded (a static import is loaded before any code of this bundle
  // runs, and React Router's development build beside React DOM's production one fails every page).
  const { createRequestHandler } = await import("@react-router/express");
  // Every request, as a middleware: app.all("*") decoded the path as a route parameter, and one that did not decode
  // (…/%E0%A4%A) was Express's bare "Bad Request"; React Router answers it with the product's page (root.tsx).
  app.use(createRequestHandler({ build, mode: process.env.NODE_ENV }));

  return (req, res) => {
    if (isHealthCheck(req)) void answerHealth(healthz, req, res);
    else app(req, res);
  };
}

function isHealthCheck(req: http.IncomingMessage): boolean {
  return (req.method === "GET" || req.method === "HEAD") && (req.url === "/healthz" || req.url?.startsWith("/healthz?") === true);
}

async function answerHealth(healthz: PortalEntry["healthz"], req: http.IncomingMessage, res: http.ServerResponse) {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const request = new Request(new URL(req.url!, `http://${req.headers.host ?? "localhost"}`), { method: req.method, headers });
  try {
    const response = await healthz(request);
    const body = req.method === "HEAD" ? "" : await response.text();
    res.statusCode = response.status;
    response.headers.forEach((value, name) => res.setHeader(name, value));
    res.end(body);
  } catch {
    // healthz answers its failures itself (503); this is a bug of the answer, still not a healthy portal.
    res.statusCode = 500;
    res.end();
  }
}

/** One line per request React Router answers (react-router-serve's morgan logged the same requests), at info. */
function requestLog(logger: Logger): express.RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once("close", () =>
      logger.info("request", { method: req.method, path: req.path, status: res.statusCode, ms: Math.round(performance.now() - started) }),
    );
    next();
  };
}
