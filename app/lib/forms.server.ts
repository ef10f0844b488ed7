import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { z } from "zod";
import { BULK_UPLOAD_MAX_BYTES } from "../../contracts/dictionary";
import type { ServiceFailure, StreamedUpload } from "./api.server";

const UNREADABLE = "The form could not be read. Reload the page and try again.";
/** A post without what its page always sends (only a forged or truncated one). */
export const INCOMPLETE_REQUEST = "The request was incomplete: reload the page and try again.";

/**
 * The id of the thing a page's button acts on, in the hidden field `name`: a post without it is refused at the
 * top of the page, where the user can read it, never next to a field they cannot see nor in Zod's words. With
 * `.and` for the form's other fields: refused whatever those are.
 */
export function actedOn<K extends string>(name: K) {
  return z
    .object({ [name]: z.string().optional() } as { [P in K]: z.ZodOptional<z.ZodString> })
    .refine((v) => Boolean((v as Record<string, string | undefined>)[name]), { message: INCOMPLETE_REQUEST, path: [] })
    .transform((v) => ({ [name]: (v as Record<string, string | undefined>)[name] ?? "" }) as { [P in K]: string });
}

/** A page's button acting on the thing its hidden `id` names (actedOn). */
export const actedOnIdSchema = actedOn("id");

/** The most a form post may carry: far more than any form of the portal needs. */
export const FORM_MAX_BYTES = 1024 * 1024;
/** The dictionary uploads: a file of BULK_UPLOAD_MAX_BYTES (64 MB) plus 1 MB of room for the multipart envelope. */
export const UPLOAD_FORM_MAX_BYTES = BULK_UPLOAD_MAX_BYTES + 1024 * 1024;

/** The request body went past the route's limit: nothing more of it was read. */
export class BodyTooLargeError extends Error {
  override name = "BodyTooLargeError";
  constructor(readonly maxBytes: number) {
    super(`The request is larger than ${formatBytes(maxBytes)}.`);
  }
}

function formatBytes(bytes: number) {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * The posted form, read while it streams and never past `maxBytes`: a Content-Length over the limit is
 * refused before anything is read; a body without one (chunked) is counted as it arrives and reading
 * stops at the first chunk that passes the limit (at most the limit plus one chunk is ever read, so
 * a 20 MB chunked upload never fills the portal's memory). Throws BodyTooLargeError then, and any
 * other failure of the body or of parsing it as it is.
 */
export async function readFormDataWithin(request: Request, maxBytes: number): Promise<FormData> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw new BodyTooLargeError(maxBytes);
  if (!request.body) return request.formData();
  const body = countedBody(request.body, maxBytes);
  const contentType = request.headers.get("content-type");
  try {
    return await new Response(body.stream, { headers: contentType ? { "content-type": contentType } : {} }).formData();
  } catch (err) {
    if (body.tooLarge()) throw new BodyTooLargeError(maxBytes);
    throw err;
  }
}

/**
 * An upload form (multipart) passed on to a service with `send` as it streams in: never read or held
 * here, never past `maxBytes` (counted as it goes). The service checks the form: its answer, or the
 * reply to give instead (413 for a file too large; the service's refusal at its fields: file, table…).
 * A file declared too large is refused before it is sent, with the fields sent ahead of it kept.
 */
export async function submitUpload<T>(
  request: Request,
  limit: { maxBytes: number; tooLargeMessage: string; noFileMessage: string },
  send: (upload: StreamedUpload) => Promise<T>,
): Promise<{ value: T; reply?: never } | { reply: ReturnType<typeof fileRefusal>; value?: never }> {
  const tooLarge = (values?: Record<string, string>) => ({ reply: fileRefusal(limit.tooLargeMessage, 413, values) });
  const declared = request.headers.get("content-length");
  const contentType = request.headers.get("content-type") ?? "";
  if (declared !== null && Number(declared) > limit.maxBytes) return tooLarge(request.body ? await fieldsAheadOfFile(request.body, contentType) : {});
  if (!request.body || !/^multipart\/form-data;.*boundary=/i.test(contentType)) return { reply: fileRefusal(limit.noFileMessage, 400) };
  const body = countedBody(request.body, limit.maxBytes);
  try {
    // The length the browser declared goes along: the counted body is the same bytes, or fails.
    const length = declared === null || !/^\d+$/.test(declared) ? undefined : Number(declared);
    return { value: await send({ body: body.stream, contentType, length }) };
  } catch (err) {
    // The body, passed on as it came, is no longer here to read its fields from.
    if (body.tooLarge()) return tooLarge();
    // A form the service refused (a file it cannot read, a field it names): its message, nothing changed,
    // and the choices it was sent with, which the service echoes, back in the form (the file never is).
    return { reply: refusedByService(unreadUpload(serviceFailure(err)?.body.values), err) };
  }
}

/**
 * The upload form is never read here (the service checks it as it streams): a reply carries only the
 * errors given, and as the form's values those the service says it was sent (none: the form's defaults).
 */
function unreadUpload(values: Record<string, string> = {}) {
  const sent = new FormData();
  for (const [name, value] of Object.entries(values)) sent.set(name, value);
  return parseWithZod(sent, { schema: z.object({}) });
}

function fileRefusal(message: string, status: number, values?: Record<string, string>) {
  return data({ result: unreadUpload(values).reply({ fieldErrors: { file: [message] } }) }, { status });
}

/** The most of a body read for the fields ahead of its file: a form's choices, never a file. */
const FIELDS_AHEAD_MAX_BYTES = 64 * 1024;

/**
 * The text fields a multipart body sends ahead of its first file (a browser sends a form's fields in
 * the form's order: the load form's choices come before its file), read from its first bytes, at most
 * FIELDS_AHEAD_MAX_BYTES, and parsed as a form that ends there: the file is never read. None when the
 * file comes first or the head cannot be read.
 */
async function fieldsAheadOfFile(body: ReadableStream<Uint8Array>, contentType: string): Promise<Record<string, string>> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!boundary) return {};
  const delimiter = `--${(boundary[1] ?? boundary[2]!).trim()}`;
  const reader = body.getReader();
  let head = Buffer.alloc(0);
  let fileAt = -1;
  try {
    while (fileAt < 0 && head.length < FIELDS_AHEAD_MAX_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      head = Buffer.concat([head, value]);
      fileAt = head.toString("latin1").search(/^content-disposition:[^\r\n]*\bfilename=/im);
    }
  } catch {
    return {};
  } finally {
    // The rest stays unread (the server discards or drops it after the answer).
    reader.releaseLock();
  }
  const fieldsEnd = fileAt < 0 ? -1 : head.lastIndexOf(delimiter, fileAt, "latin1");
  if (fieldsEnd < 0) return {};
  try {
    const ahead = Buffer.concat([head.subarray(0, fieldsEnd), Buffer.from(`${delimiter}--\r\n`, "latin1")]);
    const form = await new Response(ahead, { headers: { "content-type": contentType } }).formData();
    return Object.fromEntries([...form].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  } catch {
    return {};
  }
}

/**
 * A request body counted as it is read: the stream fails with BodyTooLargeError at the first chunk
 * that passes `maxBytes`, and reads nothing more (at most the limit plus one chunk is ever read).
 * Pulled one chunk at a time, only when its reader asks: passed on as it comes, it never piles up.
 */
export function countedBody(source: ReadableStream<Uint8Array>, maxBytes: number): { stream: ReadableStream<Uint8Array>; tooLarge(): boolean } {
  const reader = source.getReader();
  let received = 0;
  let tooLarge = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        received += value.byteLength;
        if (received > maxBytes) {
          tooLarge = true;
          // Stop here: the rest stays unread (the server discards or drops it after the answer).
          reader.releaseLock();
          return controller.error(new BodyTooLargeError(maxBytes));
        }
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, tooLarge: () => tooLarge };
}

/**
 * The posted form (at most `maxBytes`, FORM_MAX_BYTES unless the route says otherwise). A body over the
 * limit is a 413 and one that cannot be read (a broken multipart body) a 400, both with a message for
 * the top of the page: never a 500.
 */
export async function readFormData(request: Request, maxBytes = FORM_MAX_BYTES): Promise<FormData> {
  try {
    return await readFormDataWithin(request, maxBytes);
  } catch (err) {
    if (err instanceof BodyTooLargeError) {
      throw data<ServiceFailure>({ errors: [`${err.message} Nothing was saved.`] }, { status: 413 });
    }
    throw data<ServiceFailure>({ errors: [UNREADABLE] }, { status: 400 });
  }
}

/** Parses a form post with its schema (the server always validates); a forged intent is a 400 too. */
export async function parseForm<S extends z.ZodType>(request: Request, schema: S, maxBytes = FORM_MAX_BYTES) {
  const formData = await readFormData(request, maxBytes);
  return { formData, submission: parseFormData(formData, schema) };
}

/**
 * A form post parsed with its schema and, when it is valid, sent on with `send`: the service's answer, or the reply
 * to give instead (invalid's, nothing sent; or the service's refusal at its fields, refusedByService's).
 */
export async function submitForm<S extends z.ZodType, T>(
  request: Request,
  schema: S,
  send: (value: z.output<S>) => Promise<T>,
): Promise<{ value: T; reply?: never } | { reply: ReturnType<typeof invalid>; value?: never }> {
  const { submission } = await parseForm(request, schema);
  if (submission.status !== "success") return { reply: invalid(submission) };
  try {
    return { value: await send(submission.value) };
  } catch (err) {
    return { reply: refusedByService(submission, err) };
  }
}

/**
 * A form already read, parsed as parseForm does (a form Conform cannot read is a 400). A field the schema reads as
 * one value that the post sends more than once (a forged or mangled post, an extension copying a field) is refused at
 * that field with SENT_MORE_THAN_ONCE, never in Zod's words ("expected string, received array").
 */
export function parseFormData<S extends z.ZodType>(formData: FormData, schema: S): Submission<z.output<S>> {
  try {
    return parseWithZod(formData, {
      schema: schema as never,
      formatError: (issues: z.core.$ZodIssue[]) => [
        ...new Set(issues.map((issue) => (sentMoreThanOnce(formData, issue) ? SENT_MORE_THAN_ONCE : issue.message))),
      ],
    }) as Submission<z.output<S>>;
  } catch {
    throw data<ServiceFailure>({ errors: [UNREADABLE] }, { status: 400 });
  }
}

export const SENT_MORE_THAN_ONCE = "This field was sent more than once: reload the page and try again.";

/**
 * Zod's refusals of a value that is not the one value its schema reads (a type, a choice, none of a union's), where
 * the form sent the field more than once (Conform reads it as a list). A list's own rules (too few, too many) and its
 * items' refusals (`name[0]`) are the list's, said as they are.
 */
function sentMoreThanOnce(formData: FormData, issue: z.core.$ZodIssue) {
  const oneValue = (issue.code === "invalid_type" && issue.expected !== "array") || issue.code === "invalid_value" || issue.code === "invalid_union";
  return oneValue && formData.getAll(fieldName(issue.path)).length > 1;
}

/** A Zod issue's path as Conform names the field: `columns[0].name`. */
const fieldName = (path: readonly PropertyKey[]) =>
  path.reduce<string>((name, key) => (typeof key === "number" ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key)), "");

/**
 * Every `name` field of the form, as exactValue (forms.ts) wrote them: the values the page held, to
 * the letter. A field that is not such a value (a forged form, or a page from before it was one) is a
 * 400: read as it is, it would name another value.
 */
export function readExactValues(formData: FormData, name: string): string[] {
  return formData.getAll(name).map((field) => {
    let value: unknown;
    try {
      value = typeof field === "string" ? JSON.parse(field) : undefined;
    } catch {
      // Not JSON: refused below.
    }
    if (typeof value !== "string") throw data<ServiceFailure>({ errors: [UNREADABLE] }, { status: 400 });
    return value;
  });
}

/** Several buttons on one page send an `intent`; anything else is a bad request, never a 500. */
export function unknownIntent(intent: unknown): never {
  throw data<ServiceFailure>({ errors: [`Unknown action${typeof intent === "string" && intent ? `: ${intent}` : ""}.`] }, { status: 400 });
}

/**
 * 400 with the field errors next to the fields; nothing was changed. A list's button (Add column,
 * Remove, Move: a Conform intent, which a form without JavaScript posts) is not a submission: the form
 * comes back changed, without judging fields the user has not finished (every new column said
 * "Required"). `hidden`: the names of the form's own hidden fields (as their errors name them), besides
 * the version every form sends hidden.
 */
export function invalid(submission: Submission<unknown>, hidden: readonly RegExp[] = []) {
  if (submission.status === undefined) return data({ result: { ...submission.reply(), error: {} } }, { status: 200 });
  // A refusal of what a form sends hidden (the version its write is based on, the rows it acts on): a forged or
  // truncated post, said at the top in words, since no page shows a hidden field's error (and this one would be Zod's).
  const names = [...HIDDEN_FIELDS, ...hidden];
  if (submission.status === "error" && Object.entries(submission.error ?? {}).some(([name, errors]) => errors && names.some((n) => n.test(name))))
    return data({ result: submission.reply({ formErrors: [INCOMPLETE_REQUEST] }) }, { status: 400 });
  return data({ result: submission.reply() }, { status: 400 });
}

/**
 * The fields the portal's forms only ever send hidden: `version`, the version of what a form changes (a stale one is
 * the data API's 409), and `id`, what a button acts on or the id an add form gives what it makes (madeIdSchema).
 */
const HIDDEN_FIELDS = [/^version$/, /^id$/];

/**
 * A service refused the write (a duplicate name, a stale version: 409, a validation error): show
 * its messages next to the fields it names, the rest at the top of the form, with its 4xx status.
 * `shown`: whether the form shows a field the service names; the messages of one it does not (what
 * the action sent besides the form's fields) go to the top, where they are seen. Anything else (401
 * redirects, 5xx) is rethrown for the guards and the error page.
 */
export function refusedByService(submission: Submission<unknown>, err: unknown, shown: (field: string) => boolean = () => true) {
  const failure = serviceFailure(err);
  if (!failure || failure.status >= 500) throw err;
  // The API names nested fields with dots (columns.0.name), Conform with brackets (columns[0].name).
  const named = Object.entries(failure.body.fieldErrors ?? {}).map(([name, errors]) => [name.replace(/\.(\d+)(?=\.|$)/g, "[$1]"), errors] as const);
  const fieldErrors = Object.fromEntries(named.filter(([name]) => shown(name)));
  const unshown = named.filter(([name]) => !shown(name)).flatMap(([, errors]) => errors);
  const said = named.flatMap(([, errors]) => errors);
  return data(
    {
      result: submission.reply({
        formErrors: [...unshown, ...(named.length > 0 ? failure.body.errors.filter((e) => !said.includes(e)) : failure.body.errors)],
        fieldErrors,
      }),
    },
    { status: failure.status },
  );
}

/**
 * A form's refusal (invalid, refusedByService) tagged with the form it belongs to, for a page whose
 * forms post the same fields (a row's id): each form shows only its own refusal, read by `form`.
 */
export function refusalOf<F extends string>(form: F, answer: ReturnType<typeof invalid>) {
  return data({ ...answer.data, form }, answer.init ?? { status: 400 });
}

/** The status and body of a failure thrown by callService (a `data()` value), or null. */
export function serviceFailure(err: unknown): { status: number; body: ServiceFailure } | null {
  if (!err || typeof err !== "object" || (err as { type?: unknown }).type !== "DataWithResponseInit") return null;
  const { data: body, init } = err as { data: ServiceFailure; init: ResponseInit | null };
  return { status: init?.status ?? 500, body };
}
