/**
 * A text file's encoding, chosen or detected, and its text decoded as it streams from disk.
 *
 * Detection (encoding "AutoDetect") looks at the file's first 64 KB: a byte-order mark first
 * (UTF-8, UTF-16 LE, UTF-16 BE); then NUL bytes at every other position (UTF-16 without a mark:
 * Latin text in UTF-16 has a zero in every pair); then whether the bytes are valid UTF-8; else
 * Windows-1252. A start of plain ASCII says nothing yet: UTF-8 and Windows-1252 read it alike, so
 * the decision waits for the first byte above 127, wherever in the file it comes (legacy exports
 * often have their first "é" thousands of rows down), and `detected.encoding` says what it was.
 */
import { isAscii, isUtf8 } from "node:buffer";
import fs from "node:fs";
import { ENCODING_LABELS, type Encoding } from "../../../../../contracts/projects.ts";
import { type Arrival, UPLOAD_STOPPED_MESSAGE } from "./arriving-file.ts";
import { FlatFileProblem } from "./flat-file-problem.ts";
import { beginsAsZip } from "../../dictionary-bulk/zip-directory.ts";

export type TextEncoding = Exclude<Encoding, "AutoDetect">;

const DECODER_LABELS: Record<TextEncoding, string> = {
  "UTF-8": "utf-8",
  "UTF-16LE": "utf-16le",
  "UTF-16BE": "utf-16be",
  "Windows-1252": "windows-1252",
  "ISO-8859-1": "iso-8859-1",
};

/** How much of the file's start decides the encoding and the delimiter, and shows a binary file for what it is. */
export const SNIFF_BYTES = 64 * 1024;
/**
 * The file is read and decoded 64 KB at a time: Node 20's TextDecoder decodes a chunk of 64 KB or less
 * at some 1.3 GB/s and one of 128–512 KB at 0.15–0.2 GB/s (measured on the bench's 56 MB file: 40 ms
 * against 310–370 ms). With 256 KB chunks that was a third of the load worker's reading.
 */
export const TEXT_CHUNK_BYTES = 64 * 1024;

const BOMS: [TextEncoding, number[]][] = [
  ["UTF-8", [0xef, 0xbb, 0xbf]],
  ["UTF-16LE", [0xff, 0xfe]],
  ["UTF-16BE", [0xfe, 0xff]],
];

export const NOT_TEXT_MESSAGE = "The file is not text: it holds binary data. Choose a delimited or fixed-length text file (.csv, .txt, .dta)";
export const ZIP_NOT_TEXT_MESSAGE =
  "The file is a zip archive or an .xlsx workbook, not text: to load a workbook, save the parameters with the .xlsx extension and the Excel delimiter";

export type FileText = {
  /** The encoding the file is read in: as chosen, or as detected so far (see above). */
  detected: { encoding: TextEncoding };
  /** The byte-order mark the file starts with (left out of its text), if any. */
  byteOrderMark: TextEncoding | null;
  /** The first 64 KB as text (for the delimiter). */
  start: string;
  texts: AsyncGenerator<string>;
};

/**
 * The file's text in `encoding`; refuses a binary file, and a byte-order mark that contradicts the
 * chosen encoding. With `arrival`, the file is still being uploaded: read as it comes.
 */
export async function readFileText(path: string, encoding: Encoding, onBytes: (read: number) => void, arrival?: Arrival): Promise<FileText> {
  const head = await readStart(path, arrival);
  const bom = BOMS.find(([, bytes]) => bytes.every((b, i) => head[i] === b))?.[0];
  if (bom && encoding !== "AutoDetect" && bom !== encoding) {
    throw new FlatFileProblem(`The file starts with a ${ENCODING_LABELS[bom]} byte-order mark: choose the encoding ${ENCODING_LABELS[bom]} (or Auto detect)`);
  }
  if (beginsAsZip(head)) throw new FlatFileProblem(ZIP_NOT_TEXT_MESSAGE);
  const found = encoding === "AutoDetect" ? detectEncoding(head) : { encoding, waiting: false };
  const detected = { encoding: found.encoding };
  const wide = found.encoding === "UTF-16LE" || found.encoding === "UTF-16BE";
  const start = new TextDecoder(DECODER_LABELS[found.encoding]).decode(head);
  // A NUL is no character of any text file: in 8-bit text a NUL byte, in UTF-16 a NUL pair.
  if (wide ? start.includes("\u0000") : head.includes(0)) throw new FlatFileProblem(NOT_TEXT_MESSAGE);
  const chunks = chunksOf(path, onBytes, arrival);
  const texts = found.waiting ? decodeAsciiUntilDecided(chunks, detected) : decode(found.encoding, chunks);
  return { detected, byteOrderMark: bom ?? null, start, texts };
}

/**
 * The encoding of a file that starts with `head`. `waiting`: all of it is ASCII, read as UTF-8 until
 * a byte above 127 decides between UTF-8 and Windows-1252.
 */
export function detectEncoding(head: Uint8Array): { encoding: TextEncoding; waiting: boolean } {
  const bom = BOMS.find(([, bytes]) => bytes.every((b, i) => head[i] === b))?.[0];
  if (bom) return { encoding: bom, waiting: false };
  const pairs = Math.floor(head.length / 2);
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i + 1 < head.length; i += 2) {
    if (head[i] === 0) evenNul++;
    if (head[i + 1] === 0) oddNul++;
  }
  // Text in UTF-16: one byte of most pairs is zero, the other almost never (a binary file has zeros anywhere).
  if (pairs > 0 && oddNul >= pairs * 0.4 && evenNul <= pairs * 0.02) return { encoding: "UTF-16LE", waiting: false };
  if (pairs > 0 && evenNul >= pairs * 0.4 && oddNul <= pairs * 0.02) return { encoding: "UTF-16BE", waiting: false };
  if (isAscii(head)) return { encoding: "UTF-8", waiting: true };
  return { encoding: isUtf8(head.subarray(0, completeUtf8Length(head))) ? "UTF-8" : "Windows-1252", waiting: false };
}

/** The length of `bytes` without a UTF-8 sequence cut by its end (the sniff, or a chunk, ends anywhere). */
function completeUtf8Length(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if (b < 0x80) return bytes.length;
    if (b >= 0xc0) {
      const needed = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return needed > back ? bytes.length - back : bytes.length;
    }
  }
  return bytes.length;
}

async function readStart(path: string, arrival?: Arrival): Promise<Uint8Array> {
  // As much as the sniff reads, or all there will be of a smaller file.
  await arrival?.beyond(SNIFF_BYTES - 1);
  const handle = await fs.promises.open(path, "r");
  try {
    const buffer = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The file's chunks as read, each reported to `onBytes`; a file still arriving, as far as it is there, then as it comes. */
async function* chunksOf(path: string, onBytes: (read: number) => void, arrival?: Arrival): AsyncGenerator<Buffer> {
  let read = 0;
  if (!arrival) {
    for await (const chunk of fs.createReadStream(path, { highWaterMark: TEXT_CHUNK_BYTES })) {
      read += (chunk as Buffer).length;
      onBytes(read);
      yield chunk as Buffer;
    }
    return;
  }
  const handle = await fs.promises.open(path, "r");
  try {
    for (;;) {
      const onDisk = await arrival.beyond(read);
      if (onDisk <= read) return;
      const chunk = Buffer.allocUnsafe(Math.min(TEXT_CHUNK_BYTES, onDisk - read));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, read);
      // Fewer bytes than were said to be on disk: the file was cut short, or removed (the load's job ended).
      if (bytesRead === 0) throw new FlatFileProblem(UPLOAD_STOPPED_MESSAGE);
      read += bytesRead;
      onBytes(read);
      yield bytesRead === chunk.length ? chunk : chunk.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

function notIn(encoding: TextEncoding) {
  return new FlatFileProblem(`The file is not ${ENCODING_LABELS[encoding]} text: choose the encoding it was saved in`);
}

/**
 * A file that is not valid in its encoding is refused rather than read with replacement characters. A
 * byte-order mark is left out. The text before the first byte that is not valid comes first, then the
 * refusal: a load counts (and checks) the rows before it ("2 read", not "0 read"), as it does those
 * before a row the delimited reader cannot read (read-delimited.ts).
 */
async function* decode(encoding: TextEncoding, chunks: AsyncGenerator<Buffer>): AsyncGenerator<string> {
  const decoder = new TextDecoder(DECODER_LABELS[encoding], { fatal: true });
  // The bytes decoded so far, and their last few: those of a character cut by a chunk's end are among them.
  let decoded = 0;
  let last: Uint8Array = new Uint8Array(0);
  for await (const chunk of chunks) {
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      const before = validStart(encoding, Buffer.concat([undecoded(encoding, last, decoded), chunk]), decoded === 0);
      if (before) yield before;
      throw notIn(encoding);
    }
    yield text;
    decoded += chunk.length;
    last = chunk.length >= 3 ? chunk.subarray(-3) : Buffer.concat([last, chunk]).subarray(-3);
  }
  try {
    yield decoder.decode();
  } catch {
    throw notIn(encoding);
  }
}

/**
 * The bytes at the end of valid text (`last`, its last three of `decoded`) a streaming decoder holds
 * back: a UTF-8 character cut short; in UTF-16 an odd byte, and a high surrogate waiting for its pair.
 */
function undecoded(encoding: TextEncoding, last: Uint8Array, decoded: number): Uint8Array {
  if (encoding === "UTF-8") return last.subarray(completeUtf8Length(last));
  if (encoding !== "UTF-16LE" && encoding !== "UTF-16BE") return last.subarray(last.length);
  const odd = decoded % 2;
  const unit = last.subarray(last.length - odd - 2, last.length - odd);
  const high = unit.length === 2 && ((encoding === "UTF-16LE" ? unit[1]! : unit[0]!) & 0xfc) === 0xd8;
  return last.subarray(last.length - odd - (high ? 2 : 0));
}

/**
 * The text of `bytes` up to its first byte not valid in `encoding` (without a character cut there):
 * the longest start a fatal decoder reads without an error, found by halving (a start of a valid
 * start is valid). Only for a file being refused.
 */
function validStart(encoding: TextEncoding, bytes: Uint8Array, fileStart: boolean): string {
  const read = (length: number) =>
    new TextDecoder(DECODER_LABELS[encoding], { fatal: true, ignoreBOM: !fileStart }).decode(bytes.subarray(0, length), { stream: true });
  const valid = (length: number) => {
    try {
      read(length);
      return true;
    } catch {
      return false;
    }
  };
  let low = 0;
  let high = bytes.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (valid(middle)) low = middle;
    else high = middle - 1;
  }
  return read(low);
}

/** ASCII chunks as they are, until the first byte above 127: valid UTF-8 from there on says UTF-8, else Windows-1252. */
async function* decodeAsciiUntilDecided(chunks: AsyncGenerator<Buffer>, detected: { encoding: TextEncoding }): AsyncGenerator<string> {
  for await (const chunk of chunks) {
    if (isAscii(chunk)) {
      yield chunk.toString("latin1");
      continue;
    }
    const from = chunk.findIndex((b) => b > 0x7f);
    detected.encoding = isUtf8(chunk.subarray(from, completeUtf8Length(chunk))) ? "UTF-8" : "Windows-1252";
    async function* rest(): AsyncGenerator<Buffer> {
      yield chunk;
      yield* chunks;
    }
    yield* decode(detected.encoding, rest());
    return;
  }
}

/**
 * Text written to be read back in `encoding` (a table's rejected rows, downloaded to be corrected and
 * loaded again under the parameters that rejected them): its byte-order mark first, for the Unicode
 * encodings (which readFileText accepts under that encoding or Auto detect), then the text's bytes.
 */
export function textWriter(encoding: TextEncoding): { charset: string; start: Buffer; encode: (text: string) => Buffer } {
  const bom = BOMS.find(([of]) => of === encoding)?.[1] ?? [];
  return { charset: DECODER_LABELS[encoding], start: Buffer.from(bom), encode: (text) => encodeText(text, encoding) };
}

/** Windows-1252's byte of each character, as its decoder reads them (the decoder reads ISO-8859-1 as Windows-1252, as browsers do). */
let eightBitBytes: Map<number, number> | undefined;

function encodeText(text: string, encoding: TextEncoding): Buffer {
  if (encoding === "UTF-8") return Buffer.from(text, "utf8");
  if (encoding === "UTF-16LE") return Buffer.from(text, "utf16le");
  if (encoding === "UTF-16BE") return Buffer.from(text, "utf16le").swap16();
  if (!eightBitBytes) {
    const decoder = new TextDecoder(DECODER_LABELS["Windows-1252"]);
    eightBitBytes = new Map(Array.from({ length: 256 }, (_, byte) => [decoder.decode(Uint8Array.of(byte)).charCodeAt(0), byte]));
  }
  const bytes = eightBitBytes;
  // A character the encoding lacks (none of the file's own cells: they were read in it) becomes "?".
  return Buffer.from(Array.from(text, (character) => bytes.get(character.charCodeAt(0)) ?? 0x3f));
}
