import { createRequire } from "node:module";
import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

/**
 * The modules every signed-in page loads (the root's and the shell's layout pieces and what they
 * import) go into one chunk instead of a dozen small ones: each chunk costs a modulepreload link and a
 * manifest entry in every page's HTML, and its own gzip overhead. React Router keeps its own chunk
 * (otherwise Rollup would pull it into ours). The pages' own pieces stay split by Rollup's default,
 * and so do the contracts' values (labels and statuses per entity): matched here, every value module
 * any page imports went into every page's shell (8.4 KiB gzip, now 6.2). Only the values every kind
 * of page uses (page sizes) are here: a chunk of its own cost more than it weighed.
 *
 * Issue 8's bar (each page's initial JS ≤ 1.15× the bare React Router
 * page's) was met on all 178 pages on 2026-11-27, the heaviest by 0.1 KiB; the features since took 63
 * of 193 over it, 47 once labels and options moved into the loaders' answers (what a page's loader can
 * say in words it answers, rather than the page's code carrying the tables), 90 after the live lock
 * in every workspace page's header and the focus moved after a navigation (2026-11-29; heaviest the
 * flat-file load page, 134.4 KiB against 126.6), and 62 once that lock's follower was loaded after the
 * page is interactive (heaviest the load page, 132.2 KiB). The dynamic import brings Vite's preload
 * helper, a chunk of its own (0.6 KiB) on every workspace page: in the shell it took 3 more pages
 * under the bar but added 0.5 KiB to every other page. Widgets shown only after a user's action are
 * loaded on demand (lazyWidget, decision 029), each a chunk of its own that the page does not wait for:
 * the load page's file preview and its "Change how files are read" form took it to 127.9 KiB (heaviest
 * then the project dictionary's tables and the wizard's dictionary step, 132.0), the confirmation card
 * and the dictionary's data-loss card 65 pages over to 62 (the assigned templates' page −3.7 KiB). On a
 * page without another dynamic import a widget first costs the preload helper and lazyWidget (0.9 KiB:
 * the wizard's dictionary step, 132.4 since, and the settings pages with a confirmation, still under
 * the bar). The shell holds the default page size and "Clear search" (contracts/values/common.ts)
 * so that a page's search form no longer brings the pagination's chunk. On 2026-11-30 (56 pages over,
 * heaviest the wizard's dictionary step at 132.4 KiB): class-variance-authority replaced by two lookups
 * (−0.2 KiB on every page); Vite's preload helper replaced by one that only calls the import, in the
 * shell (leanPreloadHelper below: 51 over); the error page loaded on demand (route-error.tsx, ON_DEMAND:
 * 32 over); the root's and the shell's route modules in the shell chunk, their own files re-exports
 * (−0.3 KiB on every page); the session check's code loaded once the page is interactive (−0.1 KiB): 30
 * pages over, the heaviest that step at 130.3 KiB (the shell chunk 8.07 kB gzip, with the two route modules
 * it now holds). Moving the workspace paths out of the shell (they
 * are only a workspace page's) took 5 other pages under but 10 workspace pages over: 37.
 *
 * The bar is each page's, not the sum over pages: the light pages (115 KiB) have room the heavy ones do not.
 * So the small pieces the heavy pages (forms, lists, a workspace's steps) load, each its own chunk of
 * 0.1–1 KiB compressed alone, are in the shell too (SHARED_PIECES): a status button and its pending hook,
 * a list's search form, search field, pagination and table, the time and count formats, a project's status
 * badge and "load the source" link, the revalidation rule. Pages without them carry them (the lightest page
 * 115.1 → 117.2 KiB); the heavy pages gain what separate files lost (30 → 17 pages over, heaviest 130.3 →
 * 129.1 KiB, measured by jsw, a copy of the bench's js-weight.ts, on builds of 2026-11-30 before a history
 * entry's words moved into its loader). A job's poll (JOB_POLL: the auto-refresh, the live jobs, the live
 * poll and its page refresh) is one chunk, and so are a template's paths and status badge with the template
 * values (TEMPLATE_PATHS); the project values (labels) keep a chunk of their own, which a job's progress
 * would otherwise take in and bring to every page with a label (with the pieces in the shell and the entry's
 * words: 21 → 13 over). A job's progress was in the poll's chunk until the wizard's databases step, which
 * polls at once but shows a job only once its creation started, loaded it on demand (followed-job.tsx): that
 * step 130.3 → 128.9 KiB, the run pages and the translation page −2.0 KiB, the background-process page and a
 * history entry, which load both, +0.35 KiB (two chunks where there was one). A column
 * type's format (contracts/values/column-type.ts) and the dictionary's formats are one chunk (COLUMN_FORMAT:
 * 10 over, heaviest the wizard's dictionary step at 128.5 KiB, 24 pages less than 0.5 KiB under). Grouping
 * the dictionary's tables list and sample form the same way took 116 pages over (even the sign-in callback
 * then loaded that chunk and the fields): a manual chunk takes in the modules it imports that no other manual
 * chunk holds (as the job's progress took the project values), so every group is measured on all 193 pages.
 * README's "What is left" says the way on.
 */
const SHELL = [
  /\/app\/components\/layout\//,
  /\/app\/components\/ui\/(button|card|alert|icon|icon-names|text-separator)\.tsx?$/,
  /\/app\/lib\/(utils|company-href|menu|nonce|access|workspace-paths|flash)\.ts$/,
  /\/app\/lib\/lazy-widget\.tsx$/,
  /\/app\/(root|routes\/shell)\.tsx(\?.*)?$/,
  /\/contracts\/values\/client-portal\.ts$/,
  /\/contracts\/(roles|areas|workspaces)\.ts$/,
  /\/contracts\/values\/common\.ts$/,
  /\/node_modules\/clsx\//,
];

const SHARED_PIECES = [
  /\/app\/components\/(forms\/status-button|projects\/(use-intent-pending|project-status-badge|load-source-link|format))\.tsx?$/,
  /\/app\/components\/ui\/(pagination|table|list-search-form|search-field)\.tsx$/,
  /\/app\/lib\/(list-search|revalidate)\.ts$/,
];

// The form helpers and the field components every form uses: one chunk, as they were before a widget's
// chunk (the confirmation card, decision 029) importing both made Rollup split them, at 0.26 KiB on 70 pages.
const FORMS = /\/app\/(lib\/forms\.ts|components\/forms\/fields\.tsx)$/;

const PROJECT_VALUES = /\/contracts\/values\/projects\.ts$/;
const JOB_POLL = /\/app\/(components\/projects\/(auto-refresh|live-jobs)|lib\/(live-poll|page-refresh))\.tsx?$/;
const COLUMN_FORMAT = /\/(app\/components\/dictionary\/column-format|contracts\/values\/column-type)\.ts$/;
// The wizard's step indicator and the indicator it draws: every page with one has both, and apart they were two
// chunks of 0.3 and 0.6 KiB (one 0.74 KiB).
const WIZARD_STEPS = /\/app\/components\/(projects\/wizard-steps|ui\/step-indicator)\.tsx$/;
const TEMPLATE_PATHS = /\/(app\/routes\/templates\/(paths|template-status-badge)|contracts\/values\/templates)\.tsx?$/;

// Vite's helper around every dynamic import (\0vite/preload-helper.js, 0.6 KiB gzip on each page with one)
// preloads the imported chunk's own imports beside it. With `modulePreload: false` it is given none
// to preload (on-demand chunks' imports are fetched when they arrive, most of them loaded already with
// the page); this one only calls the import.
const PRELOAD_HELPER = "\0vite/preload-helper.js";
// Where Vite writes a dynamic import's dependencies to preload (the stylesheet, with `modulePreload: false`): the helper
// never reads them, and left to Vite they became a table of file names at the head of every chunk with a dynamic import
// (0.1 KiB gzip each). It gets `void 0` instead, and Vite then writes no table.
const PRELOAD_MARKER = "__VITE_PRELOAD__";
export const withoutPreloadDeps = (code: string): string | null => (code.includes(PRELOAD_MARKER) ? code.replaceAll(PRELOAD_MARKER, "void 0") : null);
const leanPreloadHelper: Plugin = {
  name: "lean-preload-helper",
  enforce: "pre",
  resolveId: (id) => (id === PRELOAD_HELPER ? id : undefined),
  load: (id) => (id === PRELOAD_HELPER ? "export const __vitePreload = (load) => load();" : undefined),
  renderChunk: withoutPreloadDeps,
};

// React Router's package exports only its development build (dist/development, for every condition:
// remix-run/react-router#12532); its production build (dist/production) differs by one flag,
// ENABLE_DEV_WARNINGS, false there, which lets the minifier drop the developer warnings. The browser's
// build takes the production one; the server's is left as the package gives it (decision 032).
// (app/client-imports.test.ts checks that the files are there and the flag is off.)
const ROUTER_BUILD = path.join(path.dirname(createRequire(import.meta.url).resolve("react-router/package.json")), "dist/production");
const ROUTER_ENTRIES: Record<string, string> = { "react-router": "index.mjs", "react-router/dom": "dom-export.mjs" };
export const productionRouterFile = (id: string): string | undefined => (id in ROUTER_ENTRIES ? path.join(ROUTER_BUILD, ROUTER_ENTRIES[id]!) : undefined);
const productionRouter: Plugin = {
  name: "production-router",
  enforce: "pre",
  applyToEnvironment: (environment) => environment.name === "client",
  resolveId: productionRouterFile,
};

// Layout pieces a page needs only when it fails (the error page, route-error.tsx) or once it is interactive
// (the session check, session-watcher.tsx): loaded on demand, not in the shell.
const ON_DEMAND = /\/app\/components\/layout\/(route-error-page|sign-in-unavailable|session-check)\.tsx?$/;

/**
 * The root's route module as the shell chunk itself. Every route module is an entry of the client's build, and
 * React Router keeps their signatures ("exports-only"): an entry whose module went into a manual chunk gets a file
 * of its own that only re-exports it from there (`export{… as default,… as Layout}`, 0.1 KiB gzip). Emitted again
 * with "allow-extension", the root module may be the shell chunk's entry: its exports are the chunk's, beside the
 * shell's own (minified names, none of them a route export React Router reads), so every page loads one file less.
 * Only the root: a chunk has one such module (the shell route would clash on `default`), and a route with a
 * `handle` would hand it to the root.
 */
const ROOT_ROUTE = /\/app\/root\.tsx\?/;
export const rootInTheShell: Plugin = {
  name: "root-in-the-shell",
  apply: "build",
  applyToEnvironment: (environment) => environment.name === "client",
  buildStart(options) {
    const input = Array.isArray(options.input) ? options.input : Object.values(options.input ?? {});
    for (const id of input.filter((entry) => ROOT_ROUTE.test(entry))) this.emitFile({ type: "chunk", id, name: "shell", preserveSignature: "allow-extension" });
  },
};

/**
 * Rollup writes into each chunk an import of every chunk its imports import (`hoistTransitiveImports`), so that a browser
 * asks for them at once when a navigation loads the chunk. The router's and the shell's chunks are loaded before any other
 * (the client entry imports the router, and the root's route module is the shell chunk): those imports, `import"./router-….js"`
 * in almost every chunk, ask for nothing and weighed some 10 B gzip each (61 B on the wizard's dictionary step). They are
 * left out; the others, of chunks a navigation may not have loaded yet, stay.
 */
const LOADED_FIRST = new Set(["router", "shell"]);
export function withoutImportsOfLoadedFirst(code: string, imports: readonly string[], nameOf: (file: string) => string | undefined): string | null {
  let out = code;
  for (const file of imports.filter((imported) => LOADED_FIRST.has(nameOf(imported) ?? ""))) {
    const bare = `import '${"./" + path.posix.basename(file)}';`;
    out = out.replaceAll(`${bare}\n`, "").replaceAll(bare, "");
  }
  return out === code ? null : out;
}
const loadedFirstImports: Plugin = {
  name: "loaded-first-imports",
  apply: "build",
  enforce: "pre",
  applyToEnvironment: (environment) => environment.name === "client",
  renderChunk: (code, chunk, _options, meta) => withoutImportsOfLoadedFirst(code, chunk.imports, (file) => meta.chunks[file]?.name),
};

export function chunkOf(id: string): string | undefined {
  const file = id.split(path.sep).join("/");
  if (ON_DEMAND.test(file)) return undefined;
  if (file.includes("/node_modules/react-router/")) return "router";
  if (id === PRELOAD_HELPER) return "shell";
  if ([...SHELL, ...SHARED_PIECES].some((pattern) => pattern.test(file))) return "shell";
  if (FORMS.test(file)) return "fields";
  if (PROJECT_VALUES.test(file)) return "project-values";
  if (JOB_POLL.test(file)) return "job-poll";
  if (TEMPLATE_PATHS.test(file)) return "template-paths";
  if (COLUMN_FORMAT.test(file)) return "column-format";
  if (WIZARD_STEPS.test(file)) return "wizard-steps";
  return undefined;
}

export default defineConfig({
  plugins: [leanPreloadHelper, productionRouter, rootInTheShell, loadedFirstImports, tailwindcss(), reactRouter()],
  // Vite 7 ignores tsconfig `paths`; keep `~` in step with tsconfig.app.json.
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  // Terser rather than esbuild's minifier, two passes, as ES modules: what every page downloads first
  // (React, React Router, the shell) is 2.6 KiB gzip smaller (pages over issue 8's bar then: 12 of
  // 178, were 45), for some ten seconds more of build. Its `unsafe` options would take 0.4 KiB more, and
  // are not worth a wrong page. It writes ES2020 (shorter forms, such as `a ?? b`) and leaves out Safari 10's
  // workarounds, which Vite asks for by default: the build's target (Vite's baseline-widely-available,
  // Safari 16.4 and its peers) has all of ES2020 (−0.25 KiB on the heaviest page, 2026-11-30).
  build: {
    modulePreload: false,
    minify: "terser",
    terserOptions: { ecma: 2020, safari10: false, module: true, compress: { passes: 2 }, format: { comments: false } },
  },
  environments: { client: { build: { rollupOptions: { output: { manualChunks: chunkOf } } } } },
});
