import { deferAudit } from "../../audit-writes.ts";
import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import {
  BULK_UPLOAD_MAX_BYTES,
  BULK_UPLOAD_MODES,
  bulkUploadModeSchema,
  confirmDataLossQuerySchema,
  dictionaryWrittenSchema,
  pendingReviewsSchema,
  reviewHeaderSchema,
  reviewPageQuerySchema,
  reviewProblemsPageSchema,
  reviewTablesPageSchema,
  reviewTablesQuerySchema,
} from "../../../../../contracts/dictionary.ts";
import { ApiProblem, NotFoundError } from "../../api-problem.ts";
import { receiveUpload, uploadsTmpDir } from "../../dictionary-bulk/receive-upload.ts";
import { setTimeout as delay } from "node:timers/promises";
import { PARSE_FAILED_MESSAGE } from "../../dictionary-bulk/parse-in-worker.ts";
import {
  applyReview,
  discardReview,
  dropReview,
  failReview,
  getReview,
  listPendingReviews,
  REVIEW_NOT_FOUND_MESSAGE,
  reviewProblemsPage,
  reviewTablesPage,
  startReviewFromFile,
} from "../../dictionary-bulk/reviews.ts";
import { createRouter, jsonContent } from "../../openapi.ts";
import { dictionaryErrorResponses, writeAsIs, writtenDictionary, type DictionaryRoutesOptions } from "./shared.ts";

const { 400: e400, 401: e401, 403: e403, 404: e404, 409: e409, 413: e413, 503: e503 } = dictionaryErrorResponses;
const readErrors = { 401: e401, 403: e403, 404: e404, 503: e503 } as const;

/**
 * How long an upload's request waits for its review: a file read within it is answered as before
 * (201, or the refusal); a bigger one is answered 202 while it is still being read, and its review
 * page shows the rows read so far until it is ready (the user sees progress, not a spinning tab).
 */
export const UPLOAD_WAIT_MS = 3000;

/** As the portal's upload form says it (the portal passes the form on unread). */
export const CHOOSE_FILE_MESSAGE = "Choose a file to upload";

/**
 * The form, documented but not validated by the router (a Zod schema here would make it read the
 * whole body with parseBody): the handler streams it (receive-upload.ts) and checks its fields.
 */
const uploadBody = {
  type: "object" as const,
  required: ["file"],
  properties: {
    file: { type: "string" as const, format: "binary" },
    mode: {
      type: "string" as const,
      enum: [...BULK_UPLOAD_MODES],
      default: "replace",
      description: "replace: each table in the file is its full definition (its columns not in the file are removed). merge: only add and change, never remove.",
    },
  },
};

/**
 * Bulk upload → review → apply or discard, for one dictionary (master or a project's copy, by
 * `resolve`). Uploading never changes the dictionary: it stores a review, which lists every row
 * error (then it cannot be applied) or, per table of the file, the columns added, changed and removed.
 *
 * The upload streams to a temporary file under the data folder (removed whatever happens) while
 * the app caps the body (body-limits.ts, UPLOAD_BODY_MAX_BYTES, answered on `file`); a worker thread
 * parses it (parse-in-worker.ts) and the review is stored as rows, read back in pages.
 */
export function createBulkUploadRoutes(options: DictionaryRoutesOptions) {
  const { basePath, tag, resolve, afterWrite, write = writeAsIs } = options;
  const idParams = z.object({ id: z.string().min(1) });
  const reviewParams = z.object({ id: z.string().min(1), reviewId: z.string().min(1) });
  const MB = 1024 * 1024;

  const upload = createRoute({
    method: "post",
    path: `${basePath}/bulk-uploads`,
    tags: [tag],
    summary: "Upload a dictionary file (.csv or .xlsx, one row per column) and get its review",
    description:
      "Header row (any order, any case): table, column, type, length, precision, scale, nullable, key, description; " +
      `table, column and type are required. At most ${BULK_UPLOAD_MAX_BYTES / MB} MB. Row errors come back inside the review (201, canApply false; its problems are a page of their own); ` +
      "a file that cannot be read at all (extension, size, empty, not a workbook) answers 400 or 413. " +
      "`mode` (replace, the default, or merge) says whether columns of a listed table that the file leaves out are removed.",
    request: { params: idParams, body: { required: true, content: { "multipart/form-data": { schema: uploadBody } } } },
    responses: { 202: jsonContent(reviewHeaderSchema, "A big file, still being read: the review as it stands (status parsing); follow it with GET."), 201: jsonContent(reviewHeaderSchema, "The stored review's summary."), 400: e400, ...readErrors, 413: e413 },
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
    summary: "A stored review's summary (kept 24 hours)",
    request: { params: reviewParams },
    responses: { 200: jsonContent(reviewHeaderSchema, "The review's summary."), ...readErrors },
  });

  const tablesPage = createRoute({
    method: "get",
    path: `${basePath}/bulk-uploads/{reviewId}/tables`,
    tags: [tag],
    summary: "A page of a review's tables, in the file's order: per table the columns added, changed and removed (none while the file has errors)",
    request: { params: reviewParams, query: reviewTablesQuerySchema },
    responses: { 200: jsonContent(reviewTablesPageSchema, "A page of tables."), 400: e400, ...readErrors },
  });

  const problemsPage = createRoute({
    method: "get",
    path: `${basePath}/bulk-uploads/{reviewId}/problems`,
    tags: [tag],
    summary: "A page of a review's problems (the file's errors), by row",
    request: { params: reviewParams, query: reviewPageQuerySchema },
    responses: { 200: jsonContent(reviewProblemsPageSchema, "A page of problems."), 400: e400, ...readErrors },
  });

  const apply = createRoute({
    method: "post",
    path: `${basePath}/bulk-uploads/{reviewId}/apply`,
    tags: [tag],
    summary: "Apply a review: the tables it lists get the file's columns, in one transaction",
    responses: { 200: jsonContent(dictionaryWrittenSchema, "The dictionary's new version and counts."), 400: e400, ...readErrors, 409: e409 },
    request: { params: reviewParams, query: confirmDataLossQuerySchema },
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
      const upload = await receiveUpload(c.req.raw, uploadsTmpDir(c.var.deps.dataDir));
      // The temporary file goes once the review is stored, which may be after this request was answered.
      let readingOn = false;
      try {
        const mode = bulkUploadModeSchema.safeParse(upload.fields.mode || "replace");
        if (!mode.success) {
          const message = mode.error.issues[0]?.message ?? "Invalid";
          throw new ApiProblem(400, "validation_failed", message, { mode: [message] });
        }
        const file = upload.file;
        if (!file || file.name === "") throw new ApiProblem(400, "validation_failed", CHOOSE_FILE_MESSAGE, { file: [CHOOSE_FILE_MESSAGE] });
        const { db, logger } = c.var.deps;
        // The audit entry is written when the review is ready (reviews.ts), perhaps after this answer; a file refused, none.
        deferAudit();
        const started = await startReviewFromFile(db, dictionaryId, file.path, {
          fileName: file.name,
          userId: c.var.caller.userId,
          mode: mode.data,
          onCrash: (message) => logger.warn("dictionary upload: the parse worker failed", { fileName: file.name, message }),
        });
        const settled = started.done.then(
          (review) => ({ review }),
          (error: unknown) => ({ error }),
        );
        const waitMs = c.var.deps.uploadWaitMs ?? UPLOAD_WAIT_MS;
        const outcome = await Promise.race([settled, delay(waitMs).then(() => undefined)]);
        if (outcome && "review" in outcome) return c.json(outcome.review, 201);
        if (outcome) {
          // Read within the wait and refused (not a workbook, too many rows…): said now, nothing kept.
          await dropReview(db, started.id);
          throw outcome.error;
        }
        // A big file: answered now with the review as it stands (status parsing, rows read so far);
        // its page follows the reading. A failure from here on becomes the review's one problem.
        readingOn = true;
        void settled.then(async (late) => {
          try {
            if ("error" in late) {
              const message = late.error instanceof ApiProblem ? late.error.message : PARSE_FAILED_MESSAGE;
              if (!(late.error instanceof ApiProblem)) logger.error("dictionary upload: storing the review failed", { fileName: file.name, err: late.error });
              await failReview(db, started.id, message);
            }
          } catch (err) {
            logger.error("dictionary upload: recording the failure failed", { fileName: file.name, err });
          } finally {
            upload.remove();
          }
        });
        const review = await getReview(db, dictionaryId, started.id);
        if (!review) throw new NotFoundError(REVIEW_NOT_FOUND_MESSAGE);
        return c.json(review, 202);
      } finally {
        if (!readingOn) upload.remove();
      }
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
    .openapi(tablesPage, async (c) => {
      const { id, reviewId } = c.req.valid("param");
      const dictionaryId = await resolve(c, id, { write: false });
      const page = await reviewTablesPage(c.var.deps.db, dictionaryId, reviewId, c.req.valid("query"));
      if (!page) throw new NotFoundError(REVIEW_NOT_FOUND_MESSAGE);
      return c.json(page, 200);
    })
    .openapi(problemsPage, async (c) => {
      const { id, reviewId } = c.req.valid("param");
      const dictionaryId = await resolve(c, id, { write: false });
      const page = await reviewProblemsPage(c.var.deps.db, dictionaryId, reviewId, c.req.valid("query"));
      if (!page) throw new NotFoundError(REVIEW_NOT_FOUND_MESSAGE);
      return c.json(page, 200);
    })
    .openapi(apply, async (c) => {
      const { id, reviewId } = c.req.valid("param");
      const dictionaryId = await resolve(c, id, { write: true });
      const { confirmDataLoss = false } = c.req.valid("query");
      await write(c, dictionaryId, (db) => applyReview(db, dictionaryId, reviewId, c.var.caller.userId), { confirmDataLoss });
      if (afterWrite) await afterWrite(c, dictionaryId);
      return c.json(await writtenDictionary(c, dictionaryId), 200);
    })
    .openapi(discard, async (c) => {
      const { id, reviewId } = c.req.valid("param");
      const dictionaryId = await resolve(c, id, { write: true });
      if (!(await discardReview(c.var.deps.db, dictionaryId, reviewId))) throw new NotFoundError(REVIEW_NOT_FOUND_MESSAGE);
      return c.body(null, 204);
    });
  return router;
}
