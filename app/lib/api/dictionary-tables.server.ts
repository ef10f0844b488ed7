import { z } from "zod";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import {
  pendingReviewsSchema,
  reviewHeaderSchema,
  reviewProblemsPageSchema,
  reviewTablesPageSchema,
  type createTableSchema,
  type ReviewHeader,
  type updateTableSchema,
} from "../../../contracts/dictionary";
import { MAX_UPLOAD_MB } from "~/components/dictionary/schemas.server";
import { countedBody, refusedByService, serviceFailure, UPLOAD_FORM_MAX_BYTES } from "../forms.server";
import { callService, type Caller } from "../api.server";

type As = Caller;

/** Writes answer the changed object; the pages redirect and reload, so any JSON will do. */
const anything = z.unknown();

/**
 * A dictionary's tables and bulk uploads, the same calls for a master dictionary
 * (`/api/v1/data-dictionaries/{id}`) and a project's own (`/api/v1/projects/{id}/data-dictionary`):
 * the data API serves both with the same handlers.
 */
export function dictionaryEndpoints(as: As, base: string) {
  const at = (...rest: string[]) => [base, ...rest.map(encodeURIComponent)].join("/");
  return {
    createTable: (body: z.output<typeof createTableSchema>) =>
      callService("data-api", at("tables"), as, { method: "POST", body, schema: anything }),
    updateTable: (body: z.output<typeof updateTableSchema>) =>
      callService("data-api", at("tables"), as, { method: "PATCH", body, schema: anything }),
    deleteTable: (tableId: string, version: number) =>
      callService("data-api", at("tables", tableId), as, { method: "DELETE", query: { version }, schema: anything }),
    /**
     * The upload form's multipart body (`file`, and `mode`: replace, the file's tables are their full
     * definitions; merge, only add and change) passed on as it streams in. The answer is the review's
     * summary (nothing applied yet).
     */
    upload: (body: ReadableStream<Uint8Array>, contentType: string) =>
      callService("data-api", at("bulk-uploads"), as, { method: "POST", stream: { body, contentType }, schema: reviewHeaderSchema }),
    /** The reviews waiting to be applied or discarded, newest first. */
    pendingReviews: async () => (await callService("data-api", at("bulk-uploads"), as, { schema: pendingReviewsSchema })).items,
    getReview: (reviewId: string) => callService("data-api", at("bulk-uploads", reviewId), as, { schema: reviewHeaderSchema }),
    reviewTables: (reviewId: string, query: { page: number; pageSize: number; table?: string }) =>
      callService("data-api", at("bulk-uploads", reviewId, "tables"), as, { query, schema: reviewTablesPageSchema }),
    reviewProblems: (reviewId: string, query: { page: number; pageSize: number }) =>
      callService("data-api", at("bulk-uploads", reviewId, "problems"), as, { query, schema: reviewProblemsPageSchema }),
    applyReview: (reviewId: string) =>
      callService("data-api", at("bulk-uploads", reviewId, "apply"), as, { method: "POST", schema: anything }),
    discardReview: (reviewId: string) =>
      callService("data-api", at("bulk-uploads", reviewId), as, { method: "DELETE", schema: anything }),
  };
}

/** The pages of a review a page shows at once: tables with their column changes are long, problems short. */
export const REVIEW_TABLES_PAGE_SIZE = 10;
export const REVIEW_PROBLEMS_PAGE_SIZE = 50;

/**
 * What a review page shows, in one round trip: the summary, and the page (`?page=`) of its tables
 * and of its problems (a file with problems has no tables to show, so one page number serves both).
 */
export async function loadReviewPage(endpoints: Pick<ReturnType<typeof dictionaryEndpoints>, "getReview" | "reviewTables" | "reviewProblems">, reviewId: string, params: URLSearchParams) {
  const parsed = Number(params.get("page"));
  const page = Number.isSafeInteger(parsed) && parsed >= 1 ? parsed : 1;
  const [review, tables, problems] = await Promise.all([
    endpoints.getReview(reviewId),
    endpoints.reviewTables(reviewId, { page, pageSize: REVIEW_TABLES_PAGE_SIZE }),
    endpoints.reviewProblems(reviewId, { page, pageSize: REVIEW_PROBLEMS_PAGE_SIZE }),
  ]);
  return { review, tables, problems };
}

/**
 * The upload form is never read here (the data API checks it as it streams): a reply carries only
 * the errors given, on a submission with none of its own.
 */
const unreadUpload = () => parseWithZod(new FormData(), { schema: z.object({}) });

function fileRefusal(message: string, status: number) {
  return data({ result: unreadUpload().reply({ fieldErrors: { file: [message] } }) }, { status });
}

/**
 * The bulk-update form of a dictionary page (master or a workspace's own), passed on to the data API
 * with `send` as it streams in, never held here and never past the upload limit (counted as it goes):
 * the review it became, or the answer to give instead (413 for a file too large, the API's refusal
 * at the file or mode field: it checks the form).
 */
export async function submitDictionaryUpload(
  request: Request,
  send: (body: ReadableStream<Uint8Array>, contentType: string) => Promise<ReviewHeader>,
): Promise<{ review: ReviewHeader; reply?: never } | { reply: ReturnType<typeof fileRefusal>; review?: never }> {
  const tooLarge = () => ({ reply: fileRefusal(`The file is larger than ${MAX_UPLOAD_MB} MB`, 413) });
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > UPLOAD_FORM_MAX_BYTES) return tooLarge();
  const contentType = request.headers.get("content-type") ?? "";
  if (!request.body || !/^multipart\/form-data;.*boundary=/i.test(contentType)) return { reply: fileRefusal("Choose a file to upload", 400) };
  const body = countedBody(request.body, UPLOAD_FORM_MAX_BYTES);
  try {
    return { review: await send(body.stream, contentType) };
  } catch (err) {
    if (body.tooLarge()) return tooLarge();
    // A file the API cannot read at all (not a CSV, not an XLSX, no header): its message, nothing changed.
    return { reply: refusedByService(unreadUpload(), err) };
  }
}

/**
 * The newest upload of a dictionary still waiting for review (its pages link back to it), or null. A
 * notice, not the page: a refusal (4xx) only costs the link; sign-in redirects and outages pass.
 */
export async function newestPendingReview(endpoints: Pick<ReturnType<typeof dictionaryEndpoints>, "pendingReviews">) {
  try {
    const [newest] = await endpoints.pendingReviews();
    return newest ?? null;
  } catch (err) {
    const failure = serviceFailure(err);
    if (failure && failure.status < 500) return null;
    throw err;
  }
}
