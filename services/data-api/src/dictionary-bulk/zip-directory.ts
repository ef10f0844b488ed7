/**
 * A zip archive's directory, read by hand (the End Of Central Directory record and the central
 * directory's file headers, PKWARE APPNOTE.TXT §4.3), and its entries unpacked one at a time with a
 * hard cap on their output. Enough to open an .xlsx without trusting it: the caller sees every
 * entry's declared sizes before anything is unpacked, and an entry that unpacks to more than it
 * declares fails while unpacking, after at most that many bytes.
 *
 * Zip64, split and encrypted archives are refused: an .xlsx of a few megabytes needs none of them.
 */
import { promisify } from "node:util";
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
const EOCD_SIZE = 22;
const CENTRAL_HEADER_SIZE = 46;
const LOCAL_HEADER_SIZE = 30;
const MAX_COMMENT_LENGTH = 0xffff;
const STORED = 0;
const DEFLATED = 8;
const ENCRYPTED_FLAG = 0x1;

const inflateRaw = promisify(zlib.inflateRaw);

/** Every entry of the archive, as its central directory declares them. Reads no entry data. */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndOfCentralDirectory(view);
  if (eocd < 0) throw new ZipFormatError("no end of central directory record");

  const disk = view.getUint16(eocd + 4, true);
  const directoryDisk = view.getUint16(eocd + 6, true);
  const entriesOnDisk = view.getUint16(eocd + 8, true);
  const entryCount = view.getUint16(eocd + 10, true);
  const directorySize = view.getUint32(eocd + 12, true);
  const directoryOffset = view.getUint32(eocd + 16, true);
  if (disk !== 0 || directoryDisk !== 0 || entriesOnDisk !== entryCount) throw new ZipFormatError("split archives are not supported");
  if (entryCount === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) throw new ZipFormatError("zip64 archives are not supported");
  if (directoryOffset + directorySize > eocd) throw new ZipFormatError("the central directory lies outside the file");

  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let at = directoryOffset;
  for (let i = 0; i < entryCount; i++) {
    if (at + CENTRAL_HEADER_SIZE > eocd || view.getUint32(at, true) !== CENTRAL_HEADER_SIGNATURE) throw new ZipFormatError("damaged central directory");
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const uncompressedSize = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const localHeaderOffset = view.getUint32(at + 42, true);
    const nameStart = at + CENTRAL_HEADER_SIZE;
    if (nameStart + nameLength > eocd) throw new ZipFormatError("damaged central directory");
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff || localHeaderOffset === 0xffffffff) {
      throw new ZipFormatError("zip64 archives are not supported");
    }
    const name = new TextDecoder().decode(bytes.subarray(nameStart, nameStart + nameLength));
    // Two entries of one name: which one a reader takes is up to the reader. Not in a real workbook.
    if (names.has(name)) throw new ZipFormatError(`the entry '${name}' appears twice`);
    names.add(name);
    entries.push({ name, method, flags, compressedSize, uncompressedSize, localHeaderOffset });
    at = nameStart + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The record is in the last 22 bytes, or before a comment of up to 65,535 bytes. */
function findEndOfCentralDirectory(view: DataView): number {
  const last = view.byteLength - EOCD_SIZE;
  const first = Math.max(0, last - MAX_COMMENT_LENGTH);
  for (let at = last; at >= first; at--) {
    if (view.getUint32(at, true) === EOCD_SIGNATURE && at + EOCD_SIZE + view.getUint16(at + 20, true) <= view.byteLength) return at;
  }
  return -1;
}

/**
 * The entry's bytes. Deflate stops with ZipFormatError as soon as the output passes the declared
 * size (zlib's maxOutputLength), so a lying directory costs at most what it declared; it runs on
 * libuv's thread pool, not on the event loop.
 */
export async function inflateEntry(bytes: Uint8Array, entry: ZipEntry): Promise<Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const local = entry.localHeaderOffset;
  if (local + LOCAL_HEADER_SIZE > bytes.byteLength || view.getUint32(local, true) !== LOCAL_HEADER_SIGNATURE) {
    throw new ZipFormatError(`damaged local header of '${entry.name}'`);
  }
  if (entry.flags & ENCRYPTED_FLAG) throw new ZipFormatError(`'${entry.name}' is encrypted`);
  const dataStart = local + LOCAL_HEADER_SIZE + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  const dataEnd = dataStart + entry.compressedSize;
  if (dataEnd > bytes.byteLength) throw new ZipFormatError(`'${entry.name}' runs past the end of the file`);
  const data = bytes.subarray(dataStart, dataEnd);

  if (entry.method === STORED) {
    if (entry.compressedSize !== entry.uncompressedSize) throw new ZipFormatError(`'${entry.name}' is stored with two different sizes`);
    return data;
  }
  if (entry.method !== DEFLATED) throw new ZipFormatError(`'${entry.name}' uses an unsupported compression method (${entry.method})`);
  if (entry.uncompressedSize === 0) return new Uint8Array(0);
  let output: Buffer;
  try {
    output = await inflateRaw(data, { maxOutputLength: entry.uncompressedSize });
  } catch (err) {
    const tooLarge = (err as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" || err instanceof RangeError;
    throw new ZipFormatError(tooLarge ? `'${entry.name}' unpacks to more than the ${entry.uncompressedSize} bytes it declares` : `'${entry.name}' is damaged`);
  }
  if (output.byteLength !== entry.uncompressedSize) throw new ZipFormatError(`'${entry.name}' unpacks to ${output.byteLength} bytes, not the ${entry.uncompressedSize} it declares`);
  return output;
}
