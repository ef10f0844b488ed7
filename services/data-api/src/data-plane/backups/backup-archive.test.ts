/**
 * The archive reader on its own (no database): every damaged archive is refused with its own message,
 * and promptly. Each case here used to hang the reader before it was mended: the decompressor was
 * left waiting for a reader that had stopped, so a restore of such a file never ended.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { BACKUP_FORMAT, readBackupArchive, verifyBackupArchive, writeBackupArchive, type BackupManifest } from "./backup-archive.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "dt-archive-unit-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** An archive of two source tables (Notes, then Codes) whose CSVs are given; `declared` overrides Notes' declared size. */
async function archiveOf(csv: Buffer, options: { declared?: number } = {}): Promise<{ file: string; manifest: BackupManifest }> {
  const second = Buffer.from("Code\nA\nB\n");
  const entries = [csv, second].map((data, i) => {
    const gz = path.join(tmp, `${randomUUID()}.gz`);
    const bytes = zlib.gzipSync(data, { level: 1 });
    fs.writeFileSync(gz, bytes);
    return {
      gz,
      table: {
        schema: "source" as const,
        name: i === 0 ? "Notes" : "Codes",
        columns: [{ name: i === 0 ? "Note" : "Code", type: "text", nullable: true }],
        key: [],
        rows: 0,
        csvBytes: i === 0 ? (options.declared ?? data.length) : data.length,
        gzBytes: bytes.length,
        sha256: createHash("sha256").update(bytes).digest("hex"),
        entry: `source/${i}.csv.gz`,
      },
    };
  });
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    version: 1,
    createdAt: new Date().toISOString(),
    projectId: randomUUID(),
    tables: entries.map((e) => e.table),
  };
  const file = path.join(tmp, `${randomUUID()}.backup.tar`);
  await writeBackupArchive(
    file,
    manifest,
    entries.map((e) => e.gz),
  );
  return { file, manifest };
}

/** Incompressible text: its gzipped entry spans many reads. */
const noise = (bytes: number) =>
  Buffer.from(
    `Note\n${randomBytes(bytes)
      .toString("base64")
      .replace(/(.{76})/g, "$1\n")}\n`,
  );

/** Where the first table's compressed bytes start in the archive: after the manifest's header, body and padding, and its own header. */
function firstEntryOffset(manifest: BackupManifest): number {
  const manifestBytes = Buffer.byteLength(JSON.stringify(manifest, null, 1));
  return 512 + Math.ceil(manifestBytes / 512) * 512 + 512;
}

/** Reads every table of the archive as a restore does, returning the tables' names and sizes. */
async function readAll(file: string): Promise<{ table: string; bytes: number }[]> {
  const read: { table: string; bytes: number }[] = [];
  for await (const input of readBackupArchive(file, { schemas: ["source"] })) {
    let bytes = 0;
    for await (const chunk of input.csv) bytes += chunk.length;
    read.push({ table: input.table, bytes });
  }
  return read;
}

describe("the backup archive's reader", () => {
  it("reads back every table whole, in the manifest's order", async () => {
    const csv = noise(3 * 1024 * 1024);
    const { file } = await archiveOf(csv);
    expect(await readAll(file)).toEqual([
      { table: "Notes", bytes: csv.length },
      { table: "Codes", bytes: 9 },
    ]);
    expect((await verifyBackupArchive(file)).tables.map((t) => t.name)).toEqual(["Notes", "Codes"]);
  });

  it("names a changed byte as a checksum that does not match, when verifying and when restoring", async () => {
    const { file, manifest } = await archiveOf(noise(3 * 1024 * 1024));
    const handle = await fs.promises.open(file, "r+");
    const at = firstEntryOffset(manifest) + 1024 * 1024;
    const byte = Buffer.alloc(1);
    await handle.read(byte, 0, 1, at);
    await handle.write(Buffer.from([byte[0]! ^ 0xff]), 0, 1, at);
    await handle.close();
    await expect(verifyBackupArchive(file)).rejects.toThrow("The backup is damaged: the checksum of table Notes does not match.");
    await expect(readAll(file)).rejects.toThrow("The backup is damaged: the checksum of table Notes does not match.");
  });

  it("refuses a table that expands beyond its declared size (a bomb), without waiting for the rest of it", async () => {
    // 64 MB of zeros: a few hundred KB compressed, declared as 100 bytes.
    const { file } = await archiveOf(Buffer.concat([Buffer.from("Note\n"), Buffer.alloc(64 * 1024 * 1024, "0")]), { declared: 100 });
    await expect(verifyBackupArchive(file)).rejects.toThrow("The backup's table Notes expands beyond the size its manifest declares: refused (a zip bomb?).");
    await expect(readAll(file)).rejects.toThrow(/expands beyond the size its manifest declares/);
  });

  it("stops at once when its reader stops mid-table (a restore whose COPY refused a value)", async () => {
    const { file } = await archiveOf(noise(8 * 1024 * 1024));
    const tables: string[] = [];
    for await (const input of readBackupArchive(file, { schemas: ["source"] })) {
      tables.push(input.table);
      for await (const _ of input.csv) break;
      break;
    }
    expect(tables).toEqual(["Notes"]);
    // The file is closed, not held by a reader left waiting: it can go at once.
    await fs.promises.rm(file);
  });

  it("refuses a truncated archive and a file of another kind", async () => {
    const { file } = await archiveOf(noise(1024 * 1024));
    const truncated = path.join(tmp, "truncated.backup.tar");
    await fs.promises.writeFile(truncated, (await fs.promises.readFile(file)).subarray(0, 600 * 1024));
    await expect(verifyBackupArchive(truncated)).rejects.toThrow("The backup is truncated: it ends before its last table.");
    await expect(readAll(truncated)).rejects.toThrow("The backup is truncated: it ends before its last table.");
    const foreign = path.join(tmp, "foreign.backup.tar");
    await fs.promises.writeFile(foreign, randomBytes(4096));
    await expect(verifyBackupArchive(foreign)).rejects.toThrow("This file is not a backup of this product (unknown format).");
  });

  it("stops when cancelled, mid-table", async () => {
    const { file } = await archiveOf(noise(8 * 1024 * 1024));
    const controller = new AbortController();
    const reading = (async () => {
      for await (const input of readBackupArchive(file, { schemas: ["source"], signal: controller.signal }))
        for await (const _ of input.csv) controller.abort(new Error("Cancelled by the test"));
    })();
    await expect(reading).rejects.toThrow("Cancelled by the test");
  });
});
