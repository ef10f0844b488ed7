/**
 * The anchor for the portal: a bare React Router app of the same versions (this checkout's
 * node_modules), one server-rendered page whose loader answers a 10-row table. Built into a temporary
 * folder on every bench run, so both are measured on the same machine in the same run.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../../..");

const ourPackage = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
// react-router-serve, the bare app's server, is ours only as a development dependency: the portal has its own (decision 031).
const ourVersion = (name: string) => ourPackage.dependencies[name] ?? ourPackage.devDependencies[name];

const FILES: Record<string, string> = {
  // React Router reads the runtime from the dependencies; the versions are this checkout's.
  "package.json": JSON.stringify({
    name: "bare-react-router",
    private: true,
    type: "module",
    dependencies: Object.fromEntries(
      ["@react-router/node", "@react-router/serve", "react-router", "react", "react-dom", "isbot"].map((name) => [name, ourVersion(name)]),
    ),
  }),
  "react-router.config.ts": `export default { ssr: true };\n`,
  "vite.config.ts": `import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
export default defineConfig({ plugins: [reactRouter()] });
`,
  "app/routes.ts": `import { index, type RouteConfig } from "@react-router/dev/routes";
export default [index("routes/home.tsx")] satisfies RouteConfig;
`,
  "app/root.tsx": `import { Links, Meta, Outlet, Scripts, ScrollRestoration } from "react-router";
export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}
export default function App() {
  return <Outlet />;
}
`,
  "app/routes/home.tsx": `import { Link, useLoaderData } from "react-router";
export function meta() {
  return [{ title: "Projects" }];
}
export async function loader() {
  return {
    rows: Array.from({ length: 10 }, (_, i) => ({ id: String(i + 1), name: \`Project \${i + 1}\`, status: "Active", owner: "Ann Analyst" })),
  };
}
export default function Home() {
  const { rows } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>Projects</h1>
      <table>
        <thead><tr><th>Name</th><th>Status</th><th>Owner</th></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}><td><Link to={\`/?id=\${r.id}\`}>{r.name}</Link></td><td>{r.status}</td><td>{r.owner}</td></tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
`,
};

/** Writes and builds the bare app; answers its folder (build/ inside). */
export function buildBareApp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-bench-bare-"));
  for (const [file, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  execFileSync(process.execPath, [path.join(ROOT, "node_modules/@react-router/dev/bin.js"), "build"], {
    cwd: dir,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NODE_ENV: "production" },
  });
  return dir;
}
