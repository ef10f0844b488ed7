/**
 * The connection jobs write their progress and heartbeats through (decision 025). On SQLite,
 * better-sqlite3 runs a statement on the calling thread and a commit waits for the disk's sync:
 * a translation writing gigabytes kept the disk so busy that a progress write, four a second, held
 * the data API's thread (every request with it) for up to 0.4 s. Here those writes run on a thread
 * of their own, on a second connection to the same file whose commits do not wait for a sync.
 *
 * Only for writes whose loss on a power cut costs nothing: the next progress write, or the job's end,
 * replaces them. Everything a user saves goes through the data API's own connection.
 */
import { Worker } from "node:worker_threads";
import { CompiledQuery, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type DatabaseConnection, type Driver, type QueryResult } from "kysely";
import { databaseKind } from "../../../shared/db.ts";
import { sqliteFileOf } from "../../../shared/sqlite.ts";
import { startWorker } from "../worker-entry.ts";

export type ProgressDbStatement = { id: number; sql: string; parameters: readonly unknown[] };
export type ProgressDbAnswer =
  { id: number; rows: Record<string, unknown>[] } | { id: number; changes: number | bigint; lastInsertRowid: bigint } | { id: number; error: string };

/**
 * A Kysely on its own thread for `url`'s SQLite file, or undefined where the data API's connection
 * serves as well: PostgreSQL (its commits never hold the thread) and `:memory:` (a second connection
 * would be another database).
 */
export function createProgressDb<DB>(url: string): Kysely<DB> | undefined {
  if (databaseKind(url) === "postgres") return undefined;
  const file = sqliteFileOf(url);
  if (file === ":memory:") return undefined;
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new OffThreadDriver(file),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  });
}

/** One connection, as Kysely's own SQLite driver: a query or a transaction holds it until released. */
class OffThreadDriver implements Driver {
  readonly #connection: OffThreadConnection;
  /** Settles once the last holder so far has released the connection. */
  #queue: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;

  constructor(file: string) {
    this.#connection = new OffThreadConnection(file);
  }
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const before = this.#queue;
    this.#queue = before.then(() => released);
    await before;
    this.#release = release;
    return this.#connection;
  }
  async releaseConnection() {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
  async beginTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("begin"));
  }
  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }
  async destroy() {
    await this.#connection.close();
  }
}

/** Sends statements to the thread and hears its answers; a thread that died is started again by the next statement. */
class OffThreadConnection implements DatabaseConnection {
  readonly #file: string;
  #worker: Worker | undefined;
  readonly #waiting = new Map<number, { resolve: (answer: ProgressDbAnswer) => void; reject: (err: Error) => void }>();
  #next = 0;

  constructor(file: string) {
    this.#file = file;
  }

  #thread(): Worker {
    if (this.#worker) return this.#worker;
    const worker = startWorker(
      { source: new URL("./progress-db-worker.ts", import.meta.url), bundle: "progress-db-worker" },
      { workerData: { file: this.#file }, resourceLimits: { maxOldGenerationSizeMb: 32 } },
    );
    // Never what keeps the process alive: the server's stop closes it, a test's end may not.
    worker.unref();
    worker.on("message", (answer: ProgressDbAnswer) => {
      const waiting = this.#waiting.get(answer.id);
      this.#waiting.delete(answer.id);
      waiting?.resolve(answer);
    });
    const failAll = (err: Error) => {
      if (this.#worker === worker) this.#worker = undefined;
      for (const waiting of this.#waiting.values()) waiting.reject(err);
      this.#waiting.clear();
    };
    worker.on("error", (err) => failAll(new Error(`the progress connection failed: ${err.message}`)));
    worker.on("exit", () => failAll(new Error("the progress connection stopped")));
    this.#worker = worker;
    return worker;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const worker = this.#thread();
    const id = this.#next++;
    const answer = await new Promise<ProgressDbAnswer>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      worker.postMessage({ id, sql: query.sql, parameters: query.parameters } satisfies ProgressDbStatement);
    });
    if ("error" in answer) throw new Error(answer.error);
    if ("rows" in answer) return { rows: answer.rows as R[] };
    return { rows: [], numAffectedRows: BigInt(answer.changes), insertId: answer.lastInsertRowid };
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("the progress connection does not stream");
  }

  async close() {
    const worker = this.#worker;
    this.#worker = undefined;
    await worker?.terminate();
  }
}
