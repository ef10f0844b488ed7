import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  createDictionarySchema,
  createMasterTableSchema,
  dictionaryReadQuerySchema,
  dictionarySchema,
  dictionaryWrittenSchema,
  dictionarySearchQuerySchema,
  dictionarySearchResponseSchema,
  updateDictionarySchema,
  updateMasterTableSchema,
} from "../../../../../contracts/dictionary.ts";
import { requireMigrationRole } from "../../access.ts";
import { NotFoundError } from "../../api-problem.ts";
import { createRouter, jsonBody, jsonContent } from "../../openapi.ts";
import { createMasterDictionary, findDictionaryRef, searchDictionaries, updateDictionary } from "../../repositories/dictionaries.ts";
import { createBulkUploadRoutes } from "./bulk-uploads.ts";
import { DICTIONARY_NOT_FOUND_MESSAGE, dictionaryErrorResponses, dictionaryAnswer, writtenDictionary, type DictionaryResolver } from "./shared.ts";
import { createDictionaryTableRoutes } from "./tables.ts";
import { requireApplicationOfCompany } from "../workspaces/rules.ts";
import { createdOnceRule } from "../workspaces/shared.ts";

const TAG = "Data dictionaries";

const { 400: e400, 401: e401, 403: e403, 404: e404, 409: e409, 503: e503 } = dictionaryErrorResponses;
const readErrors = { 401: e401, 403: e403, 404: e404, 503: e503 } as const;

/**
 * A master dictionary by id: never a project's copy, and another company's answers 404 exactly
 * like an unknown id. The caller needs a Migration role in the dictionary's company.
 */
export const resolveMasterDictionary: DictionaryResolver = async (c, id, access) => {
  const ref = await findDictionaryRef(c.var.deps.db, id);
  if (!ref || ref.projectId !== null) throw new NotFoundError(DICTIONARY_NOT_FOUND_MESSAGE);
  await requireMigrationRole(c, ref.companyId, { ...access, notFoundMessage: DICTIONARY_NOT_FOUND_MESSAGE });
  return ref.id;
};

const list = createRoute({
  method: "get",
  path: "/data-dictionaries",
  tags: [TAG],
  summary: "A page of a company's master data dictionaries",
  description:
    "Filters: application, name contains (any case; `%` and `_` match themselves). Sorted by name (default), application or last update, and paginated in SQL.",
  request: { query: dictionarySearchQuerySchema },
  responses: { 200: jsonContent(dictionarySearchResponseSchema, "One page of dictionaries with their table and column counts, with the total."), 400: e400, ...readErrors },
});

const create = createRoute({
  method: "post",
  path: "/data-dictionaries",
  tags: [TAG],
  summary: "Create an empty master dictionary of an application of the same company",
  description: createdOnceRule("data dictionary"),
  request: { body: jsonBody(createDictionarySchema) },
  responses: { 201: jsonContent(dictionaryWrittenSchema, "The new dictionary (version 1, no tables)."), 400: e400, ...readErrors, 409: e409 },
});

const idParams = z.object({ id: z.string().min(1) });

const read = createRoute({
  method: "get",
  path: "/data-dictionaries/{id}",
  tags: [TAG],
  summary: "A master dictionary: its name, version and counts; with tables=all, also every table with its columns in order (pages read them a page at a time: GET …/tables)",
  request: { params: idParams, query: dictionaryReadQuerySchema },
  responses: { 200: jsonContent(dictionarySchema, "The dictionary."), 400: e400, ...readErrors },
});

const update = createRoute({
  method: "patch",
  path: "/data-dictionaries/{id}",
  tags: [TAG],
  summary: "Rename or re-describe a master dictionary, based on its version",
  request: { params: idParams, body: jsonBody(updateDictionarySchema) },
  responses: { 200: jsonContent(dictionaryWrittenSchema, "The dictionary's new version."), 400: e400, ...readErrors, 409: e409 },
});

export function createDataDictionariesRouter() {
  const router = createRouter()
    .openapi(list, async (c) => {
      const query = c.req.valid("query");
      const company = await requireMigrationRole(c, query.companyId, { write: false });
      return c.json(await searchDictionaries(c.var.deps.db, { ...query, companyId: company.id }), 200);
    })
    .openapi(create, async (c) => {
      const input = c.req.valid("json");
      const company = await requireMigrationRole(c, input.companyId, { write: true });
      // Another company's application is refused at the field, as a project's or configuration's is.
      const application = await requireApplicationOfCompany(c.var.deps.db, input.applicationId, company.id);
      const id = await createMasterDictionary(c.var.deps.db, {
        id: input.id,
        companyId: company.id,
        applicationId: application.id,
        name: input.name,
        description: input.description,
        userId: c.var.caller.userId,
      });
      return c.json(await writtenDictionary(c, id), 201);
    })
    .openapi(read, async (c) => {
      const id = await resolveMasterDictionary(c, c.req.valid("param").id, { write: false });
      return (await dictionaryAnswer(c, id, c.req.valid("query"))) as never;
    })
    .openapi(update, async (c) => {
      const id = await resolveMasterDictionary(c, c.req.valid("param").id, { write: true });
      const { version, name, description } = c.req.valid("json");
      await updateDictionary(c.var.deps.db, id, { expectedVersion: version, name, description, userId: c.var.caller.userId });
      return c.json(await writtenDictionary(c, id), 200);
    });

  const base = { basePath: "/data-dictionaries/{id}", tag: TAG, resolve: resolveMasterDictionary };
  router.route("/", createDictionaryTableRoutes({ ...base, bodies: { create: createMasterTableSchema, update: updateMasterTableSchema } }));
  router.route("/", createBulkUploadRoutes(base));
  return router;
}
