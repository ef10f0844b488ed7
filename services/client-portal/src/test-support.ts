/** Test helpers: a migrated database on either engine, and the whole service on a loopback port. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Kysely } from "kysely";
import { createKysely, type DatabaseKind } from "../../shared/db.ts";
import { createLogger } from "../../shared/logger.ts";
import { createTestDatabase } from "../../shared/testing/databases.ts";
import { createClientPortal, type ClientPortal, type ClientPortalOptions } from "./app.ts";
import { migrate } from "./db/migrations/index.ts";
import type { Database } from "./db/schema.ts";
import { loadEnv, type ClientPortalEnv } from "./env.ts";

export const silentLogger = createLogger("client-portal-test", "silent");

export async function createMigratedDatabase(kind: DatabaseKind) {
  const t = await createTestDatabase(kind);
  const db = createKysely<Database>(t.url);
  await migrate(db);
  return {
    url: t.url,
    db,
    drop: async () => {
      await db.destroy();
      await t.drop();
    },
  };
}

export function testEnv(overrides: Record<string, string> = {}): ClientPortalEnv {
  return loadEnv({ NODE_ENV: "test", CLIENT_PORTAL_DATABASE_URL: ":memory:", ...overrides });
}

export type RunningPortal = {
  baseUrl: string;
  env: ClientPortalEnv;
  portal: ClientPortal;
  /** A process restart at the same address: a fresh provider with nothing in memory, the same database. */
  restart: () => Promise<void>;
  /**
   * An outage: "refused" stops listening (connections refused), "503" answers every request with a
   * 503 (a proxy in front of a dead service), "hang" takes every request and never answers (packets
   * dropped past the connection), "up" serves again at the same address (the held requests cut).
   */
  outage: (mode: "refused" | "503" | "hang" | "up") => Promise<void>;
  stop: () => Promise<void>;
};

/** Starts the real listener on a free loopback port; the issuer is that address. */
export async function startPortal(
  db: Kysely<Database>,
  options: { env?: Record<string, string> } & Partial<Omit<ClientPortalOptions, "env" | "db">> = {},
): Promise<RunningPortal> {
  let listener: ClientPortal["listener"] | undefined;
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    if (hanging) {
      held.add(res);
      res.on("close", () => held.delete(res));
      return;
    }
    if (!unavailable) return listener!(req, res);
    res.writeHead(503, { "content-type": "text/plain" }).end("Service Unavailable");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  let unavailable = false;
  let hanging = false;
  const env = testEnv({ CLIENT_PORTAL_URL: baseUrl, ...options.env });
  const start = () => createClientPortal({ logger: silentLogger, ...options, env, db });
  const running: RunningPortal = {
    baseUrl,
    env,
    portal: await start(),
    restart: async () => {
      await running.portal.close();
      running.portal = await start();
      listener = running.portal.listener;
    },
    outage: async (mode) => {
      unavailable = mode === "503";
      hanging = mode === "hang";
      if (!hanging) for (const res of held) res.destroy();
      if (mode === "refused" && server.listening) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      } else if (mode !== "refused" && !server.listening) {
        await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
      }
    },
    stop: async () => {
      if (!server.listening) return running.portal.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await running.portal.close();
    },
  };
  listener = running.portal.listener;
  return running;
}

/** A browser's cookie handling, enough for one host: names only, paths ignored. */
export class CookieJar {
  private cookies = new Map<string, string>();

  store(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split("=")[1]!) < Date.now());
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** fetch without following redirects, sending and keeping cookies. */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("cookie", this.header());
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    this.store(res);
    return res;
  }
}
