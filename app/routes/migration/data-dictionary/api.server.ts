import { z } from "zod";
import { applicationsResponseSchema } from "../../../../contracts/applications";
import {
  dictionariesResponseSchema,
  dictionarySchema,
  dictionarySummarySchema,
  reviewSchema,
  type createDictionarySchema,
  type createTableSchema,
  type updateDictionarySchema,
  type updateTableSchema,
} from "../../../../contracts/dictionary";
import { callService } from "~/lib/api.server";
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

export const createTable = (as: As, id: string, body: z.output<typeof createTableSchema>) =>
  callService("data-api", at(id, "tables"), as, { method: "POST", body, schema: anything });

export const updateTable = (as: As, id: string, body: z.output<typeof updateTableSchema>) =>
  callService("data-api", at(id, "tables"), as, { method: "PATCH", body, schema: anything });

export const deleteTable = (as: As, id: string, tableId: string, version: number) =>
  callService("data-api", at(id, "tables", tableId), as, { method: "DELETE", query: { version }, schema: anything });

/** The file goes on as it came, as multipart `file`; the answer is the review (nothing applied yet). */
export function uploadDictionaryFile(as: As, id: string, file: File) {
  const formData = new FormData();
  formData.set("file", file, file.name);
  return callService("data-api", at(id, "bulk-uploads"), as, { method: "POST", formData, schema: reviewSchema });
}

export const getReview = (as: As, id: string, reviewId: string) =>
  callService("data-api", at(id, "bulk-uploads", reviewId), as, { schema: reviewSchema });

export const applyReview = (as: As, id: string, reviewId: string) =>
  callService("data-api", at(id, "bulk-uploads", reviewId, "apply"), as, { method: "POST", schema: anything });

export const discardReview = (as: As, id: string, reviewId: string) =>
  callService("data-api", at(id, "bulk-uploads", reviewId), as, { method: "DELETE", schema: anything });
