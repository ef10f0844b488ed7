/**
 * A backup of a project's two schemas in one snapshot (REPEATABLE READ, READ ONLY, as the project's
 * runner): each table `COPY … TO STDOUT` as CSV, gzipped (level 1: fast, and CSV still shrinks
 * several times) into a temporary file with its checksum taken on the way, then the archive assembled
 * (backup-archive.ts). Streams only: memory stays flat whatever the tables' size.
 */
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { to as copyTo } from "pg-copy-streams";
import { databaseNameOf, rolesOf } from "../project-databases.ts";
import { quoteIdentifier } from "../postgres-ddl.ts";
import type { DataPlane } from "../servers.ts";
import { reportEverySecond } from "./progress-ticker.ts";
import { BACKUP_FORMAT, BACKUP_VERSION, writeBackupArchive, type BackupManifest, type BackupSchema, type BackupTable } from "./backup-archive.ts";

/** A backup's own folder of table files under the data folder's tmp/, while it is taken (removeLeftBackupWork). */
export const BACKUP_WORK_PREFIX = "backup-";

export async function takeBackup(
  dataPlane: DataPlane,
  serverId: string,
  projectId: string,
  filePath: string,
  options: { signal?: AbortSignal; tmpDir: string; onProgress?: (done: number, total: number) => Promise<void> | void },
): Promise<BackupManifest> {
  const work = path.join(options.tmpDir, `${BACKUP_WORK_PREFIX}${randomUUID()}`);
  await fs.promises.mkdir(work, { recursive: true });
  try {
    const { tables, gzPaths } = await dataPlane.withLogin(serverId, databaseNameOf(projectId), rolesOf(projectId).runner, async (client) => {
      // No ROLLBACK on a failure: a COPY TO stopped midway (a cancel, a full disk) leaves the server
      // still sending rows, and a ROLLBACK queued behind it would wait for ever. The failed connection
      // is dropped instead (withLogin releases it as broken), which ends this read-only transaction.
      await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      const { rows } = await client.query<{ schema: BackupSchema; name: string; oid: number; bytes: string }>(
        `select n.nspname as schema, c.relname as name, c.oid, pg_relation_size(c.oid) as bytes
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where c.relkind in ('r', 'p') and n.nspname in ('source', 'destination')
          order by n.nspname desc, c.relname`,
      );
      const total = rows.reduce((sum, r) => sum + Number(r.bytes), 0);
      let done = 0;
      const tables: BackupTable[] = [];
      const gzPaths: string[] = [];
      for (const [index, t] of rows.entries()) {
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
        const gzPath = path.join(work, `${index}.csv.gz`);
        const hash = createHash("sha256");
        let csvBytes = 0;
        let gzBytes = 0;
        let lines = 0;
        const counted = new Transform({
          transform(chunk: Buffer, _enc, callback) {
            csvBytes += chunk.length;
            // Rows are counted by COPY's own report below; bytes drive the progress.
            done += chunk.length;
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
        const stopReporting = reportEverySecond(options.onProgress && (() => options.onProgress!(Math.min(done, total), total)));
        try {
          await pipeline(copy, counted, zlib.createGzip({ level: 1 }), hashed, fs.createWriteStream(gzPath), { signal: options.signal });
        } finally {
          stopReporting();
        }
        lines = Number((copy as unknown as { rowCount?: number }).rowCount ?? 0);
        tables.push({
          schema: t.schema,
          name: t.name,
          columns,
          key: key.map((k) => k.name),
          rows: lines,
          csvBytes,
          gzBytes,
          sha256: hash.digest("hex"),
          entry: `${t.schema}/${index}.csv.gz`,
        });
        gzPaths.push(gzPath);
      }
      await client.query("COMMIT");
      return { tables, gzPaths };
    });
    options.signal?.throwIfAborted();
    const manifest: BackupManifest = { format: BACKUP_FORMAT, version: BACKUP_VERSION, createdAt: new Date().toISOString(), projectId, tables };
    await writeBackupArchive(filePath, manifest, gzPaths, options.signal);
    return manifest;
  } finally {
    await fs.promises.rm(work, { recursive: true, force: true });
  }
}
