/**
 * The backup archive (issue 10; ARCHITECTURE.md §3a): a plain POSIX tar, so any tool opens it. Its
 * first entry is `manifest.json` (format, version, and per table its schema, name, columns with their
 * PostgreSQL types, key, row count, CSV size, and the SHA-256 of its compressed entry); then one
 * gzipped CSV per table (`source/0.csv.gz`, …) in the manifest's order. Entries are named by index:
 * a table's name, whatever it is, never becomes a path.
 *
 * Read sequentially and streamed, never held whole: a restore reads each table as it comes, checking
 * its checksum and its declared size as it goes; an upload is verified whole before any job starts.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { pipeline as streamPipeline } from "node:stream";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import { RestoreInputProblem, type TableInput } from "./table-input.ts";

export const BACKUP_FORMAT = "data-transformation-backup";
export const BACKUP_VERSION = 1;
/** A table's CSV may be at most this many times its compressed entry: past it, the entry is a bomb, not data. */
export const MAX_COMPRESSION_RATIO = 200;
const MANIFEST_MAX_BYTES = 16 * 1024 * 1024;
const BLOCK = 512;

export type BackupSchema = "source" | "destination";
export type BackupTable = {
  schema: BackupSchema;
  name: string;
  columns: { name: string; type: string; nullable: boolean }[];
  key: string[];
  rows: number;
  /** The CSV's size, uncompressed. */
  csvBytes: number;
  gzBytes: number;
  /** SHA-256 (hex) of the entry's gzipped bytes. */
  sha256: string;
  /** The entry's path in the tar. */
  entry: string;
};
export type BackupManifest = { format: string; version: number; createdAt: string; projectId: string; tables: BackupTable[] };

const UNKNOWN_FORMAT = "This file is not a backup of this product (unknown format).";
const TRUNCATED = "The backup is truncated: it ends before its last table.";

/* ---------- Writing ---------- */

function tarHeader(name: string, size: number): Buffer {
  const header = Buffer.alloc(BLOCK);
  header.write(name, 0, 100, "utf8");
  header.write("0000644\0", 100);
  header.write("0000000\0", 108);
  header.write("0000000\0", 116);
  header.write(`${size.toString(8).padStart(11, "0")}\0`, 124);
  header.write(
    `${Math.floor(Date.now() / 1000)
      .toString(8)
      .padStart(11, "0")}\0`,
    136,
  );
  header.write("        ", 148);
  header.write("0", 156);
  header.write("ustar\0", 257);
  header.write("00", 263);
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  return header;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** An archive being written is named so, beside where it goes (removeLeftBackupWork). */
export const PARTIAL_SUFFIX = ".partial";

/** Writes the archive: the manifest, then each table's gzipped CSV copied from its temporary file. Written aside, then renamed. */
export async function writeBackupArchive(filePath: string, manifest: BackupManifest, gzPaths: readonly string[], signal?: AbortSignal): Promise<void> {
  const partial = `${filePath}${PARTIAL_SUFFIX}`;
  const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 1));
  async function* parts(): AsyncGenerator<Buffer> {
    yield tarHeader("manifest.json", manifestBytes.length);
    yield manifestBytes;
    yield padding(manifestBytes.length);
    for (const [i, table] of manifest.tables.entries()) {
      yield tarHeader(table.entry, table.gzBytes);
      for await (const chunk of fs.createReadStream(gzPaths[i]!)) yield chunk as Buffer;
      yield padding(table.gzBytes);
    }
    yield Buffer.alloc(BLOCK * 2);
  }
  try {
    await pipeline(parts(), fs.createWriteStream(partial), { signal });
    await fs.promises.rename(partial, filePath);
  } catch (err) {
    await fs.promises.rm(partial, { force: true });
    throw err;
  }
}

/* ---------- Reading ---------- */

/** A byte reader over a file stream: exact reads, and skips, without holding more than a chunk. */
class ByteReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private done = false;
  /** Bytes of the file read out so far: where the next read starts. */
  position = 0;
  private readonly iterator: AsyncIterator<Buffer>;
  constructor(filePath: string) {
    this.iterator = (fs.createReadStream(filePath, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  }
  private async fill(): Promise<boolean> {
    if (this.done) return false;
    const next = await this.iterator.next();
    if (next.done) {
      this.done = true;
      return false;
    }
    this.chunks.push(next.value);
    this.buffered += next.value.length;
    return true;
  }
  /** Exactly `n` bytes, or null when the file ends first. */
  async read(n: number): Promise<Buffer | null> {
    while (this.buffered < n) if (!(await this.fill())) return null;
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length ? [rest] : [];
    this.buffered = rest.length;
    this.position += n;
    return out;
  }
  /** The next `n` bytes as chunks as they come; throws the truncation when the file ends first. */
  async *stream(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.buffered === 0 && !(await this.fill())) throw new RestoreInputProblem(TRUNCATED);
      const chunk = this.chunks.shift()!;
      this.buffered -= chunk.length;
      if (chunk.length > left) {
        this.chunks.unshift(chunk.subarray(left));
        this.buffered += chunk.length - left;
        this.position += left;
        yield chunk.subarray(0, left);
        left = 0;
      } else {
        left -= chunk.length;
        this.position += chunk.length;
        yield chunk;
      }
    }
  }
  async close() {
    await this.iterator.return?.();
  }
}

/** The next entry's header: its name and size; null at the archive's end (or its file's). */
async function nextHeader(reader: ByteReader): Promise<{ name: string; size: number } | null> {
  const header = await reader.read(BLOCK);
  if (!header || header.every((b) => b === 0)) return null;
  if (header.toString("latin1", 257, 262) !== "ustar") throw new RestoreInputProblem(UNKNOWN_FORMAT);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
  if (sum !== parseInt(header.toString("latin1", 148, 156).replace(/\0.*$/, "").trim(), 8)) throw new RestoreInputProblem(UNKNOWN_FORMAT);
  const name = header.toString("utf8", 0, 100).replace(/\0.*$/s, "");
  const size = parseInt(header.toString("latin1", 124, 136).replace(/\0.*$/, "").trim(), 8);
  if (!Number.isSafeInteger(size) || size < 0) throw new RestoreInputProblem(UNKNOWN_FORMAT);
  return { name, size };
}

async function readManifest(reader: ByteReader): Promise<BackupManifest> {
  const first = await nextHeader(reader).catch((err) => {
    throw err instanceof RestoreInputProblem ? err : new RestoreInputProblem(UNKNOWN_FORMAT);
  });
  if (!first || first.name !== "manifest.json" || first.size > MANIFEST_MAX_BYTES) throw new RestoreInputProblem(UNKNOWN_FORMAT);
  const bytes = await reader.read(first.size);
  if (!bytes) throw new RestoreInputProblem(TRUNCATED);
  await reader.read(padding(first.size).length);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(bytes.toString("utf8")) as BackupManifest;
  } catch {
    throw new RestoreInputProblem(UNKNOWN_FORMAT);
  }
  if (manifest?.format !== BACKUP_FORMAT || !Array.isArray(manifest.tables)) throw new RestoreInputProblem(UNKNOWN_FORMAT);
  if (manifest.version !== BACKUP_VERSION)
    throw new RestoreInputProblem(`This backup was written by a newer version of this product (format ${manifest.version}).`);
  for (const t of manifest.tables) {
    const ok =
      (t.schema === "source" || t.schema === "destination") &&
      typeof t.name === "string" &&
      Array.isArray(t.columns) &&
      [t.rows, t.csvBytes, t.gzBytes].every((n) => Number.isSafeInteger(n) && n >= 0) &&
      /^[0-9a-f]{64}$/.test(t.sha256);
    if (!ok) throw new RestoreInputProblem(UNKNOWN_FORMAT);
    if (t.csvBytes > Math.max(t.gzBytes, 1024) * MAX_COMPRESSION_RATIO)
      throw new RestoreInputProblem(`The backup's table ${t.name} expands ${Math.round(t.csvBytes / Math.max(t.gzBytes, 1))} times: refused, like a zip bomb.`);
  }
  return manifest;
}

/** Resolves when the stream can take more, or when it is gone (destroyed, failed): a writer never waits on a stream nobody reads. */
function writable(stream: NodeJS.WritableStream & { destroyed: boolean }): Promise<void> {
  if (stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
  });
}

/**
 * The gzipped bytes of one entry, checked: its checksum at its end; its CSV never past its declared size. Yields the CSV.
 *
 * Two sides: a feeder reads the entry into the hash and the decompressor; the consumer reads the CSV
 * out. When the consumer stops early (its COPY refused a value, a cancel, a bomb found), the feeder
 * stops too and the decompressor is destroyed: nothing is left waiting on a stream nobody reads. When
 * the decompressor fails, the feeder still hashes the rest of the entry, so a changed byte is named as
 * what it is, a checksum that does not match, rather than as data that cannot be decompressed.
 */
async function* checkedCsv(reader: ByteReader, table: BackupTable, signal?: AbortSignal): AsyncGenerator<Buffer> {
  const hash = createHash("sha256");
  const gunzip = zlib.createGunzip();
  let csvBytes = 0;
  let stopped = false;
  let hashedWhole = false;
  const compressed = reader.stream(table.gzBytes);
  const feed = (async () => {
    try {
      for await (const chunk of compressed) {
        if (stopped) break;
        signal?.throwIfAborted();
        hash.update(chunk);
        if (!gunzip.destroyed && !gunzip.write(chunk)) await writable(gunzip);
      }
      hashedWhole = !stopped;
      if (!gunzip.destroyed) gunzip.end();
    } catch (err) {
      gunzip.destroy(err as Error);
    }
  })();
  let finished = false;
  try {
    try {
      for await (const chunk of gunzip as AsyncIterable<Buffer>) {
        csvBytes += chunk.length;
        if (csvBytes > table.csvBytes)
          throw new RestoreInputProblem(`The backup's table ${table.name} expands beyond the size its manifest declares: refused (a zip bomb?).`);
        yield chunk;
      }
    } catch (err) {
      if (err instanceof RestoreInputProblem) throw err;
      if ((err as NodeJS.ErrnoException).code?.startsWith("Z_")) {
        await feed;
        if (hashedWhole && hash.digest("hex") !== table.sha256)
          throw new RestoreInputProblem(`The backup is damaged: the checksum of table ${table.name} does not match.`);
        throw new RestoreInputProblem(`The backup is damaged: table ${table.name} cannot be decompressed.`);
      }
      throw err;
    }
    finished = true;
  } finally {
    if (!finished) {
      stopped = true;
      gunzip.destroy();
    }
    await feed;
  }
  if (hash.digest("hex") !== table.sha256) throw new RestoreInputProblem(`The backup is damaged: the checksum of table ${table.name} does not match.`);
  if (csvBytes !== table.csvBytes) throw new RestoreInputProblem(`The backup is damaged: table ${table.name} is not the size its manifest declares.`);
  await reader.read(padding(table.gzBytes).length);
}

/** One entry's CSV read again from the file, unchecked (its checksum is checked where it is first read): a refused value's row is looked for in it. */
function entryAgain(filePath: string, start: number, gzBytes: number): AsyncIterator<Buffer> {
  if (gzBytes === 0) return (async function* () {})();
  const csv = streamPipeline(fs.createReadStream(filePath, { start, end: start + gzBytes - 1 }), zlib.createGunzip(), () => undefined);
  return (csv as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
}

/**
 * The tables of the wanted schemas, streamed in the archive's order (the others read past, unchecked
 * by a restore but checked by verifyBackupArchive). Throws RestoreInputProblem from a table's CSV
 * when it is not what the manifest says, and at the end when entries are missing. `onManifest` learns
 * the manifest, the archive's first entry, before the first table comes (a restore's bytes to read),
 * so that nobody reads the archive a second time to know what it holds.
 */
export async function* readBackupArchive(
  filePath: string,
  options: { schemas: readonly BackupSchema[]; signal?: AbortSignal; onManifest?: (manifest: BackupManifest) => void },
): AsyncGenerator<TableInput> {
  const reader = new ByteReader(filePath);
  try {
    const manifest = await readManifest(reader);
    options.onManifest?.(manifest);
    for (const table of manifest.tables) {
      const header = await nextHeader(reader);
      if (!header) throw new RestoreInputProblem(TRUNCATED);
      if (header.name !== table.entry || header.size !== table.gzBytes)
        throw new RestoreInputProblem(`The backup is damaged: its entry ${header.name} is not the one its manifest lists.`);
      const start = reader.position;
      const csv = checkedCsv(reader, table, options.signal);
      if (!options.schemas.includes(table.schema)) {
        for await (const _ of reader.stream(table.gzBytes));
        await reader.read(padding(table.gzBytes).length);
        continue;
      }
      let consumed = false;
      yield {
        table: table.name,
        columns: table.columns.map((c) => ({ name: c.name, type: c.type })),
        bytes: table.csvBytes,
        csv: {
          [Symbol.asyncIterator]: () => {
            if (consumed) return entryAgain(filePath, start, table.gzBytes);
            consumed = true;
            return csv;
          },
        },
      };
      // A consumer that did not read the table: read past it, checked.
      if (!consumed) for await (const _ of csv);
    }
  } finally {
    await reader.close();
  }
}

/** One full pass over an uploaded archive, before any job: its format, every entry present, each checksum and size. */
export async function verifyBackupArchive(filePath: string, options: { signal?: AbortSignal; maxCsvBytes?: number } = {}): Promise<BackupManifest> {
  const reader = new ByteReader(filePath);
  try {
    const manifest = await readManifest(reader);
    const total = manifest.tables.reduce((sum, t) => sum + t.csvBytes, 0);
    if (total > (options.maxCsvBytes ?? 100 * 1024 ** 3)) throw new RestoreInputProblem("The backup holds more data than this server restores: refused.");
    for (const table of manifest.tables) {
      const header = await nextHeader(reader);
      if (!header) throw new RestoreInputProblem(TRUNCATED);
      if (header.name !== table.entry || header.size !== table.gzBytes)
        throw new RestoreInputProblem(`The backup is damaged: its entry ${header.name} is not the one its manifest lists.`);
      for await (const _ of checkedCsv(reader, table, options.signal));
    }
    return manifest;
  } finally {
    await reader.close();
  }
}
