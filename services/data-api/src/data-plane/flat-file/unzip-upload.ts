/**
 * A .zip sent as "Multiple files" (issue 9 §2): its files unpacked beside it, each then matched to a
 * table by its name like a file sent on its own. The archive's directory is read first and checked
 * whole (how many files, what they declare they unpack to, against the upload limit) before a byte
 * is unpacked; each entry then streams to disk, held to its declared size (zip-directory.ts).
 * Folders, and the files macOS and Windows add (__MACOSX/, .DS_Store, Thumbs.db), are not files of
 * the delivery.
 */
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { fileSource, inflateEntryStream, readZipDirectory, ZipFormatError } from "../../dictionary-bulk/zip-directory.ts";
import type { ReceivedFile } from "../../dictionary-bulk/receive-upload.ts";
import { FlatFileProblem } from "./read-flat-file.ts";

/** More files than any delivery has tables: a zip of thousands of entries is refused before unpacking. */
export const ZIP_MAX_FILES = 500;

const NOT_DELIVERED = /(^|\/)(__MACOSX\/|\.DS_Store$|Thumbs\.db$|desktop\.ini$)/i;

export function isZip(file: Pick<ReceivedFile, "name">): boolean {
  return /\.zip$/i.test(file.name);
}

/** The archive's files, unpacked into `dir` (names `{prefix}-{n}.file`); refused with a FlatFileProblem when it is not a zip, holds too much, or names a file twice. */
export async function unzipUpload(zip: ReceivedFile, dir: string, prefix: string, maxBytes: number): Promise<ReceivedFile[]> {
  let source: ReturnType<typeof fileSource> | undefined;
  try {
    source = fileSource(zip.path);
    const entries = readZipDirectory(source).filter((e) => !e.name.endsWith("/") && !NOT_DELIVERED.test(e.name));
    if (entries.length === 0) throw new FlatFileProblem(`${zip.name} holds no files`);
    if (entries.length > ZIP_MAX_FILES) throw new FlatFileProblem(`${zip.name} holds ${entries.length} files: at most ${ZIP_MAX_FILES} are loaded at once`);
    const declared = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
    if (declared > maxBytes) throw new FlatFileProblem(`${zip.name} unpacks to more than ${Math.floor(maxBytes / 1024 ** 3)} GB, the most a load takes`);
    const names = new Set<string>();
    const files: ReceivedFile[] = [];
    for (const [i, entry] of entries.entries()) {
      const name = path.posix.basename(entry.name);
      if (names.has(name.toLowerCase())) throw new FlatFileProblem(`${zip.name} holds two files named ${name}: each table takes one file`);
      names.add(name.toLowerCase());
      const to = path.join(dir, `${prefix}-${i}.file`);
      await pipeline(inflateEntryStream(source, entry), fs.createWriteStream(to));
      files.push({ path: to, name, size: entry.uncompressedSize });
    }
    return files;
  } catch (err) {
    if (err instanceof ZipFormatError) throw new FlatFileProblem(`${zip.name} could not be unpacked: ${err.message}`);
    throw err;
  } finally {
    source?.close();
  }
}
