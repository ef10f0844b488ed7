import { z } from "zod";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { pendingReviewsSchema, reviewSchema, type BulkUploadMode, type createTableSchema, type Review, type updateTableSchema } from "../../../contracts/dictionary";
import { dictionaryUploadSchema, MAX_UPLOAD_MB } from "~/components/dictionary/schemas.server";
import { invalid, readUploadFormData, refusedByService, serviceFailure } from "../forms.server";
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
     * The file goes on as it came, as multipart `file`, with the `mode` (replace: the file's tables are
     * their full definitions; merge: only add and change). The answer is the review (nothing applied yet).
     */
    upload(file: File, mode: BulkUploadMode = "replace") {
      const formData = new FormData();
      formData.set("file", file, file.name);
      formData.set("mode", mode);
      return callService("data-api", at("bulk-uploads"), as, { method: "POST", formData, schema: reviewSchema });
    },
    /** The reviews waiting to be applied or discarded, newest first. */
    pendingReviews: async () => (await callService("data-api", at("bulk-uploads"), as, { schema: pendingReviewsSchema })).items,
    getReview: (reviewId: string) => callService("data-api", at("bulk-uploads", reviewId), as, { schema: reviewSchema }),
    applyReview: (reviewId: string) =>
      callService("data-api", at("bulk-uploads", reviewId, "apply"), as, { method: "POST", schema: anything }),
    discardReview: (reviewId: string) =>
      callService("data-api", at("bulk-uploads", reviewId), as, { method: "DELETE", schema: anything }),
  };
}

/**
 * The bulk-update form of a dictionary page (master or a workspace's own), read while it streams and
 * never past the upload limit, then sent on with `send`: the review it became, or the answer to give
 * instead (413 for a file too large, 400 for a bad form, the API's refusal at the file field).
 */
export async function submitDictionaryUpload(
  request: Request,
  send: (file: File, mode: BulkUploadMode) => Promise<Review>,
): Promise<{ review: Review; reply?: never } | { reply: ReturnType<typeof invalid>; review?: never }> {
  const formData = await readUploadFormData(request);
  if (!formData) {
    const submission = parseWithZod(new FormData(), { schema: dictionaryUploadSchema });
    return { reply: data({ result: submission.reply({ fieldErrors: { file: [`The file is larger than ${MAX_UPLOAD_MB} MB`] } }) }, { status: 413 }) };
  }
  const submission = parseWithZod(formData, { schema: dictionaryUploadSchema });
  if (submission.status !== "success") return { reply: invalid(submission) };
  try {
    return { review: await send(submission.value.file, submission.value.mode) };
  } catch (err) {
    // A file the API cannot read at all (not a CSV, not an XLSX, no header): its message, nothing changed.
    return { reply: refusedByService(submission, err) };
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
