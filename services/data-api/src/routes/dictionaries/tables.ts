import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  confirmDataLossQuerySchema,
  createTableSchema,
  dictionaryWrittenSchema,
  tableSchema,
  tablesPageSchema,
  tablesQuerySchema,
  updateTableSchema,
} from "../../../../../contracts/dictionary.ts";
import { versionSchema } from "../../../../../contracts/common.ts";
import { NotFoundError } from "../../api-problem.ts";
import { createRouter, jsonBody, jsonContent } from "../../openapi.ts";
import { createTable, deleteTable, getTable, listTables, updateTable } from "../../repositories/dictionaries.ts";
import { TABLE_NOT_FOUND_MESSAGE } from "../../repositories/dictionary-tables.ts";
import { dictionaryErrorResponses, writeAsIs, writtenDictionary, type DictionaryRoutesOptions } from "./shared.ts";

const { 400: e400, 401: e401, 403: e403, 404: e404, 409: e409, 503: e503 } = dictionaryErrorResponses;
const readErrors = { 401: e401, 403: e403, 404: e404, 503: e503 } as const;
const writeErrors = { 400: e400, ...readErrors, 409: e409 } as const;

export type DictionaryTableRoutesOptions = DictionaryRoutesOptions & {
  /** The path of one table under basePath; "/tables/{tableId}" unless the caller's spec says otherwise. */
  tablePath?: string;
  /** The bodies of POST and PATCH; createTableSchema and updateTableSchema unless a kind of dictionary asks more (a master's table needs a column). */
  bodies?: { create: typeof createTableSchema; update: typeof updateTableSchema };
};

/**
 * The tables of one dictionary: list (paginated), read one, add, replace, remove. Mounted for master
 * dictionaries under /data-dictionaries/{id} and for a project's copy under
 * /projects/{id}/data-dictionary, each with its own `resolve`. Writes carry the dictionary version
 * they are based on and answer its new version and counts, with the table written (never every table).
 */
export function createDictionaryTableRoutes(options: DictionaryTableRoutesOptions) {
  const { basePath, tag, resolve, afterWrite, write = writeAsIs, bodies = { create: createTableSchema, update: updateTableSchema } } = options;
  const tablePath = `${basePath}${options.tablePath ?? "/tables/{tableId}"}`;
  const idParams = z.object({ id: z.string().min(1) });
  const tableParams = z.object({ id: z.string().min(1), tableId: z.string().min(1) });

  const list = createRoute({
    method: "get",
    path: `${basePath}/tables`,
    tags: [tag],
    summary: "A page of the dictionary's tables, in order, with their column counts",
    request: { params: idParams, query: tablesQuerySchema },
    responses: { 200: jsonContent(tablesPageSchema, "The page."), 400: e400, ...readErrors },
  });

  const read = createRoute({
    method: "get",
    path: tablePath,
    tags: [tag],
    summary: "One table with its columns in order",
    request: { params: tableParams },
    responses: { 200: jsonContent(tableSchema, "The table."), ...readErrors },
  });

  const create = createRoute({
    method: "post",
    path: `${basePath}/tables`,
    tags: [tag],
    summary: "Add a table after the last one",
    request: { params: idParams, query: confirmDataLossQuerySchema, body: jsonBody(bodies.create) },
    responses: { 201: jsonContent(dictionaryWrittenSchema, "The dictionary's new version and counts, and the new table (`table`)."), ...writeErrors },
  });

  const replace = createRoute({
    method: "patch",
    path: `${basePath}/tables`,
    tags: [tag],
    summary: "Replace a table's name, description and columns",
    description: "Columns keep their ids while their names stay (any case); the others are added or removed. Order is the array's.",
    request: { params: idParams, query: confirmDataLossQuerySchema, body: jsonBody(bodies.update) },
    responses: { 200: jsonContent(dictionaryWrittenSchema, "The dictionary's new version and counts, and the table as written (`table`)."), ...writeErrors },
  });

  const remove = createRoute({
    method: "delete",
    path: tablePath,
    tags: [tag],
    summary: "Remove a table and its columns",
    request: { params: tableParams, query: confirmDataLossQuerySchema.extend({ version: versionSchema }) },
    responses: { 200: jsonContent(dictionaryWrittenSchema, "The dictionary's new version and counts."), ...writeErrors },
  });

  async function written(c: Parameters<typeof resolve>[0], dictionaryId: string, tableId?: string) {
    if (afterWrite) await afterWrite(c, dictionaryId);
    return writtenDictionary(c, dictionaryId, tableId);
  }

  const router = createRouter()
    .openapi(list, async (c) => {
      const dictionaryId = await resolve(c, c.req.valid("param").id, { write: false });
      return c.json(await listTables(c.var.deps.db, dictionaryId, c.req.valid("query")), 200);
    })
    .openapi(read, async (c) => {
      const { id, tableId } = c.req.valid("param");
      const dictionaryId = await resolve(c, id, { write: false });
      const table = await getTable(c.var.deps.db, dictionaryId, tableId);
      if (!table) throw new NotFoundError(TABLE_NOT_FOUND_MESSAGE);
      return c.json(table, 200);
    })
    .openapi(create, async (c) => {
      const dictionaryId = await resolve(c, c.req.valid("param").id, { write: true });
      const { version, ...table } = c.req.valid("json");
      const { confirmDataLoss = false } = c.req.valid("query");
      let tableId = "";
      await write(
        c,
        dictionaryId,
        async (db) => ({ tableId } = await createTable(db, dictionaryId, table, { expectedVersion: version, userId: c.var.caller.userId })),
        { confirmDataLoss },
      );
      return c.json(await written(c, dictionaryId, tableId), 201);
    })
    .openapi(replace, async (c) => {
      const dictionaryId = await resolve(c, c.req.valid("param").id, { write: true });
      const { version, tableId, ...table } = c.req.valid("json");
      const { confirmDataLoss = false } = c.req.valid("query");
      await write(c, dictionaryId, (db) => updateTable(db, dictionaryId, tableId, table, { expectedVersion: version, userId: c.var.caller.userId }), {
        confirmDataLoss,
      });
      return c.json(await written(c, dictionaryId, tableId), 200);
    })
    .openapi(remove, async (c) => {
      const { id, tableId } = c.req.valid("param");
      const dictionaryId = await resolve(c, id, { write: true });
      const { version, confirmDataLoss = false } = c.req.valid("query");
      await write(c, dictionaryId, (db) => deleteTable(db, dictionaryId, tableId, { expectedVersion: version, userId: c.var.caller.userId }), {
        confirmDataLoss,
      });
      return c.json(await written(c, dictionaryId), 200);
    });
  return router;
}
