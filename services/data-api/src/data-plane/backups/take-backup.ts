/**
 * A backup of a project's two schemas in one snapshot (REPEATABLE READ, READ ONLY, as the project's
 * runner): each table `COPY … TO STDOUT` as CSV, gzipped (level 1: fast, and CSV still shrinks
 * several times) into a temporary file with its checksum taken on the way, then the archive assembled
 * (backup-archive.ts). Streams only: memory stays flat whatever the tables' size.
 *
 * A load's own backup reads the tables it fills first (readFirst), in the same snapshot but in a
 * second transaction that then ends: a table read keeps its lock until its transaction ends, and the
 * load's TRUNCATE would otherwise wait for every other table to be backed up (decision 016).
 */
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import type pg from "pg";
import { to as copyTo } from "pg-copy-streams";
import { databaseNameOf, rolesOf } from "../project-databases.ts";
import { quoteIdentifier } from "../postgres-ddl.ts";
import type { DataPlane } from "../servers.ts";
import { reportEverySecond } from "./progress-ticker.ts";
import { BACKUP_FORMAT, BACKUP_VERSION, writeBackupArchive, type BackupManifest, type BackupSchema, type BackupTable } from "./backup-archive.ts";

/** A backup's own folder of table files under the data folder's tmp/, while it is taken (removeLeftBackupWork). */
export const BACKUP_WORK_PREFIX = "backup-";

/**
 * Tables a backup reads first, in a transaction of their own, and what then learns they are read:
 * the backup goes on with the rest once what `read` returns has settled.
 */
export type ReadFirst = { tables: readonly { schema: BackupSchema; name: string }[]; read: () => void | Promise<void> };

type ListedTable = { schema: BackupSchema; name: string; oid: number };

export async function takeBackup(
  dataPlane: DataPlane,
  serverId: string,
  projectId: string,
  filePath: string,
  options: {
    signal?: AbortSignal;
    tmpDir: string;
    onProgress?: (done: number, total: number) => Promise<void> | void;
    /**
     * A load's tables: read first, in the same snapshot, by a second connection whose transaction
     * ends once they are read, so that their locks go with it. `read` is then called: the load may
     * empty and fill them while the rest is backed up. It must not commit before the backup is done.
     */
    readFirst?: ReadFirst;
  },
): Promise<BackupManifest> {
  const work = path.join(options.tmpDir, `${BACKUP_WORK_PREFIX}${randomUUID()}`);
  await fs.promises.mkdir(work, { recursive: true });
  const database = databaseNameOf(projectId);
  const runner = rolesOf(projectId).runner;
  try {
    const wanted = options.readFirst?.tables ?? [];
    /** The tables in the snapshot, and those of them read first (by index). */
    let listed: (ListedTable & { bytes: string })[] = [];
    let first: number[] = [];
    const tables: BackupTable[] = [];
    const gzPaths: string[] = [];
    const progress = { done: 0, total: 0 };
    const copyTables = async (on: pg.ClientBase, indexes: number[]) => {
      for (const index of indexes) {
        gzPaths[index] = path.join(work, `${index}.csv.gz`);
        tables[index] = await copyTable(on, listed[index]!, gzPaths[index]!, index, progress, options);
      }
    };
    // The first tables' connection is opened alongside the main one (a login is a few round trips),
    // and waits for the snapshot's name.
    let giveSnapshot!: (name: string | null) => void;
    let noSnapshot!: (err: unknown) => void;
    const snapshotName = new Promise<string | null>((resolve, reject) => ((giveSnapshot = resolve), (noSnapshot = reject)));
    const readingFirst = wanted.length
      ? dataPlane.withLogin(serverId, database, runner, async (other) => {
          const snapshot = await snapshotName;
          if (snapshot === null) return;
          await other.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
          await other.query(`SET TRANSACTION SNAPSHOT '${snapshot}'`);
          await copyTables(other, first);
          await other.query("COMMIT");
        })
      : Promise.resolve();
    // Awaited below; a failure before then is the main connection's too.
    readingFirst.catch(() => undefined);
    try {
      await dataPlane.withLogin(serverId, database, runner, async (client) => {
        // No ROLLBACK on a failure: a COPY TO stopped midway (a cancel, a full disk) leaves the server
        // still sending rows, and a ROLLBACK queued behind it would wait for ever. The failed connection
        // is dropped instead (withLogin releases it as broken), which ends this read-only transaction.
        await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
        ({ rows: listed } = await client.query<ListedTable & { bytes: string }>(
          `select n.nspname as schema, c.relname as name, c.oid, pg_relation_size(c.oid) as bytes
             from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where c.relkind in ('r', 'p') and n.nspname in ('source', 'destination')
              and has_table_privilege(c.oid, 'SELECT')
            order by n.nspname desc, c.relname`,
        ));
        progress.total = listed.reduce((sum, t) => sum + Number(t.bytes), 0);
        first = listed.flatMap((t, index) => (wanted.some((w) => w.schema === t.schema && w.name === t.name) ? [index] : []));
        if (first.length) {
          // The same snapshot in a second transaction, ended as soon as the load's tables are read.
          const { rows } = await client.query<{ snapshot: string }>("select pg_export_snapshot() as snapshot");
          // PostgreSQL's own name for it (hex digits and dashes), and SET TRANSACTION takes no parameter.
          if (!/^[0-9A-F-]+$/i.test(rows[0]!.snapshot)) throw new Error(`unexpected snapshot name ${rows[0]!.snapshot}`);
          giveSnapshot(rows[0]!.snapshot);
        } else giveSnapshot(null);
        await readingFirst;
        await options.readFirst?.read();
        await copyTables(
          client,
          listed.flatMap((_, index) => (first.includes(index) ? [] : [index])),
        );
        await client.query("COMMIT");
      });
    } catch (err) {
      // The second connection, still waiting for a snapshot, is let go.
      noSnapshot(err);
      throw err;
    }
    options.signal?.throwIfAborted();
    const manifest: BackupManifest = { format: BACKUP_FORMAT, version: BACKUP_VERSION, createdAt: new Date().toISOString(), projectId, tables };
    await writeBackupArchive(filePath, manifest, gzPaths, options.signal);
    return manifest;
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
}

/** One table `COPY … TO STDOUT` as CSV into `gzPath`, gzipped, with its checksum taken on the way. */
async function copyTable(
  client: pg.ClientBase,
  t: ListedTable,
  gzPath: string,
  index: number,
  progress: { done: number; total: number },
  options: { signal?: AbortSignal; onProgress?: (done: number, total: number) => Promise<void> | void },
): Promise<BackupTable> {
  options.signal?.throwIfAborted();
  const { rows: columns } = await client.query<{ name: string; type: string; nullable: boolean }>(
    `select attname as name, format_type(atttypid, atttypmod) as type, not attnotnull as nullable
       from pg_attribute where attrelid = $1 and attnum > 0 and not attisdropped order by attnum`,
    [t.oid],
  );
  const { rows: key } = await client.query<{ name: string }>(
    `select a.attname as name from pg_index i cross join unnest(i.indkey) with ordinality k(attnum, n)
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
      where i.indrelid = $1 and i.indisprimary order by k.n`,
    [t.oid],
  );
  const hash = createHash("sha256");
  let csvBytes = 0;
  let gzBytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      csvBytes += chunk.length;
      // Rows are counted by COPY's own report below; bytes drive the progress.
      progress.done += chunk.length;
      callback(null, chunk);
    },
  });
  const hashed = new Transform({
    transform(chunk: Buffer, _enc, callback) {
      hash.update(chunk);
      gzBytes += chunk.length;
      callback(null, chunk);
    },
  });
  const copy = client.query(copyTo(`COPY ${quoteIdentifier(t.schema)}.${quoteIdentifier(t.name)} TO STDOUT WITH (FORMAT csv, HEADER true)`));
  const stopReporting = reportEverySecond(options.onProgress && (() => options.onProgress!(Math.min(progress.done, progress.total), progress.total)));
  try {
    await pipeline(copy, counted, zlib.createGzip({ level: 1 }), hashed, fs.createWriteStream(gzPath), { signal: options.signal });
  } finally {
    stopReporting();
  }
  return {
    schema: t.schema,
    name: t.name,
    columns,
    key: key.map((k) => k.name),
    rows: Number((copy as unknown as { rowCount?: number }).rowCount ?? 0),
    csvBytes,
    gzBytes,
    sha256: hash.digest("hex"),
    entry: `${t.schema}/${index}.csv.gz`,
  };
}
