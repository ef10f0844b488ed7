/**
 * A multipart/form-data upload received as a stream: its small fields into strings, its file
 * part written to a temporary file as the bytes arrive, so memory stays flat whatever the file's
 * size. Hand-written because @mjackson/multipart-parser keeps every part's content in memory
 * until the part ends (MultipartPart.content: Uint8Array[]), which is the whole file here.
 *
 * The caller removes the file (`remove`) in every path; on any error here it is already gone.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { BULK_UPLOAD_MAX_BYTES } from "../../../../contracts/dictionary.ts";
import { ApiProblem } from "../api-problem.ts";
import { entriesOf, removeLeft } from "../left-files.ts";
import { fileProblem, FILE_TOO_LARGE_MESSAGE } from "./sheet-rows.ts";

export type ReceivedUpload = {
  fields: Record<string, string>;
  /** The (first) file part, on disk. */
  file?: ReceivedFile;
  /** Every file part, on disk, when asked for (`allFiles`); else the first only. */
  files: ReceivedFile[];
  /** Removes the temporary files; safe to call twice. */
  remove(): void;
};

export type ReceivedFile = { path: string; name: string; size: number };

/** Hears how many bytes of a file part are on disk, as they are written (arriving-file.ts ArrivingFile). */
export type FileWatcher = { grew(bytes: number): void };

/**
 * Runs `work` on an upload sent with `fields`; a refusal it throws carries the choices among them named
 * `choices`, as sent (ApiProblem `values`): the portal streams the upload through unread, so a form posted
 * without JavaScript gets them back from here, not its defaults (a blank table, the default mode…).
 */
export async function echoingChoices<T>(fields: Readonly<Record<string, string>>, choices: readonly string[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof ApiProblem && err.statusCode < 500) err.values = Object.fromEntries(choices.filter((n) => n in fields).map((n) => [n, fields[n]!]));
    throw err;
  }
}

/** A text field is a mode or an intent: anything longer is not this form. */
const FIELD_MAX_BYTES = 16 * 1024;
const HEADERS_MAX_BYTES = 16 * 1024;
/** How long the receiving runs before the thread's other work gets a turn. */
const YIELD_EVERY_MS = 4;

/** The folder uploads are written to while they are read: `${dataDir}/tmp/uploads`. */
export function uploadsTmpDir(dataDir: string) {
  return path.join(dataDir, "tmp", "uploads");
}

/**
 * Removes what uploads left in `tmpDir` when their process died (a killed data API mid-upload or
 * mid-load): every file, or with `olderThan` (several processes share the folder) only those last
 * written before then. Answers how many went.
 */
export async function removeLeftUploads(tmpDir: string, olderThan?: Date): Promise<number> {
  return removeLeft(await entriesOf(tmpDir, (name) => name.endsWith(".upload")), olderThan);
}

const unreadable = (why: string) => new ApiProblem(400, "invalid_form", `The upload is not a readable form: ${why}`);

export async function receiveUpload(
  request: Request,
  tmpDir: string,
  maxFileBytes = BULK_UPLOAD_MAX_BYTES,
  tooLargeMessage = FILE_TOO_LARGE_MESSAGE,
  options: {
    /** Keep every file part (several files in one upload), `maxFileBytes` then counting them all together. */
    allFiles?: boolean;
    /**
     * Called with the first file part's first bytes, and the fields sent before it: a watcher it
     * answers hears of that part's bytes as they reach the disk (a load starts as its file arrives).
     * What it throws ends the upload.
     */
    onFileStart?: (file: { name: string; path: string }, fields: Readonly<Record<string, string>>) => Promise<FileWatcher | undefined>;
    /**
     * Where the fields are read into (by default an object of the answer's own): the caller's, it
     * still holds those sent before a refusal thrown while the body is read (too large, unreadable).
     */
    fields?: Record<string, string>;
  } = {},
): Promise<ReceivedUpload> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(request.headers.get("content-type") ?? "");
  if (!boundary || !request.body) throw new ApiProblem(415, "unsupported_media_type", "Send the file as multipart/form-data.");
  const delimiter = Buffer.from(`\r\n--${boundary[1] ?? boundary[2]!.trim()}`);

  fs.mkdirSync(tmpDir, { recursive: true });
  const result: ReceivedUpload = { fields: options.fields ?? {}, files: [], remove: () => {} };
  let out: fs.WriteStream | undefined;
  let writeError: Error | undefined;
  let outPath: string | undefined;
  const paths: string[] = [];
  let fileBytes = 0;
  let asked = false;
  let watched: { out: fs.WriteStream; watcher: FileWatcher; onDisk: number } | undefined;
  const remove = () => {
    if (out && !out.destroyed) out.destroy();
    for (const p of paths) fs.rmSync(p, { force: true });
  };
  result.remove = remove;

  // The body as if it started with a CRLF: then every delimiter, the first included, is "\r\n--boundary".
  let buffer: Buffer = Buffer.from("\r\n");
  let state: "preamble" | "headers" | "content" | "done" = "preamble";
  let part: { name: string; fileName?: string; chunks: Buffer[]; size: number } | undefined;

  const write = async (bytes: Buffer) => {
    if (!part || bytes.length === 0) return;
    part.size += bytes.length;
    if (part.fileName === undefined) {
      if (part.size > FIELD_MAX_BYTES) throw unreadable(`the field '${part.name}' is too long`);
      part.chunks.push(bytes);
    } else if (out) {
      fileBytes += bytes.length;
      if (fileBytes > maxFileBytes) throw fileProblem(413, tooLargeMessage);
      if (writeError) throw writeError;
      if (!asked && options.onFileStart) {
        asked = true;
        const watcher = await options.onFileStart({ name: part.fileName, path: outPath! }, result.fields);
        if (watcher) watched = { out, watcher, onDisk: 0 };
      }
      const length = bytes.length;
      const heard = watched?.out === out ? watched : undefined;
      const written = heard && ((err?: Error | null) => !err && heard.watcher.grew((heard.onDisk += length)));
      if (!out.write(bytes, written)) await once(out, "drain");
    }
  };
  const endPart = async () => {
    if (!part) return;
    if (part.fileName === undefined) result.fields[part.name] ??= Buffer.concat(part.chunks).toString("utf8");
    else if (out) {
      const stream = out;
      await new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
      // A browser sends an empty part named "" when no file was chosen: that is no file.
      if (part.fileName !== "" || part.size > 0) result.files.push({ path: outPath!, name: part.fileName, size: part.size });
      result.file ??= result.files[0];
      out = undefined;
    }
    part = undefined;
  };
  const startPart = (headerText: string) => {
    const disposition = /^content-disposition:(.*)$/im.exec(headerText)?.[1] ?? "";
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? "";
    const fileName = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    part = { name, chunks: [], size: 0, ...(fileName !== undefined ? { fileName: path.basename(fileName.replace(/\\/g, "/")) } : {}) };
    // Only the first file is kept unless all are asked for; any other file part is read and dropped.
    if (fileName !== undefined && (!outPath || options.allFiles)) {
      outPath = path.join(tmpDir, `${Date.now()}-${randomBytes(8).toString("hex")}.upload`);
      paths.push(outPath);
      // Opened now, not when the stream gets round to it: a removal right after must find the file.
      // Writes queue up to 4 MiB before the reading waits: the disk and the network work side by side
      // (with the default 16 KiB every chunk of the request waited for its own write).
      out = fs.createWriteStream(outPath, { fd: fs.openSync(outPath, "w"), highWaterMark: 4 * 1024 * 1024 });
      // A failed write (disk full) is thrown by the next write or the end, not left unhandled.
      out.on("error", (err) => (writeError ??= err));
    }
  };

  try {
    const reader = request.body.getReader();
    let turn = performance.now();
    for (;;) {
      // The body's chunks come as promises, one after another while the socket has more: without a
      // turn given now and then, timers and other I/O wait for the whole upload (a load it feeds,
      // backing up meanwhile, would wait for all of it).
      if (performance.now() - turn > YIELD_EVERY_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        turn = performance.now();
      }
      const { done, value } = await reader.read();
      if (value) buffer = buffer.length === 0 ? Buffer.from(value) : Buffer.concat([buffer, value]);
      for (;;) {
        if (state === "preamble" || state === "content") {
          const at = buffer.indexOf(delimiter);
          if (at < 0) {
            // Keep what could be the start of a delimiter cut by the chunk's end.
            const keep = Math.min(buffer.length, delimiter.length - 1);
            if (state === "content") await write(buffer.subarray(0, buffer.length - keep));
            buffer = buffer.subarray(buffer.length - keep);
            break;
          }
          if (state === "content") {
            await write(buffer.subarray(0, at));
            await endPart();
          }
          const after = at + delimiter.length;
          if (buffer.length < after + 2) {
            buffer = buffer.subarray(at);
            if (done) throw unreadable("it ends inside a boundary");
            break;
          }
          if (buffer[after] === 0x2d && buffer[after + 1] === 0x2d) {
            state = "done";
            break;
          }
          buffer = buffer.subarray(after + 2);
          state = "headers";
        }
        if (state === "headers") {
          const end = buffer.indexOf("\r\n\r\n");
          if (end < 0) {
            if (buffer.length > HEADERS_MAX_BYTES) throw unreadable("a part's headers are too long");
            break;
          }
          startPart(buffer.subarray(0, end).toString("utf8"));
          buffer = buffer.subarray(end + 4);
          state = "content";
          continue;
        }
        if (state === "done") break;
      }
      if (state === "done") {
        // Read to the end rather than cancel (the epilogue is a line break at most, and the body is
        // capped): cancelling undici's FormData body makes it fail later, outside any request.
        if (!done) while (!(await reader.read()).done);
        break;
      }
      if (done) throw unreadable("it ends before its closing boundary");
    }
    return result;
  } catch (err) {
    remove();
    throw err;
  }
}
