/**
 * The connections the data API keeps to one PostgreSQL server of project databases, within a
 * budget for the whole server rather than per database.
 *
 * Each (database, login) has its own few connections, kept open a while after use so that a page
 * reading a project's tables does not pay for a new one each time. A pool per database would let
 * many busy projects together exceed the server's max_connections (the embedded server's is 100:
 * some twenty-five projects' pools), and the next project's page or job would fail with "remaining
 * connection slots are reserved". Here, when the budget is spent, an idle connection of another
 * database is closed to make room, and when none is idle the caller waits for one to be released,
 * for a while: work that holds a connection while it asks for a second (a backup's two snapshots)
 * could otherwise wait for ever on others doing the same, and a request that hangs says nothing.
 */
import pg from "pg";

/** The budget stayed spent for as long as work may wait (ServerConnections' waitMs): answered as a 503 to try again. */
export class ConnectionsBusyError extends Error {
  constructor() {
    super("Every connection to the databases' server is in use. Try again in a moment.");
    this.name = "ConnectionsBusyError";
  }
}

export type ServerConnections = {
  /** A connection to `url`'s database as its login; `key` names that (database, login). Released by `release`. */
  acquire(key: string, url: string): Promise<pg.Client>;
  /** Gives the connection back; a broken one (or one in a failed state) is closed rather than kept. */
  release(key: string, client: pg.Client, broken: boolean): void;
  /** Closes the idle connections whose key `closing` picks, and those in use when they are released. */
  close(closing: (key: string) => boolean): Promise<void>;
};

type Idle = { key: string; client: pg.Client; timer: NodeJS.Timeout };

export function createServerConnections(options: {
  /** The most connections open at once to this server; read from the server when it is a promise. */
  budget: number | (() => Promise<number>);
  /** The most connections per (database, login). */
  perKey: number;
  /** How long an unused connection stays open. */
  idleMs: number;
  /** How long work waits for a connection when the budget is spent, before ConnectionsBusyError. */
  waitMs: number;
}): ServerConnections {
  let budget: Promise<number> | undefined;
  let open = 0;
  /** Connections open per key, in use or idle. */
  const perKey = new Map<string, number>();
  /** Idle connections, least recently used first. */
  const idle: Idle[] = [];
  const waiting: (() => void)[] = [];
  /** Connections in use, by their key. */
  const inUse = new Map<pg.Client, string>();
  /** Connections in use when their key was closed: closed when released. */
  const toClose = new Set<pg.Client>();

  const count = (key: string, by: number) => {
    const n = (perKey.get(key) ?? 0) + by;
    if (n === 0) perKey.delete(key);
    else perKey.set(key, n);
    open += by;
  };
  const wakeAll = () => {
    for (const wake of waiting.splice(0)) wake();
  };
  const end = (key: string, client: pg.Client) => {
    count(key, -1);
    client.end().catch(() => undefined);
    wakeAll();
  };
  const takeIdle = (index: number) => {
    const [entry] = idle.splice(index, 1);
    clearTimeout(entry!.timer);
    return entry!;
  };
  /** The one way an idle connection leaves: its time is up, room for another, its key closed, its session ended. */
  const closeIdle = (index: number): Promise<void> => {
    const entry = takeIdle(index);
    const ended = entry.client.end().catch(() => undefined);
    count(entry.key, -1);
    wakeAll();
    return ended;
  };
  const closeIfIdle = (client: pg.Client) => {
    const at = idle.findIndex((entry) => entry.client === client);
    if (at !== -1) void closeIdle(at);
  };

  async function acquire(key: string, url: string): Promise<pg.Client> {
    if (!budget) {
      const asked = typeof options.budget === "number" ? Promise.resolve(options.budget) : options.budget();
      // A server not answering yet (starting again) is asked again by the next work, not refused forever.
      budget = asked.catch((err: unknown) => {
        budget = undefined;
        throw err;
      });
    }
    const limit = await budget;
    const deadline = Date.now() + options.waitMs;
    for (;;) {
      // The most recently used idle connection of this key: the one most likely still warm.
      const mine = idle.findLastIndex((entry) => entry.key === key);
      if (mine !== -1) {
        const { client } = takeIdle(mine);
        inUse.set(client, key);
        return client;
      }
      if ((perKey.get(key) ?? 0) < options.perKey) {
        if (open >= limit && idle.length > 0) void closeIdle(0);
        if (open < limit) {
          count(key, 1);
          const client = new pg.Client({ connectionString: url });
          // A session the server ends must not take the process down; an idle one is dropped at once,
          // not given to the next work to fail on (PostgreSQL stopped, or started again).
          const lost = () => closeIfIdle(client);
          client.on("error", lost);
          client.on("end", lost);
          try {
            await client.connect();
          } catch (err) {
            count(key, -1);
            wakeAll();
            throw err;
          }
          inUse.set(client, key);
          return client;
        }
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new ConnectionsBusyError();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiting.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  function release(key: string, client: pg.Client, broken: boolean) {
    inUse.delete(client);
    const closed = toClose.delete(client);
    if (broken || closed) return end(key, client);
    const entry: Idle = { key, client, timer: setTimeout(() => closeIfIdle(client), options.idleMs) };
    // An idle connection must not keep the process alive (a test or a stopping process).
    entry.timer.unref();
    idle.push(entry);
    wakeAll();
  }

  async function close(closing: (key: string) => boolean) {
    const pending = [...inUse].filter(([, key]) => closing(key)).map(([client]) => client);
    for (const client of pending) toClose.add(client);
    const ending: Promise<void>[] = [];
    for (let i = idle.length - 1; i >= 0; i--) if (closing(idle[i]!.key)) ending.push(closeIdle(i));
    await Promise.all(ending);
    // As a pool's end does: the connections in use now are closed when their work releases them,
    // so that the caller (about to drop the database) finds none left. A later acquire opens a new one.
    while (pending.some((client) => toClose.has(client))) await new Promise<void>((resolve) => waiting.push(resolve));
  }

  return { acquire, release, close };
}
