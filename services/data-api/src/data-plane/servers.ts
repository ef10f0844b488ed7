/**
 * The PostgreSQL servers that hold project databases (ARCHITECTURE.md §3a), reached through one
 * administrative connection each: the embedded server by default, or those PROJECT_DATABASES_URL
 * names. A project lives on one server and records its id (`projects.database_server`); new ones go
 * to the server with the fewest.
 *
 * Connections: a small pool per (server, database), made on first use and closed after a while
 * idle, so a page that reads a project's tables does not pay for a new connection each time, and
 * a thousand projects do not hold a thousand connections.
 */
import { createHmac } from "node:crypto";
import pg from "pg";

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
  withAdmin<T>(serverId: string, database: string | null, work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /** Runs `work` on a connection to `database` on `serverId` logged in as `login` (a project's own login). */
  withLogin<T>(serverId: string, database: string, login: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
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

const POOL_SIZE = 4;
const POOL_IDLE_MS = 30_000;

export function createDataPlane(servers: readonly ProjectDatabaseServer[], options: { secret: string }): DataPlane {
  if (servers.length === 0) throw new Error("no server for project databases");
  const pools = new Map<string, { pool: pg.Pool; database: string }>();
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

  async function withPool<T>(serverId: string, database: string | null, login: string | null, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const key = `${serverId}/${database ?? ""}/${login ?? ""}`;
    let entry = pools.get(key);
    if (!entry) {
      const pool = new pg.Pool({ connectionString: urlOf(serverId, database, login), max: POOL_SIZE, idleTimeoutMillis: POOL_IDLE_MS, allowExitOnIdle: true });
      // An idle client whose server went away must not take the process down.
      pool.on("error", () => undefined);
      entry = { pool, database: database ?? "" };
      pools.set(key, entry);
    }
    const client = await entry.pool.connect();
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
      client.release(broken ?? false);
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
      const closing = [...pools].filter(([, entry]) => database === undefined || entry.database === database);
      for (const [key] of closing) pools.delete(key);
      await Promise.all(closing.map(([, entry]) => entry.pool.end()));
    },
  };
}
