/**
 * The browser's code never imports Zod: a component or client library that imports a value from a
 * contract holding Zod schemas (contracts/templates.ts rather than contracts/values/templates.ts) pulls
 * Zod's 25 KiB into every page that loads it (issue 8's initial JS bar; the bench measured 153 KiB on
 * "Assign templates" for one such import). Route modules are left out: the build strips their actions and
 * loaders, and what those alone import with them.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "test" ? [] : sourcesUnder(full);
    return /\.tsx?$/.test(entry.name) && !/\.(server|test)\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const holdsZod = (file: string) => /from "zod"/.test(readFileSync(file, "utf8"));

/** The modules a file imports values from (not `import type`), resolved to files. */
function valueImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(/^import\s+(?!type\s)([^;]*?)\s+from\s+"([^"]+)";/gms)) {
    const specifier = match[2]!;
    // `import { type A, type B } from …` imports nothing at run time either.
    const names = /^\{([^}]*)\}$/.exec(match[1]!.trim());
    if (names && names[1]!.split(",").every((name) => !name.trim() || name.trim().startsWith("type "))) continue;
    found.push(specifier);
  }
  return found;
}

describe("the browser's code", () => {
  const files = [...sourcesUnder(path.join(root, "app/components")), ...sourcesUnder(path.join(root, "app/lib"))];

  it("finds the components and client libraries", () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it("imports no Zod, directly or through a contract that holds schemas", () => {
    const offenders: string[] = [];
    for (const file of files) {
      for (const specifier of valueImports(file)) {
        if (specifier === "zod" || specifier.startsWith("@conform-to/zod")) offenders.push(`${path.relative(root, file)} → ${specifier}`);
        if (!specifier.includes("contracts/")) continue;
        const target = path.resolve(path.dirname(file), specifier);
        const resolved = [`${target}.ts`, target].find((candidate) => {
          try {
            return readFileSync(candidate) && true;
          } catch {
            return false;
          }
        });
        if (resolved && holdsZod(resolved)) offenders.push(`${path.relative(root, file)} → ${specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
