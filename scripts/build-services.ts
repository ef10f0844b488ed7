/**
 * Builds the two reference services and the portal's server entry for production (`npm run build`
 * runs it after the portal's build): each becomes one ES module bundle of its own code, its packages
 * left to node_modules, run by plain Node. Running from source needs tsx's loader in every process and every worker thread
 * (a loader thread and a transform cache each): the bundles start faster and hold some 45 MB less
 * per process, and the data API's parse worker (parse-in-worker.ts) starts as plain JavaScript.
 * Tests (Vitest) still run the sources.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "..");
const SERVICES_BUILD_DIR = path.join(ROOT, "build/services");

await build({
  absWorkingDir: ROOT,
  entryPoints: {
    "data-api": "services/data-api/src/server.ts",
    // The workers, beside the data API's bundle where worker-entry.ts looks for them.
    "parse-worker": "services/data-api/src/dictionary-bulk/parse-worker.ts",
    "load-worker": "services/data-api/src/data-plane/flat-file/load-worker.ts",
    "preview-worker": "services/data-api/src/data-plane/flat-file/preview-worker.ts",
    "translate-worker": "services/data-api/src/translations/translate-worker.ts",
    "sqlite-inspect-worker": "services/data-api/src/data-plane/backups/sqlite-inspect-worker.ts",
    "progress-db-worker": "services/data-api/src/db/progress-db-worker.ts",
    "client-portal": "services/client-portal/src/server.ts",
    // The portal's HTTP server (decision 031): it serves the React Router build, which stays Vite's.
    portal: "server/server.ts",
  },
  outdir: SERVICES_BUILD_DIR,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
});

// What the product info page shows of this build: the commit (when built from a git checkout) and the time.
const commit = await new Promise<string | null>((resolve) =>
  execFile("git", ["rev-parse", "HEAD"], { cwd: ROOT }, (err, stdout) => resolve(err ? null : stdout.trim() || null)),
);
fs.writeFileSync(path.join(ROOT, "build/build-info.json"), `${JSON.stringify({ commit, builtAt: new Date().toISOString() }, null, 2)}\n`);
