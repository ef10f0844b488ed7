/**
 * The PostgreSQL servers that hold project databases (ARCHITECTURE.md §3a), reached through one
 * administrative connection each: the embedded server by default, or those PROJECT_DATABASES_URL
 * names. A project lives on one server and records its id (`projects.database_server`); new ones go
 * to the server with the fewest.
 *
 * Connections: a few per (database, login), made on first use and closed after a while idle, so a
 * page that reads a project's tables does not pay for a new connection each time; and at most half
 * of the server's max_connections in all (server-connections.ts), so that many busy projects do
 * not exhaust the server, and the other half stays for the loads' and runs' own connections and
 * for people connecting with SQL access.
 */
import { createHmac } from "node:crypto";
import pg from "pg";
import { createServerConnections, type ServerConnections } from "./server-connections.ts";

export type ProjectDatabaseServer = {
  /** Stable name of the server (host:port), recorded by each project it holds. */
  id: string;
  /** An administrative login: may create databases and roles. */
  adminUrl: string;
};

export type DataPlane = {
  readonly servers: readonly ProjectDatabaseServer[];
  /** The server of that id; throws when it is not configured (a project recorded on a server since removed). */
  server(id: string): ProjectDatabaseServer;
  /** Runs `work` on an administrative connection to `database` on `serverId` (the server's own database by default). */
  withAdmin<T>(serverId: string, database: string | null, work: (client: pg.ClientBase) => Promise<T>): Promise<T>;
  /** Runs `work` on a connection to `database` on `serverId` logged in as `login` (a project's own login). */
  withLogin<T>(serverId: string, database: string, login: string, work: (client: pg.ClientBase) => Promise<T>): Promise<T>;
  /**
   * The password of a project's own login, derived from the data plane's secret: stored nowhere,
   * known only to the data API.
   */
  passwordOf(login: string): string;
  /** The connection URL of `login` (a project's own login) to `database`: for a worker thread's own connection. */
  loginUrl(serverId: string, database: string, login: string): string;
  /** Closes every pool (a database about to be dropped; the process stopping). */
  closePools(database?: string): Promise<void>;
};

/** `postgres://…` URLs separated by commas (PROJECT_DATABASES_URL). */
export function serversFromUrls(list: string): ProjectDatabaseServer[] {
  const servers = list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((adminUrl) => {
      const url = new URL(adminUrl);
      if (!/^postgres(ql)?:$/.test(url.protocol)) throw new Error(`not a postgres:// URL: ${url.protocol}//${url.host}`);
      return { id: `${url.hostname}:${url.port || "5432"}`, adminUrl };
    });
  const ids = servers.map((s) => s.id);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated) throw new Error(`the server ${repeated} is named twice`);
  return servers;
}

const CONNECTIONS_PER_DATABASE = 4;
const IDLE_MS = 30_000;
/** A page's read waits no longer than this for a connection when the server's budget is spent (then a 503). */
const WAIT_MS = 30_000;

/** Half of the connections the server takes from ordinary logins. */
async function halfOfServer(adminUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on("error", () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ max: string; reserved: string }>(
      "select current_setting('max_connections') as max, current_setting('superuser_reserved_connections') as reserved",
    );
    return Math.max(CONNECTIONS_PER_DATABASE, Math.floor((Number(rows[0]!.max) - Number(rows[0]!.reserved)) / 2));
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function createDataPlane(
  servers: readonly ProjectDatabaseServer[],
  options: {
    secret: string;
    /** The most connections open at once to each server (tests); half of the server's max_connections by default. */
    connectionsPerServer?: number;
    /** How long work waits for a connection when the budget is spent (tests); 30 s by default. */
    connectionWaitMs?: number;
  },
): DataPlane {
  if (servers.length === 0) throw new Error("no server for project databases");
  const connections = new Map<string, ServerConnections>(
    servers.map((s) => [
      s.id,
      createServerConnections({
        budget: options.connectionsPerServer ?? (() => halfOfServer(s.adminUrl)),
        perKey: CONNECTIONS_PER_DATABASE,
        idleMs: IDLE_MS,
        waitMs: options.connectionWaitMs ?? WAIT_MS,
      }),
    ]),
  );
  const server = (id: string) => {
    const found = servers.find((s) => s.id === id);
    if (!found) throw new Error(`the project database server ${id} is not configured (PROJECT_DATABASES_URL)`);
    return found;
  };
  const passwordOf = (login: string) => createHmac("sha256", options.secret).update(login).digest("base64url");

  function urlOf(serverId: string, database: string | null, login: string | null): string {
    const url = new URL(server(serverId).adminUrl);
    if (database) url.pathname = `/${encodeURIComponent(database)}`;
    if (login) {
      url.username = encodeURIComponent(login);
      url.password = encodeURIComponent(passwordOf(login));
    }
    return url.toString();
  }

  // The database first, so that closing a database's connections picks them by prefix.
  const keyOf = (database: string | null, login: string | null) => `${JSON.stringify(database ?? "")}/${login ?? ""}`;

  async function withPool<T>(serverId: string, database: string | null, login: string | null, work: (client: pg.ClientBase) => Promise<T>): Promise<T> {
    const key = keyOf(database, login);
    const url = urlOf(serverId, database, login);
    const pool = connections.get(server(serverId).id)!;
    const client = await pool.acquire(key, url);
    let broken: Error | undefined;
    // The server may end the session while `work` holds it between two statements (PostgreSQL
    // stopped or killed, the session terminated): pg reports that as an "error" event on the client,
    // which, heard by nobody, would take the whole process and every job in it down. Heard here, the
    // next statement fails instead, and the connection is not given back.
    const lost = (err: Error) => {
      broken ??= err;
    };
    client.on("error", lost);
    try {
      return await work(client);
    } catch (err) {
      // A connection left in a failed transaction or a changed setting is not given to the next user.
      broken = err as Error;
      throw err;
    } finally {
      client.off("error", lost);
      pool.release(key, client, broken !== undefined);
    }
  }

  return {
    servers,
    server,
    withAdmin: (serverId, database, work) => withPool(serverId, database, null, work),
    withLogin: (serverId, database, login, work) => withPool(serverId, database, login, work),
    passwordOf,
    loginUrl: (serverId, database, login) => urlOf(serverId, database, login),
    async closePools(database) {
      const closing = (key: string) => database === undefined || key.startsWith(keyOf(database, ""));
      await Promise.all([...connections.values()].map((pool) => pool.close(closing)));
    },
  };
}
