import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  BULK_UPLOAD_EXTENSIONS,
  bulkUploadModeSchema,
  dictionarySchema,
  pendingReviewsSchema,
  reviewSchema,
} from "../../../../../contracts/dictionary.ts";
import { NotFoundError } from "../../api-problem.ts";
import { parseDictionaryFile } from "../../dictionary-bulk/parse-file.ts";
import { applyReview, createReview, discardReview, getReview, listPendingReviews, REVIEW_NOT_FOUND_MESSAGE } from "../../dictionary-bulk/reviews.ts";
import { createRouter, jsonContent } from "../../openapi.ts";
import { dictionaryErrorResponses, loadDictionary, type DictionaryRoutesOptions } from "./shared.ts";

const { 400: e400, 401: e401, 403: e403, 404: e404, 409: e409, 413: e413, 503: e503 } = dictionaryErrorResponses;
const readErrors = { 401: e401, 403: e403, 404: e404, 503: e503 } as const;

export const CHOOSE_FILE_MESSAGE = `Choose a ${BULK_UPLOAD_EXTENSIONS.join(" or ")} file`;

const uploadBody = z.object({
  file: z.custom<File>((v) => v instanceof File, { message: CHOOSE_FILE_MESSAGE }).openapi({ type: "string", format: "binary" }),
  mode: bulkUploadModeSchema.default("replace").openapi({
    description: "replace: each table in the file is its full definition (its columns not in the file are removed). merge: only add and change, never remove.",
  }),
});

/**
 * Bulk upload → review → apply or discard, for one dictionary (master or a project's copy, by
 * `resolve`). Uploading never changes the dictionary: it stores a review, which lists every row
 * error (then it cannot be applied) or, per table of the file, the columns added, changed and removed.
 *
 * The app caps the upload's body while it streams (body-limits.ts, UPLOAD_BODY_MAX_BYTES, answered
 * on `file`); the file's own size and content are checked once parsed (parse-file.ts).
 */
export function createBulkUploadRoutes(options: DictionaryRoutesOptions) {
  const { basePath, tag, resolve, afterWrite } = options;
  const idParams = z.object({ id: z.string().min(1) });
  const reviewParams = z.object({ id: z.string().min(1), reviewId: z.string().min(1) });

  const upload = createRoute({
    method: "post",
    path: `${basePath}/bulk-uploads`,
    tags: [tag],
    summary: "Upload a dictionary file (.csv or .xlsx, one row per column) and get its review",
    description:
      "Header row (any order, any case): table, column, type, length, precision, scale, nullable, key, description; " +
      "table, column and type are required. At most 5 MB. Row errors come back inside the review (201, canApply false); " +
      "a file that cannot be read at all (extension, size, empty, not a workbook) answers 400 or 413. " +
      "`mode` (replace, the default, or merge) says whether columns of a listed table that the file leaves out are removed.",
    request: { params: idParams, body: { required: true, content: { "multipart/form-data": { schema: uploadBody } } } },
    responses: { 201: jsonContent(reviewSchema, "The stored review."), 400: e400, ...readErrors, 413: e413 },
  });

  const pending = createRoute({
    method: "get",
    path: `${basePath}/bulk-uploads`,
    tags: [tag],
    summary: "The reviews waiting to be applied or discarded, newest first (expired and stale ones left out)",
    request: { params: idParams },
    responses: { 200: jsonContent(pendingReviewsSchema, "The pending reviews."), ...readErrors },
  });

  const read = createRoute({
    method: "get",
    path: `${basePath}/bulk-uploads/{reviewId}`,
    tags: [tag],
    summary: "A stored review (kept 24 hours)",
    request: { params: reviewParams },
    responses: { 200: jsonContent(reviewSchema, "The review."), ...readErrors },
  });

  const apply = createRoute({
    method: "post",
    path: `${basePath}/bulk-uploads/{reviewId}/apply`,
    tags: [tag],
    summary: "Apply a review: the tables it lists get the file's columns, in one transaction",
    responses: { 200: jsonContent(dictionarySchema, "The dictionary with its new version."), 400: e400, ...readErrors, 409: e409 },
    request: { params: reviewParams },
  });

  const discard = createRoute({
    method: "delete",
    path: `${basePath}/bulk-uploads/{reviewId}`,
    tags: [tag],
    summary: "Discard a review; the dictionary stays as it is",
    request: { params: reviewParams },
    responses: { 204: { description: "Discarded." }, ...readErrors },
  });

  const router = createRouter()
    .openapi(upload, async (c) => {
      const dictionaryId = await resolve(c, c.req.valid("param").id, { write: true });
      const { file, mode } = c.req.valid("form");
      const parsed = await parseDictionaryFile(new Uint8Array(await file.arrayBuffer()), file.name);
      const review = await createReview(c.var.deps.db, dictionaryId, parsed, { fileName: file.name, userId: c.var.caller.userId, mode });
      return c.json(review, 201);
    })
    .openapi(pending, async (c) => {
      const dictionaryId = await resolve(c, c.req.valid("param").id, { write: false });
      return c.json({ items: await listPendingReviews(c.var.deps.db, dictionaryId) }, 200);
    })
    .openapi(read, async (c) => {
      const { id, reviewId } = c.req.valid("param");
      const dictionaryId = await resolve(c, id, { write: false });
      const review = await getReview(c.var.deps.db, dictionaryId, reviewId);
      if (!review) throw new NotFoundError(REVIEW_NOT_FOUND_MESSAGE);
      return c.json(review, 200);
    })
    .openapi(apply, async (c) => {
      const { id, reviewId } = c.req.valid("param");
      const dictionaryId = await resolve(c, id, { write: true });
      await applyReview(c.var.deps.db, dictionaryId, reviewId, c.var.caller.userId);
      if (afterWrite) await afterWrite(c, dictionaryId);
      return c.json(await loadDictionary(c, dictionaryId), 200);
    })
    .openapi(discard, async (c) => {
      const { id, reviewId } = c.req.valid("param");
      const dictionaryId = await resolve(c, id, { write: true });
      if (!(await discardReview(c.var.deps.db, dictionaryId, reviewId))) throw new NotFoundError(REVIEW_NOT_FOUND_MESSAGE);
      return c.body(null, 204);
    });
  return router;
}
