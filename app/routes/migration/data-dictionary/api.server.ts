import { z } from "zod";
import { applicationSearchResponseSchema, type applicationSearchQuerySchema } from "../../../../contracts/applications";
import { PAGE_SIZES } from "../../../../contracts/common";
import {
  type BulkUploadMode,
  dictionarySchema,
  dictionarySearchResponseSchema,
  type dictionarySearchQuerySchema,
  dictionarySummarySchema,
  type createDictionarySchema,
  type updateDictionarySchema,
} from "../../../../contracts/dictionary";
import { callService } from "~/lib/api.server";
import { dictionaryEndpoints } from "~/lib/dictionary-api.server";
import type { Shell } from "~/lib/guards.server";

/**
 * The data API's master dictionary and application endpoints, as the pages of this folder call
 * them. Every call goes through callService with the signed-in user's token.
 */
type As = Pick<Shell, "request" | "authenticated">;

const DICTIONARIES = "/api/v1/data-dictionaries";
const at = (id: string, ...rest: string[]) => [DICTIONARIES, id, ...rest].map((s, i) => (i === 0 ? s : encodeURIComponent(s))).join("/");
/** Writes answer the changed object; the pages redirect and reload, so any JSON will do. */
const anything = z.unknown();

/** GET /api/v1/applications: one page, filtered and sorted by the data API (the Applications list). */
export const searchApplications = (as: As, query: z.output<typeof applicationSearchQuerySchema>) =>
  callService("data-api", "/api/v1/applications", as, { schema: applicationSearchResponseSchema, query });

/** GET /api/v1/data-dictionaries: one page, filtered and sorted by the data API (the Data Dictionary list). */
export const searchDictionaries = (as: As, query: z.output<typeof dictionarySearchQuerySchema>) =>
  callService("data-api", DICTIONARIES, as, { schema: dictionarySearchResponseSchema, query });

/**
 * How many items a select that offers "all" of a company's applications or dictionaries asks for:
 * the largest page the API serves, sorted by name. A company with more than this many sees only the
 * first ones in the select: no company comes near it today, and the next step when one does is a
 * searchable picker (a combobox over the same search endpoints), not a bigger page.
 */
export const SELECT_LIMIT: (typeof PAGE_SIZES)[number] = 100;

/** The company's applications for a select: the first SELECT_LIMIT by name (see there). */
export const selectableApplications = async (as: As, companyId: string) =>
  (await searchApplications(as, { companyId, sort: "name", page: 1, pageSize: SELECT_LIMIT })).items;

/** The company's master dictionaries (optionally of one application) for a select: the first SELECT_LIMIT by name. */
export const selectableDictionaries = async (as: As, companyId: string, applicationId?: string) =>
  (await searchDictionaries(as, { companyId, applicationId, sort: "name", page: 1, pageSize: SELECT_LIMIT })).items;

export const getDictionary = (as: As, id: string) => callService("data-api", at(id), as, { schema: dictionarySchema });

export const createDictionary = (as: As, body: z.output<typeof createDictionarySchema>) =>
  callService("data-api", DICTIONARIES, as, { method: "POST", body, schema: dictionarySummarySchema });

export const updateDictionary = (as: As, id: string, body: z.output<typeof updateDictionarySchema>) =>
  callService("data-api", at(id), as, { method: "PATCH", body, schema: anything });

const endpoints = (as: As, id: string) => dictionaryEndpoints(as, at(id));

export const createTable = (as: As, id: string, body: Parameters<ReturnType<typeof endpoints>["createTable"]>[0]) => endpoints(as, id).createTable(body);
export const updateTable = (as: As, id: string, body: Parameters<ReturnType<typeof endpoints>["updateTable"]>[0]) => endpoints(as, id).updateTable(body);
export const deleteTable = (as: As, id: string, tableId: string, version: number) => endpoints(as, id).deleteTable(tableId, version);
export const uploadDictionaryFile = (as: As, id: string, file: File, mode?: BulkUploadMode) => endpoints(as, id).upload(file, mode);
export const pendingReviews = (as: As, id: string) => endpoints(as, id).pendingReviews();
export const getReview = (as: As, id: string, reviewId: string) => endpoints(as, id).getReview(reviewId);
export const applyReview = (as: As, id: string, reviewId: string) => endpoints(as, id).applyReview(reviewId);
export const discardReview = (as: As, id: string, reviewId: string) => endpoints(as, id).discardReview(reviewId);
