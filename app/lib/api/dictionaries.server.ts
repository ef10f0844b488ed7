import { z } from "zod";
import {
  dictionarySchema,
  dictionarySearchResponseSchema,
  type dictionarySearchQuerySchema,
  dictionarySummarySchema,
  tableSchema,
  tablesPageSchema,
  type tablesQuerySchema,
  type createDictionarySchema,
  type updateDictionarySchema,
} from "../../../contracts/dictionary";
import { callService, type Caller, type StreamedUpload } from "../api.server";
import { dictionaryEndpoints, loadReviewPage } from "./dictionary-tables.server";

/**
 * The data API's master dictionary endpoints (the Data Dictionary pages of every area, and the
 * workspace wizard's picker). Every call goes through callService with the signed-in user's token.
 */
const DICTIONARIES = "/api/v1/data-dictionaries";
const at = (id: string, ...rest: string[]) => [DICTIONARIES, id, ...rest].map((s, i) => (i === 0 ? s : encodeURIComponent(s))).join("/");
/** Writes answer the changed object; the pages redirect and reload, so any JSON will do. */
const anything = z.unknown();

/** GET /api/v1/data-dictionaries: one page, filtered and sorted by the data API (the Data Dictionary list). */
export const searchDictionaries = (as: Caller, query: z.output<typeof dictionarySearchQuerySchema>) =>
  callService("data-api", DICTIONARIES, as, { schema: dictionarySearchResponseSchema, query });

/** The dictionary without its tables (`tables=none`): a dictionary of thousands of tables is read a page at a time. */
export const getDictionary = (as: Caller, id: string) => callService("data-api", at(id), as, { schema: dictionarySchema, query: { tables: "none" } });

/** A page of the dictionary's tables in order, with their column counts (GET …/tables). */
export const getTablesPage = (as: Caller, id: string, query: z.output<typeof tablesQuerySchema>) =>
  callService("data-api", at(id, "tables"), as, { schema: tablesPageSchema, query });

/** One table with its columns in order (GET …/tables/{tableId}). */
export const getTable = (as: Caller, id: string, tableId: string) => callService("data-api", at(id, "tables", tableId), as, { schema: tableSchema });

export const createDictionary = (as: Caller, body: z.output<typeof createDictionarySchema>) =>
  callService("data-api", DICTIONARIES, as, { method: "POST", body, schema: dictionarySummarySchema });

export const updateDictionary = (as: Caller, id: string, body: z.output<typeof updateDictionarySchema>) =>
  callService("data-api", at(id), as, { method: "PATCH", body, schema: anything });

const endpoints = (as: Caller, id: string) => dictionaryEndpoints(as, at(id));

export const createTable = (as: Caller, id: string, body: Parameters<ReturnType<typeof endpoints>["createTable"]>[0]) => endpoints(as, id).createTable(body);
export const updateTable = (as: Caller, id: string, body: Parameters<ReturnType<typeof endpoints>["updateTable"]>[0]) => endpoints(as, id).updateTable(body);
export const deleteTable = (as: Caller, id: string, tableId: string, version: number) => endpoints(as, id).deleteTable(tableId, version);
export const uploadDictionaryFile = (as: Caller, id: string, upload: StreamedUpload) => endpoints(as, id).upload(upload);
export const pendingReviews = (as: Caller, id: string) => endpoints(as, id).pendingReviews();
export const getReview = (as: Caller, id: string, reviewId: string) => endpoints(as, id).getReview(reviewId);
export const loadReview = (as: Caller, id: string, reviewId: string, params: URLSearchParams) => loadReviewPage(endpoints(as, id), reviewId, params);
export const applyReview = (as: Caller, id: string, reviewId: string) => endpoints(as, id).applyReview(reviewId);
export const discardReview = (as: Caller, id: string, reviewId: string) => endpoints(as, id).discardReview(reviewId);
