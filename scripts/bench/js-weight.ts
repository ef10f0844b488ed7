/**
 * Initial JS per page from a React Router build's asset manifest: what a browser downloads before the
 * page is interactive (the client entry, the module of every route in the page's match chain with
 * their imports, and the route manifest file where discovery is "initial"), each distinct file
 * gzipped once and added up.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

type RouteAsset = { id: string; parentId?: string; path?: string; index?: boolean; module: string; imports?: string[]; hasDefaultExport?: boolean };
type Assets = { url: string; entry: { module: string; imports: string[] }; routes: Record<string, RouteAsset> };
type ServerBuild = { assets: Assets; routeDiscovery?: { mode: "lazy" | "initial" } };

export type RouteWeight = { id: string; path: string; gzipBytes: number };

/** Every page (a route with a component and no child routes) of the build in `buildDir`, heaviest first. */
export async function initialJsPerPage(buildDir: string): Promise<RouteWeight[]> {
  // A fresh URL each time: two builds with the same path must not share Node's module cache.
  const { assets, routeDiscovery } = (await import(`${pathToFileURL(path.join(buildDir, "server/index.js")).href}?t=${Date.now()}`)) as ServerBuild;
  // With "initial" discovery the page loads the whole route manifest file; with "lazy" (the default)
  // the part it needs is inline in the HTML (counted there) and the file is never loaded.
  const manifest = routeDiscovery?.mode === "initial" ? [assets.url] : [];
  const gzipped = new Map<string, number>();
  const size = (file: string) => {
    let bytes = gzipped.get(file);
    if (bytes === undefined) {
      bytes = gzipSync(fs.readFileSync(path.join(buildDir, "client", file))).length;
      gzipped.set(file, bytes);
    }
    return bytes;
  };
  const routes = Object.values(assets.routes);
  const parents = new Set(routes.map((r) => r.parentId).filter(Boolean));
  return routes
    .filter((r) => r.hasDefaultExport && !parents.has(r.id))
    .map((leaf) => {
      const files = new Set([...manifest, assets.entry.module, ...assets.entry.imports]);
      const segments: string[] = [];
      for (let r: RouteAsset | undefined = leaf; r; r = r.parentId ? assets.routes[r.parentId] : undefined) {
        files.add(r.module);
        for (const file of r.imports ?? []) files.add(file);
        if (r.path) segments.unshift(r.path);
      }
      return { id: leaf.id, path: `/${segments.join("/")}`, gzipBytes: [...files].reduce((sum, f) => sum + size(f), 0) };
    })
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
}
