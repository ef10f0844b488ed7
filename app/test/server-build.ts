/**
 * The portal as production runs it: `react-router build` into a folder of its own, then the
 * built server's request handler (entry.server.tsx, every middleware, loaders, rendering), which the
 * portal's server entry (server/portal.ts) hands every request but /healthz and static files to. For
 * the few tests that must see whole HTTP answers (headers, the HTML with its scripts). Call
 * `startLiveServices()` first: the built portal reads its environment when it is imported.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { createRequestHandler, type ServerBuild } from "react-router";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * The time a test that builds the portal allows itself: a production build takes 30–40 s on two idle
 * cores, and several minutes on the same cores while other builds and tests run (it timed out at 120 s).
 */
export const PORTAL_BUILD_TIMEOUT_MS = 360_000;

export async function buildPortal(name: string): Promise<{ handle: (request: Request) => Promise<Response>; build: ServerBuild; remove: () => void }> {
  // Inside the project, so that the build's bare imports (react, react-router…) resolve from node_modules.
  const dir = path.join(root, ".test-build", `${name}-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  await promisify(execFile)(path.join(root, "node_modules/.bin/react-router"), ["build"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", REACT_ROUTER_BUILD_DIR: dir },
    maxBuffer: 16 * 1024 * 1024,
  });
  const build = (await import(pathToFileURL(path.join(dir, "server/index.js")).href)) as ServerBuild;
  const handler = createRequestHandler(build, "production");
  return {
    handle: (request) => handler(request),
    build,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
