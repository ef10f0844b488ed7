import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * What each process says about itself on the product info page (issue 13): the product version (the
 * root package.json's, which the portal's footer shows as v{version}), the build (`npm run build`
 * writes build/build-info.json: the commit and the time), when the process started, and its uptime.
 * The root is found by walking up from this module, which runs from its source and from the built
 * bundles alike.
 */
export type BuildInfo = { commit: string | null; builtAt: string };
export type ProcessFacts = { version: string; build: BuildInfo | null; startedAt: string; uptimeSeconds: number };

const STARTED_AT = new Date(Date.now() - Math.round(process.uptime() * 1000)).toISOString();

export function productRoot(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file) && (JSON.parse(fs.readFileSync(file, "utf8")) as { name?: unknown }).name === "data-transformation") return dir;
    if (path.dirname(dir) === dir) throw new Error("the product's package.json was not found above this module");
  }
}

export function readProductVersion(): string {
  const file = path.join(productRoot(), "package.json");
  const { version } = JSON.parse(fs.readFileSync(file, "utf8")) as { version?: unknown };
  if (typeof version !== "string" || !version) throw new Error(`no version in ${file}`);
  return version;
}

/** build/build-info.json, or null when the product runs from a tree that was never built. */
export function readBuildInfo(): BuildInfo | null {
  try {
    const info = JSON.parse(fs.readFileSync(path.join(productRoot(), "build/build-info.json"), "utf8")) as Partial<BuildInfo>;
    return typeof info.builtAt === "string" ? { commit: typeof info.commit === "string" ? info.commit : null, builtAt: info.builtAt } : null;
  } catch {
    return null;
  }
}

export function processFacts(): ProcessFacts {
  return { version: readProductVersion(), build: readBuildInfo(), startedAt: STARTED_AT, uptimeSeconds: Math.round(process.uptime()) };
}
