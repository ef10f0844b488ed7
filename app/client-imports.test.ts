/**
 * The browser's code never imports Zod: a component or client library that imports a value from a
 * contract holding Zod schemas (contracts/templates.ts rather than contracts/values/templates.ts) pulls
 * Zod's 25 KiB into every page that loads it (issue 8's initial JS bar; the bench measured 153 KiB on
 * "Assign templates" for one such import). Route modules are left out: the build strips their actions and
 * loaders, and what those alone import with them.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
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

/** The modules a file imports values from, or re-exports them from (not `import type`), resolved to files. */
function valueImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)\s+(?!type\s)([^;]*?)\s+from\s+"([^"]+)";/gms)) {
    const specifier = match[2]!;
    // `import { type A, type B } from …` imports nothing at run time either.
    const names = /^\{([^}]*)\}$/.exec(match[1]!.trim());
    if (names && names[1]!.split(",").every((name) => !name.trim() || name.trim().startsWith("type "))) continue;
    found.push(specifier);
  }
  return found;
}

/** A specifier as the build resolves it (`~/` is app/), to a file; undefined for a package. */
function resolveImport(from: string, specifier: string): string | undefined {
  const target = specifier.startsWith("~/")
    ? path.join(root, "app", specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : undefined;
  if (!target) return undefined;
  return [`${target}.ts`, `${target}.tsx`, target].find((candidate) => {
    try {
      return readFileSync(candidate) && true;
    } catch {
      return false;
    }
  });
}

/**
 * Every file a route module loads with it in the browser: its value imports and theirs, but not its
 * server modules (the build strips the loaders and actions that use them) nor what it loads on demand
 * (`import(…)`, a chunk of its own).
 */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  seen.add(file);
  for (const specifier of valueImports(file)) {
    const resolved = resolveImport(file, specifier);
    if (resolved && !/\.server\.tsx?$/.test(resolved) && !seen.has(resolved)) staticClosure(resolved, seen);
  }
  return seen;
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
        const resolved = resolveImport(file, specifier);
        if (resolved && holdsZod(resolved)) offenders.push(`${path.relative(root, file)} → ${specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it("loads a workspace header's lock follower once the page is interactive, not with each of the workspace's pages", () => {
    // Every page of a workspace has the header: the poll's code in it weighed 2–3 KiB on each one's first load.
    const header = staticClosure(path.join(root, "app/routes/workspace/project/layout.tsx"));
    const followers = ["app/components/projects/lock-follower.tsx", "app/lib/live-poll.ts"].map((file) => path.join(root, file));
    expect([...header].filter((file) => followers.includes(file)).map((file) => path.relative(root, file))).toEqual([]);
    expect(header).toContain(path.join(root, "app/components/projects/live-lock.tsx"));
  });

  it("has a history entry's page say its words from its loader, without the tables of the history's and the flat files' labels", () => {
    // Its title, outcome, summary, badge and parameters in words: the tables weighed 2.7 KiB on its first load (issue 8's bar).
    const page = staticClosure(path.join(root, "app/routes/workspace/project/databases-history-entry.tsx"));
    const tables = [
      "contracts/values/loads.ts",
      "contracts/values/flat-files.ts",
      "app/components/projects/flat-file-parameter-rows.ts",
      "app/components/backups/backups-table.tsx",
    ];
    expect([...page].map((file) => path.relative(root, file)).filter((file) => tables.includes(file))).toEqual([]);
  });

  it("formats a column's type without the dictionary values' tables and limits", () => {
    // The dictionary's review and definition pages show types and nothing else of that module (0.2 KiB on each, issue 8's bar).
    const formats = staticClosure(path.join(root, "app/components/dictionary/column-format.ts"));
    expect(formats).not.toContain(path.join(root, "contracts/values/dictionary.ts"));
  });

  it("loads a script editor's diff of a stale save on demand, not with the editor", () => {
    // Shown only after a save based on a stale version was refused: 0.5 KiB on the editor's first load (issue 8's bar).
    const editor = staticClosure(path.join(root, "app/routes/templates/script-edit.tsx"));
    expect(editor).not.toContain(path.join(root, "app/components/templates/line-diff.tsx"));
    expect(editor).toContain(path.join(root, "app/components/forms/sql-field.tsx"));
  });

  it("loads a table's deletion confirmation on demand, not with the dictionary's pages", () => {
    // Shown only once a user chose "Delete" (or a deletion was refused): 0.3 KiB on those pages' first load (issue 8's bar).
    const card = path.join(root, "app/components/dictionary/delete-table-card.tsx");
    for (const page of [
      "app/routes/workspace/create/data-dictionary.tsx",
      "app/routes/workspace/project/data-dictionary/tables.tsx",
      "app/routes/migration/data-dictionary/data-definition.tsx",
    ]) {
      const files = staticClosure(path.join(root, page));
      expect(files, page).toContain(path.join(root, "app/components/dictionary/delete-table-confirmation.tsx"));
      expect(files, page).not.toContain(card);
    }
  });

  it("has no widget loaded on demand render another one, which would fail the hydration of a page opened showing it", () => {
    // A table's deletion confirmation opened by its address (?delete=) failed to hydrate (React error 418) when its card was a widget too.
    const lazyWidgetFile = path.join(root, "app/lib/lazy-widget.tsx");
    const nested: string[] = [];
    for (const file of files) {
      for (const match of readFileSync(file, "utf8").matchAll(/lazyWidget(?:<[^>]*>)?\(\(\) => import\("([^"]+)"\)/g)) {
        const widget = resolveImport(file, match[1]!)!;
        // Another module declaring a widget (the one declaring this widget may be imported back, for a constant).
        const inside = [...staticClosure(widget)].filter((f) => f !== file && valueImports(f).some((s) => resolveImport(f, s) === lazyWidgetFile));
        nested.push(...inside.map((f) => `${path.relative(root, widget)} → ${path.relative(root, f)}`));
      }
    }
    expect(nested).toEqual([]);
  });

  it("loads the wizard's databases step's job progress on demand, and a job's poll without its progress", async () => {
    // The step polls at once but shows its creation's progress only once it started: 1.3 KiB on its first load (issue 8's bar).
    const progress = path.join(root, "app/components/projects/job-progress.tsx");
    const step = staticClosure(path.join(root, "app/routes/workspace/create/databases.tsx"));
    expect(step).toContain(path.join(root, "app/components/projects/followed-job.tsx"));
    expect(step).toContain(path.join(root, "app/components/projects/live-jobs.ts"));
    expect(step).not.toContain(progress);
    // A manual chunk holding both would bring the progress back with the poll (and to the run pages, which never show it).
    const { chunkOf } = (await import(path.join(root, "vite.config.ts"))) as { chunkOf: (id: string) => string | undefined };
    expect(chunkOf(path.join(root, "app/lib/live-poll.ts"))).toBeDefined();
    expect(chunkOf(progress)).not.toBe(chunkOf(path.join(root, "app/lib/live-poll.ts")));
  });

  it("loads the wizard's dictionary step without the choice fields and the dictionary values it does not show", () => {
    // The step (three kinds of workspace) was 0.6 KiB over issue 8's bar: the checkbox and radio groups' code, with
    // the fields every form uses, and the dictionary's upload limits, with the table editor's column types, came with it.
    // (The route module's closure also holds what its action alone reads, contracts/projects.ts and the dictionary's schemas: the build strips those.)
    const step = staticClosure(path.join(root, "app/routes/workspace/create/data-dictionary.tsx"));
    expect(step).toContain(path.join(root, "app/components/forms/fields.tsx"));
    expect(step).not.toContain(path.join(root, "app/components/forms/choice-fields.tsx"));
    const editor = staticClosure(path.join(root, "app/components/dictionary/table-editor.tsx"));
    expect(editor).toContain(path.join(root, "contracts/values/column-types.ts"));
    expect(editor).not.toContain(path.join(root, "contracts/values/dictionary.ts"));
    expect(readFileSync(path.join(root, "app/components/forms/fields.tsx"), "utf8")).not.toMatch(/function (CheckboxGroupField|RadioGroupField)\b/);
  });

  it("has the wizard's dictionary step say its sentences from its loader, not carry them in its code", () => {
    // Its introduction (a mapping project's and the others'), what assigning does and why Continue waits: 0.2 KiB on its first load (issue 8's bar).
    const step = staticClosure(path.join(root, "app/routes/workspace/create/data-dictionary.tsx"));
    const sentences = [
      "Describe the client's files",
      "its own data dictionary: copy a master dictionary",
      "Assigning a dictionary replaces",
      "An analyst can add one",
    ];
    const holding = [...step].filter((file) => sentences.some((sentence) => readFileSync(file, "utf8").includes(sentence)));
    expect(holding.map((file) => path.relative(root, file))).toEqual([]);
  });

  it("has the wizard's steps in one chunk with their indicator, and no chunk carry a table of files to preload", async () => {
    // Apart, the two were chunks of 0.3 and 0.6 KiB (one of 0.74); the table weighed 0.1 KiB in each chunk with a dynamic import (issue 8's bar).
    const config = (await import(path.join(root, "vite.config.ts"))) as {
      chunkOf: (id: string) => string | undefined;
      withoutPreloadDeps: (code: string) => string | null;
    };
    const [steps, indicator] = ["app/components/projects/wizard-steps.tsx", "app/components/ui/step-indicator.tsx"].map((file) =>
      config.chunkOf(path.join(root, file)),
    );
    expect(steps).toBeDefined();
    expect(indicator).toBe(steps);
    expect(config.withoutPreloadDeps('e(()=>import("./card.js"),__VITE_PRELOAD__)')).toBe('e(()=>import("./card.js"),void 0)');
  });

  it("has the root's route module as the shell chunk itself, not a file that only re-exports it from there", async () => {
    // That file weighed 0.1 KiB gzip on every page (issue 8's bar): the root's module is emitted again, allowed to export more.
    type BuildStart = (this: { emitFile: (file: unknown) => void }, options: { input: string[] }) => void;
    const config = (await import(path.join(root, "vite.config.ts"))) as {
      chunkOf: (id: string) => string | undefined;
      rootInTheShell: { buildStart: BuildStart };
    };
    const route = (file: string) => `${path.join(root, file)}?__react-router-build-client-route`;
    expect(config.chunkOf(route("app/root.tsx"))).toBe("shell");
    const emitted: unknown[] = [];
    config.rootInTheShell.buildStart.call(
      { emitFile: (file) => emitted.push(file) },
      { input: [path.join(root, "app/entry.client.tsx"), route("app/root.tsx"), route("app/routes/shell.tsx"), route("app/routes/home.tsx")] },
    );
    expect(emitted).toEqual([{ type: "chunk", id: route("app/root.tsx"), name: "shell", preserveSignature: "allow-extension" }]);
  });

  it("leaves out of each chunk Rollup's imports of the router's and the shell's chunks, which every page loads first, and keeps the others", async () => {
    // `import"./router-….js"` in almost every chunk: some 10 B gzip each (issue 8's bar). Another chunk's may not be loaded yet when a navigation needs it.
    const { withoutImportsOfLoadedFirst } = (await import(path.join(root, "vite.config.ts"))) as {
      withoutImportsOfLoadedFirst: (code: string, imports: readonly string[], nameOf: (file: string) => string | undefined) => string | null;
    };
    const names: Record<string, string> = { "assets/router-!~{001}~.js": "router", "assets/shell-!~{002}~.js": "shell", "assets/fields-!~{003}~.js": "fields" };
    const code = "import { a as b } from './shell-!~{002}~.js';\nimport './router-!~{001}~.js';\nimport './fields-!~{003}~.js';\nb();\n";
    expect(withoutImportsOfLoadedFirst(code, Object.keys(names), (file) => names[file])).toBe(
      "import { a as b } from './shell-!~{002}~.js';\nimport './fields-!~{003}~.js';\nb();\n",
    );
    expect(withoutImportsOfLoadedFirst("b();\n", [], () => undefined)).toBeNull();
  });

  it("keeps what only the services read of a kind of workspace out of the descriptors every page loads", async () => {
    // The shell holds contracts/workspaces.ts (menu, paths): product types, API collections and statuses weighed 0.1 KiB on every page.
    const { WORKSPACES } = await import("../contracts/workspaces");
    const serviceOnly = ["productType", "apiBase", "initialStatus", "afterDatabases"];
    expect(Object.values(WORKSPACES).flatMap((ws) => Object.keys(ws).filter((key) => serviceOnly.includes(key)))).toEqual([]);
    const shell = staticClosure(path.join(root, "app/lib/workspace-paths.ts"));
    expect(shell).toContain(path.join(root, "contracts/workspaces.ts"));
    expect(shell).not.toContain(path.join(root, "contracts/workspaces.server.ts"));
  });

  it("has no layout route whose component only renders its child (React Router does that for a route without one)", () => {
    // Each such component weighed some 25 B on every page below it (issue 8's bar): the route keeps its handle and guards without it.
    const passThrough = /export default function \w+\(\) \{\s*return <Outlet \/>;\s*\}/;
    const routes = sourcesUnder(path.join(root, "app/routes")).filter((file) => passThrough.test(readFileSync(file, "utf8")));
    expect(routes.map((file) => path.relative(root, file))).toEqual([]);
  });

  it("takes React Router's production build, without its developer warnings", async () => {
    // The package exports its development build alone (remix-run/react-router#12532): its warnings weighed 0.6 KiB on every page.
    // By its path: vite.config.ts is the build's (tsconfig.node.json), not the app's.
    const { productionRouterFile } = (await import(path.join(root, "vite.config.ts"))) as { productionRouterFile: (id: string) => string | undefined };
    for (const id of ["react-router", "react-router/dom"]) {
      const file = productionRouterFile(id);
      expect(file).toMatch(/[/\\]dist[/\\]production[/\\]/);
      expect(existsSync(file!)).toBe(true);
    }
    const build = path.dirname(productionRouterFile("react-router")!);
    const flags = readdirSync(build)
      .filter((file) => file.endsWith(".mjs"))
      .flatMap((file) => readFileSync(path.join(build, file), "utf8").match(/ENABLE_DEV_WARNINGS = (true|false);/g) ?? []);
    expect(flags).toEqual(["ENABLE_DEV_WARNINGS = false;"]);
  });
});
