/**
 * Every request body is capped before anything reads it: hono's bodyLimit refuses a declared
 * Content-Length over the limit at once, and counts a body without one (chunked) while it streams,
 * answering 413 as soon as the count passes the limit. Nothing holds more than the limit in memory.
 * An upload is not held at all (hono's bodyLimit gathers a chunked body before handing it on): its
 * body is counted as the route reads it (streamingLimit), and passing the limit fails the read.
 *
 * The limit follows the route (first rule that matches, else JSON_BODY_MAX_BYTES); the answer is
 * the API's JSON error (contracts/errors.ts), on the `file` field for an upload.
 */
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { BULK_UPLOAD_MAX_BYTES } from "../../../contracts/dictionary.ts";
import { MAX_UPLOAD_BYTES_DEFAULT } from "../../../contracts/values/loads.ts";
import type { AppDeps } from "./context.ts";
import { ApiProblem, apiError } from "../../shared/http.ts";
import { FILE_TOO_LARGE_MESSAGE } from "./dictionary-bulk/sheet-rows.ts";

const MB = 1024 * 1024;

/** Any JSON body (the largest legitimate one, a project or a dictionary's fields, is a few KB). */
export const JSON_BODY_MAX_BYTES = 1 * MB;
/** A dictionary table, created or replaced: up to 1,024 columns with 1,000-character descriptions. */
export const TABLE_BODY_MAX_BYTES = 4 * MB;
/** A dictionary bulk upload: the file limit plus the multipart envelope; the file's own size is checked once parsed. */
export const UPLOAD_BODY_MAX_BYTES = BULK_UPLOAD_MAX_BYTES + 64 * 1024;

/** A value map's CSV: 100,000 lines of two values stay far below. */
export const MAP_IMPORT_MAX_BYTES = 20 * MB;

/** The largest flat file a load takes (env MAX_UPLOAD_BYTES; 5 GB by default). */
export function maxUploadBytesOf(deps: Pick<AppDeps, "maxUploadBytes">): number {
  return deps.maxUploadBytes ?? MAX_UPLOAD_BYTES_DEFAULT;
}

export function uploadTooLargeMessage(maxBytes: number) {
  const size = maxBytes >= 1024 ** 3 && maxBytes % 1024 ** 3 === 0 ? `${maxBytes / 1024 ** 3} GB` : `${Math.floor(maxBytes / MB)} MB`;
  return `The file is larger than ${size}, the most a load takes`;
}

export function bodyTooLargeMessage(maxBytes: number) {
  return `The request body is larger than ${maxBytes / MB} MB.`;
}

type Rule = { applies: (c: Context) => boolean; handler: MiddlewareHandler };

const RULES: Rule[] = [
  {
    // POST {dictionary}/bulk-uploads, master or project (routes/dictionaries/bulk-uploads.ts).
    applies: (c) => c.req.method === "POST" && c.req.path.endsWith("/bulk-uploads"),
    handler: streamingLimit(UPLOAD_BODY_MAX_BYTES, FILE_TOO_LARGE_MESSAGE),
  },
  {
    // POST {workspace}/flat-file/loads and /flat-file/uploads (a preview's staging; routes/workspaces/loads.ts): the file limit plus the envelope.
    applies: (c) => c.req.method === "POST" && (c.req.path.endsWith("/flat-file/loads") || c.req.path.endsWith("/flat-file/uploads")),
    handler: (c, next) => {
      const maxBytes = maxUploadBytesOf((c.var as { deps: AppDeps }).deps);
      return streamingLimit(maxBytes + 64 * 1024, uploadTooLargeMessage(maxBytes))(c, next);
    },
  },
  {
    // A mapping project's uploads (routes/workspaces/value-maps.ts, translations.ts): samples and files to translate, as large as a load's.
    applies: (c) =>
      c.req.method === "POST" && /\/mapping-projects\/[^/]+\/(?:mapping-tables\/[^/]+\/samples|file-data-structure\/samples|translations)$/.test(c.req.path),
    handler: (c, next) => {
      const maxBytes = maxUploadBytesOf((c.var as { deps: AppDeps }).deps);
      return streamingLimit(maxBytes + 64 * 1024, uploadTooLargeMessage(maxBytes))(c, next);
    },
  },
  {
    // POST {mapping project}/mapping-columns/{id}/imports: a map CSV (at most 100,000 lines).
    applies: (c) => c.req.method === "POST" && /\/mapping-columns\/[^/]+\/imports$/.test(c.req.path),
    handler: streamingLimit(MAP_IMPORT_MAX_BYTES + 64 * 1024, `The file is larger than ${MAP_IMPORT_MAX_BYTES / MB} MB: import the map in parts`),
  },
  {
    // POST (create) or PATCH (replace) {dictionary}/tables (routes/dictionaries/tables.ts).
    applies: (c) => (c.req.method === "POST" || c.req.method === "PATCH") && c.req.path.endsWith("/tables"),
    handler: jsonLimit(TABLE_BODY_MAX_BYTES),
  },
];

function jsonLimit(maxSize: number): MiddlewareHandler {
  return bodyLimit({ maxSize, onError: (c) => apiError(c, 413, "payload_too_large", [bodyTooLargeMessage(maxSize)]) });
}

/**
 * The upload's cap, without buffering: a declared Content-Length over it answers 413 at once; a
 * body without one is counted chunk by chunk as the route reads it, and the read fails with the
 * 413 (on `file`) once the count passes the limit.
 */
function streamingLimit(maxSize: number, message: string): MiddlewareHandler {
  const tooLarge = () => new ApiProblem(413, "payload_too_large", message, { file: [message] });
  return async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    const declared = c.req.raw.headers.get("content-length");
    if (declared !== null && !c.req.raw.headers.has("transfer-encoding") && Number(declared) > maxSize) {
      return apiError(c, 413, "payload_too_large", [message], { file: [message] });
    }
    let size = 0;
    const counted = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          size += chunk.byteLength;
          if (size > maxSize) controller.error(tooLarge());
          else controller.enqueue(chunk);
        },
      }),
    );
    c.req.raw = new Request(c.req.raw, { body: counted, duplex: "half" } as RequestInit);
    return next();
  };
}

/** The app-wide middleware: each request's body capped at its route's limit. */
export function requestBodyLimits(): MiddlewareHandler {
  const fallback = jsonLimit(JSON_BODY_MAX_BYTES);
  return async (c, next) => {
    // A GET or HEAD has no body (the Node adapter gives it none), and asking bodyLimit would build
    // the whole web Request for nothing: on a cheap read, that is most of its cost.
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    return (RULES.find((rule) => rule.applies(c))?.handler ?? fallback)(c, next);
  };
}
