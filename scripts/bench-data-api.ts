/**
 * `npx tsx scripts/bench-data-api.ts`: the data API's read endpoints under load, beside Hono's
 * hello world on @hono/node-server measured in the same run (the issue 8 anchor).
 *
 * Two servers are loaded one after the other with the bench's load runs (scripts/bench/measure.ts:
 * autocannon, 50 connections, 10 s after a 2 s warm-up): Hono's hello world (port 4321, the bench's
 * anchor, scripts/bench/anchors/hono-hello.ts), and the data API's bundle as `npm run start:data-api` runs it
 * (`npm run build` first; port 4320, a temporary SQLite DATA_DIR, the demo seed and 30 projects in Acme Health). This
 * process stands in for the client portal (port 4322): it serves the JWKS the data API verifies
 * tokens with and the permissions it asks for, so the tokens are real RS256 JWTs checked as in
 * production. CPU per request is the server process's utime + stime (/proc/<pid>/stat) over the
 * measured seconds, divided by the requests answered.
 *
 * Options: --duration <s> (10), --connections <n> (50), --only <name> (one case), --prof (the data
 * API writes a .cpuprofile to the DATA_DIR, printed at the end).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { SignJWT, exportJWK, generateKeyPair } from "jose";
import { DEFAULT_ROLES_CLAIM } from "../contracts/roles.ts";
import { load, startProcess } from "./bench/measure.ts";
import { DEMO_COMPANIES, demoUsers } from "./demo-data.ts";

const DATA_API_PORT = 4320;
const HELLO_PORT = 4321;
const PORTAL_PORT = 4322;
const ISSUER = `http://localhost:${PORTAL_PORT}`;
const AUDIENCE = "urn:data-transformation:api";
const ROOT = path.resolve(import.meta.dirname, "..");

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    only: { type: "string" },
    prof: { type: "boolean", default: false },
  },
});

await main();

async function main() {
  const duration = Number(args.duration);
  const connections = Number(args.connections);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-data-api-"));
  const users = demoUsers();
  const analyst = users.find((u) => u.email === "analyst@demo.test")!;
  const superAdmin = users.find((u) => u.email === "super@demo.test")!;
  const acme = DEMO_COMPANIES[1];

  // The client portal's part: signing keys (JWKS) and each user's permissions.
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "bench", alg: "RS256", use: "sig" };
  const asked = { jwks: 0, permissions: 0 };
  const portal = new Hono()
    .get("/jwks", (c) => (asked.jwks++, c.json({ keys: [jwk] })))
    .get("/api/v1/permissions/:userId", (c) => (asked.permissions++, c.json(users.find((u) => u.id === c.req.param("userId"))?.permissions ?? [])));
  const portalServer = serve({ fetch: portal.fetch, port: PORTAL_PORT });
  const token = (user: { id: string; roles: string }) =>
    new SignJWT({ [DEFAULT_ROLES_CLAIM]: user.roles, name: "Bench" })
      .setProtectedHeader({ alg: "RS256", kid: "bench" })
      .setSubject(user.id)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(privateKey);
  const analystToken = await token(analyst);
  const adminToken = await token(superAdmin);

  // The servers, each its own process (its pid is the server's), as the bench starts them (scripts/bench/).
  const servers: { stop(): Promise<void> }[] = [];
  try {
    const tsx = ["--import", "tsx"];
    const hello = await startProcess([...tsx, path.join(ROOT, "scripts/bench/anchors/hono-hello.ts")], {
      cwd: ROOT,
      env: { PORT: String(HELLO_PORT), NODE_ENV: "production" },
      url: `http://localhost:${HELLO_PORT}/`,
    });
    servers.push(hello);
    const dataApi = await startProcess(
      [...(args.prof ? ["--cpu-prof", `--cpu-prof-dir=${dataDir}`] : []), path.join(ROOT, "build/services/data-api.mjs")],
      {
        cwd: ROOT,
        env: {
          NODE_ENV: "production",
          DATA_API_PORT: String(DATA_API_PORT),
          DATA_DIR: dataDir,
          SEED_DEMO: "1",
          SEED_DEMO_CONTENT: "1",
          OIDC_ISSUER: ISSUER,
          OIDC_JWKS_URL: `${ISSUER}/jwks`,
          CLIENT_PORTAL_API_URL: ISSUER,
        },
        url: `http://localhost:${DATA_API_PORT}/healthz`,
      },
    );
    servers.push(dataApi);
    await seedProjects(acme.id, analystToken, 30);

    const api = `http://localhost:${DATA_API_PORT}/api/v1`;
    const cases: { name: string; pid: number; url: string; token?: string }[] = [
      { name: "hello world", pid: hello.pid, url: `http://localhost:${HELLO_PORT}/` },
      { name: "productInfo (auth only)", pid: dataApi.pid, url: `${api}/productInfo`, token: analystToken },
      { name: "projects/search (analyst)", pid: dataApi.pid, url: `${api}/projects/search?companyId=${acme.id}`, token: analystToken },
      { name: "projects/search, 1 row", pid: dataApi.pid, url: `${api}/projects/search?companyId=${acme.id}&name=project%207`, token: analystToken },
      { name: "projects/search (admin)", pid: dataApi.pid, url: `${api}/projects/search?companyId=${acme.id}`, token: adminToken },
      { name: "companies/all (analyst)", pid: dataApi.pid, url: `${api}/companies/all`, token: analystToken },
      { name: "applications (analyst)", pid: dataApi.pid, url: `${api}/applications?companyId=${acme.id}`, token: analystToken },
      { name: "data-dictionaries (analyst)", pid: dataApi.pid, url: `${api}/data-dictionaries?companyId=${acme.id}`, token: analystToken },
    ];

    const results = [];
    for (const c of cases.filter((c) => !args.only || c.name.startsWith(args.only))) {
      const headers: Record<string, string> = c.token ? { authorization: `Bearer ${c.token}` } : {};
      const check = await fetch(c.url, { headers });
      if (!check.ok) throw new Error(`${c.name}: ${check.status} ${await check.text()}`);
      const result = await load(c.url, { pids: [c.pid], headers, connections, seconds: duration });
      if (result.errors) throw new Error(`${c.name}: ${result.errors} answers that were not 2xx, errors or timeouts`);
      results.push({ name: c.name, rps: result.rps, p99: result.p99, cpuPerRequest: result.cpuMsPerRequest });
    }

    const anchor = results.find((r) => r.name === "hello world");
    console.log(`\n${connections} connections, ${duration} s each, on ${os.cpus().length} cores`);
    console.log("case".padEnd(30), "req/s".padStart(8), "p99 ms".padStart(7), "CPU ms/req".padStart(11), anchor ? "× hello".padStart(8) : "");
    for (const r of results) {
      console.log(
        r.name.padEnd(30),
        r.rps.toFixed(0).padStart(8),
        String(r.p99).padStart(7),
        r.cpuPerRequest.toFixed(3).padStart(11),
        anchor ? (r.rps / anchor.rps).toFixed(2).padStart(8) : "",
      );
    }
    // The data API's caches at work: keys fetched once, permissions once per token per 30 s.
    console.log(`the data API asked the portal stand-in for its keys ${asked.jwks} times, for permissions ${asked.permissions} times`);
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    portalServer.close();
    if (args.prof)
      console.log(
        `profiles: ${fs
          .readdirSync(dataDir)
          .filter((f) => f.endsWith(".cpuprofile"))
          .map((f) => path.join(dataDir, f))
          .join(", ")}`,
      );
    else fs.rmSync(dataDir, { recursive: true, force: true });
  }

  async function seedProjects(companyId: string, bearer: string, count: number) {
    const headers = { authorization: `Bearer ${bearer}`, "content-type": "application/json" };
    const apps = await (await fetch(`http://localhost:${DATA_API_PORT}/api/v1/applications?companyId=${companyId}`, { headers })).json();
    const applicationId = apps.items[0].id;
    for (let i = 1; i <= count; i++) {
      const body = { companyId, applicationId, name: `Bench project ${i}`, sourceType: "FlatFile", description: `Project ${i} of the benchmark` };
      const res = await fetch(`http://localhost:${DATA_API_PORT}/api/v1/projects`, { method: "POST", headers, body: JSON.stringify(body) });
      if (res.status !== 201) throw new Error(`seeding a project: ${res.status} ${await res.text()}`);
    }
  }
}
