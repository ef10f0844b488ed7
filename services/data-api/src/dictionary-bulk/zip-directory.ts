/**
 * A zip archive's directory, read by hand (the End Of Central Directory record and the central
 * directory's file headers, PKWARE APPNOTE.TXT §4.3), and its entries unpacked one at a time as
 * streams with a hard cap on their output. Enough to open an .xlsx without trusting it: the caller
 * sees every entry's declared sizes before anything is unpacked, and an entry that unpacks to more
 * than it declares fails while unpacking, after at most that many bytes. The archive is read through
 * a ZipSource (a file on disk, or bytes in tests): only the directory and one entry's stream are
 * ever in memory.
 *
 * Zip64, split and encrypted archives are refused: an .xlsx of a few megabytes needs none of them.
 */
import fs from "node:fs";
import { Readable, Transform } from "node:stream";
import zlib from "node:zlib";

export type ZipEntry = {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  flags: number;
  compressedSize: number;
  /** What the directory says the entry unpacks to; inflateEntry holds it to that. */
  uncompressedSize: number;
  localHeaderOffset: number;
};

/** The bytes are not a zip this reader accepts, or an entry does not unpack to what it declares. */
export class ZipFormatError extends Error {
  override name = "ZipFormatError";
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
const LOCAL_HEADER_SIGNATURE = 0x04034b50;

/** Whether bytes read from a file's start begin as a zip archive does (every .xlsx is one): its first local header. */
export function beginsAsZip(head: Uint8Array): boolean {
  return head.byteLength >= 4 && new DataView(head.buffer, head.byteOffset, 4).getUint32(0, true) === LOCAL_HEADER_SIGNATURE;
}
const EOCD_SIZE = 22;
const CENTRAL_HEADER_SIZE = 46;
const LOCAL_HEADER_SIZE = 30;
const MAX_COMMENT_LENGTH = 0xffff;
const STORED = 0;
const DEFLATED = 8;
const ENCRYPTED_FLAG = 0x1;

/** Where the archive's bytes come from: random reads for the directory and headers, a stream for an entry. */
export type ZipSource = {
  size: number;
  read(offset: number, length: number): Uint8Array;
  /** Bytes [start, end) as a stream. */
  stream(start: number, end: number): Readable;
};

export function bytesSource(bytes: Uint8Array): ZipSource {
  return {
    size: bytes.byteLength,
    read: (offset, length) => bytes.subarray(offset, Math.min(offset + length, bytes.byteLength)),
    stream: (start, end) => Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start)]),
  };
}

/** A file opened for reading; `close` it when done. */
export function fileSource(filePath: string): ZipSource & { close(): void } {
  const fd = fs.openSync(filePath, "r");
  const size = fs.fstatSync(fd).size;
  return {
    size,
    read(offset, length) {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
      fs.readSync(fd, buffer, 0, buffer.length, offset);
      return buffer;
    },
    stream: (start, end) => fs.createReadStream(filePath, { start, end: end - 1, highWaterMark: 256 * 1024 }),
    close: () => fs.closeSync(fd),
  };
}

/** Every entry of the archive, as its central directory declares them. Reads no entry data. */
export function readZipDirectory(source: ZipSource | Uint8Array): ZipEntry[] {
  const from = source instanceof Uint8Array ? bytesSource(source) : source;
  // The record is in the last 22 bytes, or before a comment of up to 65,535 bytes.
  const tailStart = Math.max(0, from.size - EOCD_SIZE - MAX_COMMENT_LENGTH);
  const tail = from.read(tailStart, from.size - tailStart);
  const tailView = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  const eocdInTail = findEndOfCentralDirectory(tailView);
  if (eocdInTail < 0) throw new ZipFormatError("no end of central directory record");
  const eocd = tailStart + eocdInTail;

  const disk = tailView.getUint16(eocdInTail + 4, true);
  const directoryDisk = tailView.getUint16(eocdInTail + 6, true);
  const entriesOnDisk = tailView.getUint16(eocdInTail + 8, true);
  const entryCount = tailView.getUint16(eocdInTail + 10, true);
  const directorySize = tailView.getUint32(eocdInTail + 12, true);
  const directoryOffset = tailView.getUint32(eocdInTail + 16, true);
  if (disk !== 0 || directoryDisk !== 0 || entriesOnDisk !== entryCount) throw new ZipFormatError("split archives are not supported");
  if (entryCount === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) throw new ZipFormatError("zip64 archives are not supported");
  if (directoryOffset + directorySize > eocd) throw new ZipFormatError("the central directory lies outside the file");

  // From the directory to the record: the directory's own size field is not trusted to bound the reads.
  const directory = from.read(directoryOffset, eocd - directoryOffset);
  const view = new DataView(directory.buffer, directory.byteOffset, directory.byteLength);
  const end = directory.byteLength;
  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let at = 0;
  for (let i = 0; i < entryCount; i++) {
    if (at + CENTRAL_HEADER_SIZE > end || view.getUint32(at, true) !== CENTRAL_HEADER_SIGNATURE) throw new ZipFormatError("damaged central directory");
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const uncompressedSize = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const localHeaderOffset = view.getUint32(at + 42, true);
    const nameStart = at + CENTRAL_HEADER_SIZE;
    if (nameStart + nameLength > end) throw new ZipFormatError("damaged central directory");
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
      throw new ZipFormatError("zip64 archives are not supported");
    }
    const name = new TextDecoder().decode(directory.subarray(nameStart, nameStart + nameLength));
    // Two entries of one name: which one a reader takes is up to the reader. Not in a real workbook.
    if (names.has(name)) throw new ZipFormatError(`the entry '${name}' appears twice`);
    names.add(name);
    entries.push({ name, method, flags, compressedSize, uncompressedSize, localHeaderOffset });
    at = nameStart + nameLength + extraLength + commentLength;
  }
  return entries;
}

function findEndOfCentralDirectory(view: DataView): number {
  const last = view.byteLength - EOCD_SIZE;
  for (let at = last; at >= 0; at--) {
    if (view.getUint32(at, true) === EOCD_SIGNATURE && at + EOCD_SIZE + view.getUint16(at + 20, true) <= view.byteLength) return at;
  }
  return -1;
}

/** Bytes a part's stream unpacks ahead of its reader. */
const UNPACKED_AHEAD = 1024 * 1024;

/**
 * The entry's bytes as a stream. Deflate stops with ZipFormatError as soon as the output passes the
 * declared size, so a lying directory costs at most what it declared; inflating runs on libuv's
 * thread pool, chunk by chunk, and never holds the whole entry.
 */
export function inflateEntryStream(source: ZipSource, entry: ZipEntry): Readable {
  const local = entry.localHeaderOffset;
  const header = source.read(local, LOCAL_HEADER_SIZE);
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  if (header.byteLength < LOCAL_HEADER_SIZE || view.getUint32(0, true) !== LOCAL_HEADER_SIGNATURE) {
    throw new ZipFormatError(`damaged local header of '${entry.name}'`);
  }
  if (entry.flags & ENCRYPTED_FLAG) throw new ZipFormatError(`'${entry.name}' is encrypted`);
  const dataStart = local + LOCAL_HEADER_SIZE + view.getUint16(26, true) + view.getUint16(28, true);
  const dataEnd = dataStart + entry.compressedSize;
  if (dataEnd > source.size) throw new ZipFormatError(`'${entry.name}' runs past the end of the file`);

  if (entry.method === STORED) {
    if (entry.compressedSize !== entry.uncompressedSize) throw new ZipFormatError(`'${entry.name}' is stored with two different sizes`);
    return source.stream(dataStart, dataEnd);
  }
  if (entry.method !== DEFLATED) throw new ZipFormatError(`'${entry.name}' uses an unsupported compression method (${entry.method})`);
  if (entry.uncompressedSize === 0) return Readable.from([]);
  // 64 KB pieces rather than zlib's 16 KB: a quarter of the hand-offs to the reader for a large sheet.
  // Up to a megabyte unpacked ahead: zlib works on its own thread while the reader scans, rather
  // than the reader waiting on it for each piece.
  const inflate = zlib.createInflateRaw({ chunkSize: 64 * 1024 });
  let produced = 0;
  const capped = new Transform({
    highWaterMark: UNPACKED_AHEAD,
    transform(chunk: Buffer, _encoding, done) {
      produced += chunk.byteLength;
      if (produced > entry.uncompressedSize) done(new ZipFormatError(`'${entry.name}' unpacks to more than the ${entry.uncompressedSize} bytes it declares`));
      else done(null, chunk);
    },
    flush(done) {
      if (produced !== entry.uncompressedSize)
        done(new ZipFormatError(`'${entry.name}' unpacks to ${produced} bytes, not the ${entry.uncompressedSize} it declares`));
      else done();
    },
  });
  const input = source.stream(dataStart, dataEnd);
  // Errors of either stage reach the reader as the capped stream's; a damaged deflate says so.
  input.on("error", (err) => capped.destroy(err));
  inflate.on("error", () => capped.destroy(new ZipFormatError(`'${entry.name}' is damaged`)));
  capped.on("close", () => {
    input.destroy();
    inflate.destroy();
  });
  return input.pipe(inflate).pipe(capped);
}

/** The entry's bytes, whole (small parts: the workbook and its relationships). */
export async function inflateEntry(source: ZipSource | Uint8Array, entry: ZipEntry): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of inflateEntryStream(source instanceof Uint8Array ? bytesSource(source) : source, entry)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
