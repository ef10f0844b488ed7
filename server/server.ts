/**
 * Starts the portal in production: `npm run start:portal` (the bundle `npm run build` makes,
 * build/services/portal.mjs), or through scripts/start-all.ts with the other two processes. Serves the
 * React Router build (build/server/index.js, or the path given as its argument) on PORT (3000), on
 * every interface or HOST's, until SIGINT or SIGTERM. What it serves and why it is not
 * react-router-serve: server/portal.ts and decision 031.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { createLogger } from "../services/shared/logger.ts";
import { allowLongUploads } from "../services/shared/long-uploads.ts";
import { stopOnSignals } from "../services/shared/stop-on-signals.ts";
import { createPortalListener } from "./portal.ts";

// As react-router-serve did, before React Router is loaded (createPortalListener) and the build imported (it reads its environment then).
process.env.NODE_ENV ??= "production";

const logger = createLogger("portal");

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT: expected a port number, got "${process.env.PORT}".`);
  process.exit(1);
}

const build = (await import(pathToFileURL(path.resolve(process.argv[2] ?? "build/server/index.js")).href)) as ServerBuild;
const server = http.createServer(await createPortalListener({ build, logger }));
// An upload passes through on its way to the data API, and may take longer than Node's five minutes for a whole request.
allowLongUploads(server);

server.on("error", (err) => {
  logger.error("server failed", { err, port });
  process.exit(1);
});

const onListening = () => {
  const { port: listening } = server.address() as AddressInfo;
  logger.info("portal listening", { url: `http://${process.env.HOST ?? "localhost"}:${listening}` });
};
if (process.env.HOST) server.listen(port, process.env.HOST, onListening);
else server.listen(port, onListening);

// Requests under way (an upload passing through) get 10 s; browsers' idle keep-alive connections none.
stopOnSignals(server, { graceMs: 10_000, logger });
