import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The product version: the root package.json's, which the portal's footer shows as v{version}.
 * Found by walking up from this module, which runs from its source (services/data-api/src) and from
 * the built bundle (build/services) alike.
 */
export function readProductVersion(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (fs.existsSync(file)) {
      const { name, version } = JSON.parse(fs.readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
      if (name === "data-transformation") {
        if (typeof version !== "string" || !version) throw new Error(`no version in ${file}`);
        return version;
      }
    }
    if (path.dirname(dir) === dir) throw new Error("the product's package.json was not found above the data API");
  }
}
