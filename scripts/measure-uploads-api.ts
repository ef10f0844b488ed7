/**
 * Measures dictionary uploads end to end on the data API (not the portal): an app on a fresh SQLite
 * database under /tmp served on port 4331, files uploaded with curl, /healthz polled every 20 ms by
 * another process meanwhile. Prints each upload's time, this process's peak RSS (worker included),
 * the worst /healthz latency and the size of the review's first pages. Files are generated (once)
 * into the folder given: a 50 MB CSV and a 125k-row XLSX come from scripts/measure-uploads.ts.
 * Usage: node --expose-gc --import tsx scripts/measure-uploads-api.ts DIR FILE…
 *   (FILE among dictionary-50mb.csv, dictionary-125k.xlsx, dup-500k.csv, dict-75k.csv)
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import { randomUUID } from "node:crypto";
import type { PermissionEntry } from "../contracts/client-portal.ts";
import { demoUsers } from "./demo-data.ts";
import { createKysely } from "../services/shared/db.ts";
import { createLogger } from "../services/shared/logger.ts";
import { createTestSigner } from "../services/shared/testing/tokens.ts";
import { createHttpAdminDataSources } from "../services/data-api/src/admin-data-sources.ts";
import { createApp } from "../services/data-api/src/app.ts";
import { createHttpCompanyUsersSource } from "../services/data-api/src/company-users.ts";
import { migrateDatabase } from "../services/data-api/src/db/migrate.ts";
import type { Database } from "../services/data-api/src/db/schema.ts";
import { createJobRunner } from "../services/data-api/src/jobs/runner.ts";
import { createHttpPermissionsSource } from "../services/data-api/src/permissions.ts";
import { seedDemo } from "../services/data-api/src/seed.ts";
import { createAdminDataSourcesStub } from "../services/data-api/src/testing/admin-data-sources-stub.ts";
import { CLIENT_PORTAL_TEST_URL, createClientPortalStub } from "../services/data-api/src/testing/client-portal-stub.ts";
import { createCompanyUsersStub } from "../services/data-api/src/testing/company-users-stub.ts";
import { seedDictionary } from "../services/data-api/src/testing/dictionary-fixtures.ts";
import { DEMO_COMPANIES } from "./demo-data.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "measure-uploads-data-"));
const db = createKysely<Database>(path.join(dataDir, "data-api.sqlite"));
await migrateDatabase(db);
await seedDemo(db);
const users = demoUsers();
const signer = await createTestSigner();
const clientPortal = createClientPortalStub(signer.bearer, new Map<string, PermissionEntry[]>(users.map((u) => [u.id, u.permissions])));
const app = createApp({
  db,
  logger: createLogger("measure", "silent"),
  bearer: signer.bearer,
  permissions: createHttpPermissionsSource({ baseUrl: CLIENT_PORTAL_TEST_URL, fetch: clientPortal.fetch }),
  version: "measure",
  dataDir,
  jobs: createJobRunner(),
  companyUsers: createHttpCompanyUsersSource({ baseUrl: CLIENT_PORTAL_TEST_URL, fetch: createCompanyUsersStub(signer.bearer, users) }),
  adminDataSources: createHttpAdminDataSources({ baseUrl: CLIENT_PORTAL_TEST_URL, fetch: createAdminDataSourcesStub(signer.bearer, users).fetch }),
});
const analyst = users.find((u) => u.email === "analyst@demo.test")!;
const api = { app, close: async () => { await db.destroy(); fs.rmSync(dataDir, { recursive: true, force: true }); } } as any;

const PORT = 4331;
const [dir = "/tmp/measure-uploads", ...files] = process.argv.slice(2);
fs.mkdirSync(dir, { recursive: true });
/** The /healthz poller, a process of its own: prints the worst latency once its stdin closes. */
const POLLER = "// Polls a URL every 20 ms until stdin closes; prints the worst latency and count.\nimport http from \"node:http\";\nconst url = process.argv.at(-1);\nlet worst = 0, n = 0, stop = false;\nprocess.stdin.on(\"end\", () => { stop = true; }); process.stdin.resume();\nconst once = () => new Promise((resolve) => { const t = performance.now(); http.get(url, (res) => { res.resume(); res.on(\"end\", () => resolve(performance.now() - t)); }).on(\"error\", () => resolve(-1)); });\nwhile (!stop) { const ms = await once(); worst = Math.max(worst, ms); n++; await new Promise((r) => setTimeout(r, 20)); }\nconsole.log(JSON.stringify({ worst: Math.round(worst), polls: n }));\n";
const server = serve({ fetch: app.fetch, port: PORT });
const token = await signer.token(analyst.id, analyst.roles, { claims: { jti: randomUUID() } });
const HEADER = "table,column,type,length,precision,scale,nullable,key,description";
const dup = path.join(dir, "dup-500k.csv");
if (!fs.existsSync(dup)) fs.writeFileSync(dup, HEADER + "\n" + "Orders,Id,int,,,,,,\n".repeat(500_000));
const dict75 = path.join(dir, "dict-75k.csv");
if (!fs.existsSync(dict75)) fs.writeFileSync(dict75, HEADER + "\n" + Array.from({ length: 75_000 }, (_, i) => `Table${Math.floor(i / 25)},Column${i % 25},nvarchar,${10 + (i % 90)},,,yes,,Column ${i} of the system`).join("\n"));

async function measure(file: string) {
  const dict = await seedDictionary(api, token, DEMO_COMPANIES[1]!.id);
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const poller = spawn(process.execPath, ["--input-type=module", "-e", POLLER, "--", `http://127.0.0.1:${PORT}/healthz`], { stdio: ["pipe", "pipe", "inherit"] });
  let polled = "";
  poller.stdout.on("data", (d) => (polled += d));
  await new Promise((r) => setTimeout(r, 200));
  const started = performance.now();
  const out = await new Promise<string>((resolve) => {
    const curl = spawn("curl", ["-s", "-H", `authorization: Bearer ${token}`, "-F", `file=@${file}`, `http://127.0.0.1:${PORT}/api/v1/data-dictionaries/${dict.id}/bulk-uploads`]);
    let body = "";
    curl.stdout.on("data", (d) => (body += d));
    curl.on("close", () => resolve(body));
  });
  const ms = performance.now() - started;
  poller.stdin.end();
  await new Promise((r) => poller.on("close", r));
  clearInterval(sampler);
  const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
  console.log(`${path.basename(file)}: ${(ms / 1000).toFixed(2)} s, RSS ${mb(before)} → peak ${mb(peak)}, healthz ${polled.trim()}, answer ${out.slice(0, 240)}`);
  return { dict, review: JSON.parse(out) };
}

for (const f of files) {
  const { dict, review } = await measure(path.join(dir, f));
  const t = performance.now();
  const page = (what: string): Promise<string> => api.app.request(`/api/v1/data-dictionaries/${dict.id}/bulk-uploads/${review.id}/${what}?page=1&pageSize=${what === "tables" ? 10 : 50}`, { headers: { authorization: `Bearer ${token}` } }).then((r: Response) => r.text());
  const [tables, problems] = await Promise.all([page("tables"), page("problems")]);
  console.log(`  pages: tables ${tables.length} B, problems ${problems.length} B in ${Math.round(performance.now() - t)} ms`);
}
server.close();
await api.close();
process.exit(0);
