/**
 * `npm start`: the portal, the client-portal reference service and the data API reference service in
 * one terminal, on the embedded default (SQLite files under DATA_DIR) with the demo tenant seeded.
 *
 * The three run as production processes. Instead of development defaults, which production refuses,
 * this script generates random secrets once and keeps them in DATA_DIR/.secrets.json (mode 0600), so
 * sessions survive a restart. Ctrl-C (or SIGTERM) stops all three; if one dies, the others are stopped.
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = process.env;

const dataDir = path.resolve(root, env.DATA_DIR ?? "data");
const ports = {
  portal: Number(env.PORTAL_PORT ?? 3000),
  clientPortal: Number(env.CLIENT_PORTAL_PORT ?? 3001),
  dataApi: Number(env.DATA_API_PORT ?? 3002),
};
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

const tsx = ["--import", "tsx"];
const processes: { name: string; args: string[]; env: NodeJS.ProcessEnv; health: string }[] = [
  {
    name: "client-portal",
    args: [...tsx, "services/client-portal/src/server.ts"],
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
    args: [...tsx, "services/data-api/src/server.ts"],
    env: { ...shared, DATA_API_PORT: String(ports.dataApi) },
    health: `${urls.dataApi}/healthz`,
  },
  {
    name: "portal",
    args: [path.join(root, "node_modules/@react-router/serve/bin.js"), "build/server/index.js"],
    env: {
      ...shared,
      PORT: String(ports.portal),
      OIDC_CLIENT_SECRET: env.OIDC_CLIENT_SECRET ?? secrets.portalClientSecret,
      SESSION_SECRETS: env.SESSION_SECRETS ?? secrets.sessionSecret,
    },
    health: `${urls.portal}/healthz`,
  },
];

if (!fs.existsSync(path.join(root, "build/server/index.js"))) {
  console.error("The portal is not built yet: run `npm run build` first (`npm start` does it for you).");
  process.exit(1);
}

const children = new Map<string, ChildProcess>();
let stopping = false;

function prefixLines(name: string, stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) {
  let buffer = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) out.write(`[${name}] ${line}\n`);
  });
  stream.on("end", () => buffer && out.write(`[${name}] ${buffer}\n`));
}

for (const p of processes) {
  const child = spawn(process.execPath, p.args, { cwd: root, env: p.env, stdio: ["ignore", "pipe", "pipe"] });
  children.set(p.name, child);
  prefixLines(p.name, child.stdout!, process.stdout);
  prefixLines(p.name, child.stderr!, process.stderr);
  child.on("exit", (code, signal) => {
    children.delete(p.name);
    if (!stopping) {
      console.error(`[start] ${p.name} stopped (${signal ?? `exit ${code}`}); stopping the others.`);
      stop(code || 1);
    } else if (children.size === 0) {
      process.exit(exitCode);
    }
  });
}

let exitCode = 0;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  for (const child of children.values()) child.kill("SIGTERM");
  if (children.size === 0) process.exit(code);
  // A process that ignores SIGTERM is not allowed to hold the terminal.
  setTimeout(() => {
    for (const child of children.values()) child.kill("SIGKILL");
    process.exit(code || 1);
  }, 10_000).unref();
}

process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

async function announceWhenReady() {
  const deadline = Date.now() + 120_000;
  for (const p of processes) {
    while (!stopping && Date.now() < deadline) {
      const ok = await fetch(p.health).then((r) => r.ok, () => false);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  if (!stopping) {
    console.log(`\n  Data Transformation is running: ${urls.portal}\n  Demo users: see README.md (password "demo"). Ctrl-C stops all three.\n`);
  }
}
void announceWhenReady();
