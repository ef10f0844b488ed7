import { Readable } from "node:stream";
import type { Context } from "hono";
import type { Kysely } from "kysely";
import type { Dictionary, DictionaryWritten } from "../../../../../contracts/dictionary.ts";
import { NotFoundError } from "../../api-problem.ts";
import type { AppEnv } from "../../context.ts";
import type { Database } from "../../db/schema.ts";
import { errorResponses, jsonContent } from "../../openapi.ts";
import { getDictionarySummary, getTable, tablesInBatches } from "../../repositories/dictionaries.ts";

export type AnyContext = Context<AppEnv, any, any>;

/**
 * Turns the `{id}` of a route into the dictionary it works on, after checking that the caller may
 * read (`write: false`) or write it; throws 404/403/409 otherwise. Master dictionaries resolve
 * `/data-dictionaries/{id}`; a project resolves `/projects/{id}/data-dictionary` to its own copy.
 */
export type DictionaryResolver = (c: AnyContext, id: string, access: { write: boolean }) => Promise<string>;

/**
 * Called after each successful write (table added, changed or removed, review applied), outside
 * its transaction: a project moves its wizard status on from here.
 */
export type AfterDictionaryWrite = (c: AnyContext, dictionaryId: string) => Promise<void>;

/**
 * Runs one write of the dictionary: `edit` writes it in the transaction it is given. A master
 * dictionary's is just that (writeAsIs); a workspace's makes its databases follow once they exist
 * (data-plane/dictionary-changes.ts), refusing a change that deletes data unless `confirmDataLoss`.
 */
export type DictionaryWriter = (
  c: AnyContext,
  dictionaryId: string,
  edit: (db: Kysely<Database>) => Promise<unknown>,
  options: { confirmDataLoss: boolean },
) => Promise<void>;

export const writeAsIs: DictionaryWriter = async (c, _dictionaryId, edit) => {
  await edit(c.var.deps.db);
};

/** Where a family of dictionary routes is mounted and how it finds and guards its dictionary. */
export type DictionaryRoutesOptions = {
  /** The path under /api/v1 with an `{id}` parameter, e.g. "/data-dictionaries/{id}". */
  basePath: string;
  /** The OpenAPI tag of the routes. */
  tag: string;
  resolve: DictionaryResolver;
  /** writeAsIs when omitted. */
  write?: DictionaryWriter;
  afterWrite?: AfterDictionaryWrite;
};

export const DICTIONARY_NOT_FOUND_MESSAGE = "Data dictionary not found.";

/**
 * GET of a dictionary: its summary with no tables, or with every table (`tables=all`) streamed a
 * batch of tables at a time, so a dictionary of 75,000 columns (15 MB of JSON) is never built whole.
 * A write between two batches would mix two versions in one answer: the version is read again after
 * the last batch and, if it moved, the answer is broken off (no closing bracket, the connection
 * reset), so that a client fails and asks again rather than trusting a mixed dictionary.
 */
export async function dictionaryAnswer(c: AnyContext, dictionaryId: string, options: { tables: "all" | "none" }): Promise<Response> {
  const { db } = c.var.deps;
  const summary = await getDictionarySummary(db, dictionaryId);
  if (!summary) throw new NotFoundError(DICTIONARY_NOT_FOUND_MESSAGE);
  const whole: Dictionary = { ...summary, tables: [] };
  if (options.tables === "none") return c.json(whole, 200);
  const opening = JSON.stringify(whole);
  async function* json(): AsyncGenerator<Buffer> {
    // `tables` is the last key: the summary's JSON up to its empty list, then the tables, then the close.
    yield Buffer.from(opening.slice(0, -"]}".length));
    let first = true;
    for await (const tables of tablesInBatches(db, dictionaryId)) {
      yield Buffer.from((first ? "" : ",") + tables.map((t) => JSON.stringify(t)).join(","));
      first = false;
    }
    const now = await getDictionarySummary(db, dictionaryId);
    if (now?.version !== summary!.version)
      throw new Error(`The dictionary ${dictionaryId} changed while it was sent (version ${summary!.version} → ${now?.version}).`);
    yield Buffer.from("]}");
  }
  return new Response(Readable.toWeb(Readable.from(json())) as ReadableStream, { status: 200, headers: { "content-type": "application/json" } });
}

/** What a write answers (dictionaryWrittenSchema): the new version and counts, and the table written when given. */
export async function writtenDictionary(c: AnyContext, dictionaryId: string, tableId?: string): Promise<DictionaryWritten> {
  const { db } = c.var.deps;
  const [summary, table] = await Promise.all([getDictionarySummary(db, dictionaryId), tableId && getTable(db, dictionaryId, tableId)]);
  if (!summary) throw new NotFoundError(DICTIONARY_NOT_FOUND_MESSAGE);
  return table ? { ...summary, table } : summary;
}

// The shared error body (a named component), for the statuses openapi.ts does not list.
const apiErrorComponent = errorResponses[404].content["application/json"].schema;
const errorBody = (description: string) => jsonContent(apiErrorComponent, description);

/** The error answers of dictionary routes, for the OpenAPI document. */
export const dictionaryErrorResponses = {
  ...errorResponses,
  403: errorBody("The caller's role (or project access) does not allow this."),
  409: errorBody(
    "The version is stale (reload and try again), or a name is already used (`fieldErrors` names the field). A workspace's dictionary whose databases exist also answers " +
      "`data_loss` (the change deletes the data listed in `errors` after the first line: send it again with `confirmDataLoss=true` to apply it), " +
      "A mapping project's answers `value_map_loss` alike for a change that deletes value maps holding values (a table deleted, a column dropped). " +
      "`schema_change_refused` (the databases cannot follow it: values a narrower type cannot hold, nulls in a column made required…), " +
      "`schema_change_failed` (PostgreSQL refused the DDL) or `project_locked`; nothing was changed.",
  ),
  413: errorBody("The file is larger than the upload limit."),
} as const;
