import { z } from "zod";
import { applicationsResponseSchema } from "../../../../contracts/applications";
import {
  dictionariesResponseSchema,
  dictionarySchema,
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

export const listApplications = (as: As, companyId: string) =>
  callService("data-api", "/api/v1/applications", as, { schema: applicationsResponseSchema, query: { companyId } });

export const listDictionaries = (as: As, companyId: string) =>
  callService("data-api", DICTIONARIES, as, { schema: dictionariesResponseSchema, query: { companyId } });

export const getDictionary = (as: As, id: string) => callService("data-api", at(id), as, { schema: dictionarySchema });

export const createDictionary = (as: As, body: z.output<typeof createDictionarySchema>) =>
  callService("data-api", DICTIONARIES, as, { method: "POST", body, schema: dictionarySummarySchema });

export const updateDictionary = (as: As, id: string, body: z.output<typeof updateDictionarySchema>) =>
  callService("data-api", at(id), as, { method: "PATCH", body, schema: anything });

const endpoints = (as: As, id: string) => dictionaryEndpoints(as, at(id));

export const createTable = (as: As, id: string, body: Parameters<ReturnType<typeof endpoints>["createTable"]>[0]) => endpoints(as, id).createTable(body);
export const updateTable = (as: As, id: string, body: Parameters<ReturnType<typeof endpoints>["updateTable"]>[0]) => endpoints(as, id).updateTable(body);
export const deleteTable = (as: As, id: string, tableId: string, version: number) => endpoints(as, id).deleteTable(tableId, version);
export const uploadDictionaryFile = (as: As, id: string, file: File) => endpoints(as, id).upload(file);
export const getReview = (as: As, id: string, reviewId: string) => endpoints(as, id).getReview(reviewId);
export const applyReview = (as: As, id: string, reviewId: string) => endpoints(as, id).applyReview(reviewId);
export const discardReview = (as: As, id: string, reviewId: string) => endpoints(as, id).discardReview(reviewId);
