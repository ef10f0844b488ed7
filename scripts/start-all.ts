/**
 * `npm start`: the portal, the client-portal reference service and the data API reference service in
 * one terminal, on the embedded default (SQLite files under DATA_DIR) with the demo tenant seeded.
 *
 * The three run as production processes. Instead of development defaults, which production refuses,
 * this script generates random secrets once and keeps them in DATA_DIR/.secrets.json (mode 0600), so
 * sessions survive a restart.
 *
 * Supervision (scripts/supervisor.ts): a process that dies is started again after 1 s, 2 s, 4 s …
 * (at most 30 s; the delay starts over once it has been healthy for a minute), each death and restart
 * logged with its exit code or signal. One that cannot become healthy at first start (port in use, bad
 * configuration) gets three attempts, then all three are stopped and this script exits with 1.
 * Ctrl-C (or SIGTERM) stops all three and restarts none.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { EnvError, envFields, parseEnv } from "../contracts/env.ts";
import { embeddedPostgresRunning } from "../services/data-api/src/data-plane/embedded-postgres.ts";
import { DATA_API_NODE_FLAGS, PORTAL_NODE_FLAGS } from "./node-flags.ts";
import { Supervisor } from "./supervisor.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = process.env;

/**
 * The three ports and the embedded PostgreSQL's, read as the processes read theirs: a bad one is named (not a stack
 * trace), before anything is written.
 */
function readPorts() {
  const schema = z.object({
    PORTAL_PORT: envFields.port(3000),
    CLIENT_PORTAL_PORT: envFields.port(3001),
    DATA_API_PORT: envFields.port(3002),
    EMBEDDED_POSTGRES_PORT: envFields.port(5433),
  });
  try {
    const parsed = parseEnv("npm start", schema, env);
    return {
      servers: { portal: parsed.PORTAL_PORT, clientPortal: parsed.CLIENT_PORTAL_PORT, dataApi: parsed.DATA_API_PORT },
      embeddedPostgres: parsed.EMBEDDED_POSTGRES_PORT,
    };
  } catch (err) {
    if (!(err instanceof EnvError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}

const { servers: ports, embeddedPostgres: embeddedPostgresPort } = readPorts();
const dataDir = path.resolve(root, env.DATA_DIR ?? "data");
const host = env.PUBLIC_HOST ?? "localhost";
const urls = {
  portal: env.PORTAL_URL ?? `http://${host}:${ports.portal}`,
  clientPortal: env.CLIENT_PORTAL_URL ?? `http://${host}:${ports.clientPortal}`,
  dataApi: env.DATA_API_URL ?? `http://${host}:${ports.dataApi}`,
};

type Secrets = { sessionSecret: string; portalClientSecret: string; oidcCookieKey: string };

function loadOrCreateSecrets(): Secrets {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, ".secrets.json");
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8")) as Secrets;
  const secret = () => crypto.randomBytes(32).toString("base64url");
  const secrets: Secrets = { sessionSecret: secret(), portalClientSecret: secret(), oidcCookieKey: secret() };
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

const secrets = loadOrCreateSecrets();
const shared = {
  ...env,
  NODE_ENV: env.NODE_ENV ?? "production",
  DATA_DIR: dataDir,
  SEED_DEMO: env.SEED_DEMO ?? "true",
  SEED_DEMO_CONTENT: env.SEED_DEMO_CONTENT ?? "true",
  OIDC_ISSUER: urls.clientPortal,
  CLIENT_PORTAL_URL: urls.clientPortal,
  CLIENT_PORTAL_API_URL: env.CLIENT_PORTAL_API_URL ?? urls.clientPortal,
  DATA_API_URL: urls.dataApi,
  PORTAL_URL: urls.portal,
};

const processes: { name: string; args: string[]; env: NodeJS.ProcessEnv; health: string }[] = [
  {
    name: "client-portal",
    args: ["build/services/client-portal.mjs"],
    env: {
      ...shared,
      CLIENT_PORTAL_PORT: String(ports.clientPortal),
      PORTAL_CLIENT_SECRET: env.PORTAL_CLIENT_SECRET ?? secrets.portalClientSecret,
      PORTAL_REDIRECT_URIS: env.PORTAL_REDIRECT_URIS ?? `${urls.portal}/auth/callback`,
      PORTAL_POST_LOGOUT_REDIRECT_URIS: env.PORTAL_POST_LOGOUT_REDIRECT_URIS ?? `${urls.portal}/`,
      OIDC_COOKIE_KEYS: env.OIDC_COOKIE_KEYS ?? secrets.oidcCookieKey,
    },
    health: `${urls.clientPortal}/healthz`,
  },
  {
    name: "data-api",
    // Memory stays flat under uploads and loads (docs/decisions/014): a small young generation, and
    // glibc's malloc kept to two arenas so what the parse worker's thread freed goes back to the system.
    args: [...DATA_API_NODE_FLAGS, "build/services/data-api.mjs"],
    env: { MALLOC_ARENA_MAX: "2", ...shared, DATA_API_PORT: String(ports.dataApi) },
    health: `${urls.dataApi}/healthz`,
  },
  {
    name: "portal",
    // Its own server entry (server/server.ts, decision 031) serving the React Router build.
    args: [...PORTAL_NODE_FLAGS, "build/services/portal.mjs"],
    env: {
      ...shared,
      PORT: String(ports.portal),
      OIDC_CLIENT_SECRET: env.OIDC_CLIENT_SECRET ?? secrets.portalClientSecret,
      SESSION_SECRETS: env.SESSION_SECRETS ?? secrets.sessionSecret,
    },
    health: `${urls.portal}/healthz`,
  },
];

/**
 * Refuses to start on a port something else holds: its health check would answer for our process (and the embedded
 * PostgreSQL would fail to start three times over). `host`: where the server listens, every interface unless said.
 */
async function portIsFree(port: number, host?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

const portNames = { portal: "PORTAL_PORT", clientPortal: "CLIENT_PORTAL_PORT", dataApi: "DATA_API_PORT" } as const;
const wanted: { port: number; name: string; host?: string }[] = [];
// The embedded PostgreSQL, unless project databases are on servers of their own: on loopback only. The one of this
// DATA_DIR left running by a data API that was killed holds its port itself, and the data API uses it.
if (!env.PROJECT_DATABASES_URL?.trim() && !embeddedPostgresRunning(dataDir))
  wanted.push({ port: embeddedPostgresPort, name: "EMBEDDED_POSTGRES_PORT", host: "127.0.0.1" });
for (const [key, port] of Object.entries(ports) as [keyof typeof ports, number][]) wanted.push({ port, name: portNames[key] });
for (const { port, name, host: on } of wanted) {
  if (!(await portIsFree(port, on))) {
    console.error(`Port ${port} is already in use (another \`npm start\`?). Stop what holds it, or choose another port with ${name}.`);
    process.exit(1);
  }
}

if (!["build/server/index.js", ...processes.map((p) => p.args.at(-1)!)].every((file) => fs.existsSync(path.join(root, file)))) {
  console.error("The product is not built yet: run `npm run build` first (`npm start` does it for you).");
  process.exit(1);
}

const supervisor = new Supervisor(
  processes.map((p) => ({
    name: p.name,
    command: process.execPath,
    args: p.args,
    cwd: root,
    env: p.env,
    isHealthy: () => fetch(p.health, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false),
  })),
);

let shuttingDown = false;
function shutdown(signal: NodeJS.Signals) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.error(`[start] ${signal}: stopping all three.`);
  void supervisor.stop().then(() => process.exit(0));
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
process.on("SIGHUP", shutdown);

try {
  if (await supervisor.start()) {
    console.log(`\n  Data Transformation is running: ${urls.portal}\n  Demo users: see README.md (password "demo"). Ctrl-C stops all three.\n`);
  }
} catch (err) {
  console.error(`\n  Data Transformation could not start: ${(err as Error).message}.\n`);
  process.exit(1);
}
