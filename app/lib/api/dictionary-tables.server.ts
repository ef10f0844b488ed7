import { z } from "zod";
import {
  CONFIRM_DATA_LOSS_PARAM,
  pendingReviewsSchema,
  reviewHeaderSchema,
  reviewProblemsPageSchema,
  reviewTablesPageSchema,
  type createTableSchema,
  type ReviewHeader,
  type updateTableSchema,
} from "../../../contracts/dictionary";
import { MAX_UPLOAD_MB } from "~/components/dictionary/schemas.server";
import { formatTimestamp } from "~/components/projects/format";
import { REVIEW_PARAM } from "~/lib/workspace-paths";
import { serviceFailure, submitUpload, UPLOAD_FORM_MAX_BYTES } from "../forms.server";
import { PAGING_KEYS } from "../list-search";
import { readPage } from "../list-search.server";
import { callService, type Caller, type StreamedUpload } from "../api.server";

type As = Caller;

/** `confirmDataLoss`: the user confirmed the data a refusal listed may go (decision 017). */
type Confirmation = { confirmDataLoss: boolean };

/** A write of a workspace's dictionary that may delete data (or a mapping project's value maps), sent again with the user's confirmation: its query. */
export const confirming = (write: Confirmation | undefined) => (write?.confirmDataLoss ? { [CONFIRM_DATA_LOSS_PARAM]: "true" } : {});

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
    createTable: (body: z.output<typeof createTableSchema>, write?: Confirmation) =>
      callService("data-api", at("tables"), as, { method: "POST", body, query: confirming(write), schema: anything }),
    updateTable: (body: z.output<typeof updateTableSchema>, write?: Confirmation) =>
      callService("data-api", at("tables"), as, { method: "PATCH", body, query: confirming(write), schema: anything }),
    deleteTable: (tableId: string, version: number, write?: Confirmation) =>
      callService("data-api", at("tables", tableId), as, { method: "DELETE", query: { version, ...confirming(write) }, schema: anything }),
    /**
     * The upload form's multipart body (`file`, and `mode`: replace, the file's tables are their full
     * definitions; merge, only add and change) passed on as it streams in. The answer is the review's
     * summary (nothing applied yet).
     */
    upload: (upload: StreamedUpload) =>
      callService("data-api", at("bulk-uploads"), as, { method: "POST", stream: upload, schema: reviewHeaderSchema }),
    /** The reviews waiting to be applied or discarded, newest first. */
    pendingReviews: async () => (await callService("data-api", at("bulk-uploads"), as, { schema: pendingReviewsSchema })).items,
    getReview: (reviewId: string) => callService("data-api", at("bulk-uploads", reviewId), as, { schema: reviewHeaderSchema }),
    reviewTables: (reviewId: string, query: { page: number; pageSize: number; table?: string }) =>
      callService("data-api", at("bulk-uploads", reviewId, "tables"), as, { query, schema: reviewTablesPageSchema }),
    reviewProblems: (reviewId: string, query: { page: number; pageSize: number }) =>
      callService("data-api", at("bulk-uploads", reviewId, "problems"), as, { query, schema: reviewProblemsPageSchema }),
    applyReview: (reviewId: string, write?: Confirmation) =>
      callService("data-api", at("bulk-uploads", reviewId, "apply"), as, { method: "POST", query: confirming(write), schema: anything }),
    discardReview: (reviewId: string) =>
      callService("data-api", at("bulk-uploads", reviewId), as, { method: "DELETE", schema: anything }),
  };
}

/** The pages of a review a page shows at once: tables with their column changes are long, problems short. */
export const REVIEW_TABLES_PAGE_SIZE = 10;
export const REVIEW_PROBLEMS_PAGE_SIZE = 50;

/**
 * What a review page shows, in one round trip: the summary, and the page (`?page=&pageSize=`) of its tables
 * and of its problems (a file with problems has no tables to show, so one page number and one page size serve
 * both; without a size each list has its own default).
 */
export async function loadReviewPage(endpoints: Pick<ReturnType<typeof dictionaryEndpoints>, "getReview" | "reviewTables" | "reviewProblems">, reviewId: string, params: URLSearchParams) {
  const [review, tables, problems] = await Promise.all([
    endpoints.getReview(reviewId),
    endpoints.reviewTables(reviewId, readPage(params, PAGING_KEYS, REVIEW_TABLES_PAGE_SIZE)),
    endpoints.reviewProblems(reviewId, readPage(params, PAGING_KEYS, REVIEW_PROBLEMS_PAGE_SIZE)),
  ]);
  return { review, tables, problems };
}

/**
 * The bulk-update form of a dictionary page (master or a workspace's own), passed on to the data API
 * with `send` as it streams in (submitUpload): the review it became, or the answer to give instead.
 */
export function submitDictionaryUpload(request: Request, send: (upload: StreamedUpload) => Promise<ReviewHeader>) {
  return submitUpload(request, { maxBytes: UPLOAD_FORM_MAX_BYTES, tooLargeMessage: `The file is larger than ${MAX_UPLOAD_MB} MB`, noFileMessage: "Choose a file to upload" }, send).then(
    ({ value, reply }) => (reply ? { reply } : { review: value! }),
  );
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

/**
 * The notice of `newest` (from newestPendingReview) for PendingReviewNotice: the upload, its time in
 * words (the page does not load the formats), and the link to its review page at `reviewPath`.
 */
export function pendingReviewLinkTo(newest: Awaited<ReturnType<typeof newestPendingReview>>, reviewPath: string) {
  if (!newest) return null;
  const { fileName, createdAt, errorCount } = newest;
  return { review: { fileName, createdAt, errorCount, uploaded: formatTimestamp(createdAt) }, to: { path: reviewPath, search: { [REVIEW_PARAM]: newest.id } } };
}
