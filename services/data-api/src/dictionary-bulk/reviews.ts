import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { MAX_COLUMNS_PER_TABLE, type BulkUploadMode, type Review, type ReviewSummary, type ReviewTable, type RowError } from "../../../../contracts/dictionary.ts";
import { ApiProblem, ConflictError, NotFoundError } from "../api-problem.ts";
import type { Database } from "../db/schema.ts";
import { inTransaction } from "../repositories/db-helpers.ts";
import { readTables, upsertTables, type DesiredTable } from "../repositories/dictionary-tables.ts";
import { bumpVersion } from "../repositories/dictionary-version.ts";
import { desiredTables, diffTables, reviewChangesSomething } from "./diff.ts";
import type { ParsedFile } from "./parse-file.ts";

/**
 * Bulk upload → review → apply or discard. A review is stored with the file's tables and the
 * dictionary version it was computed against; nothing else changes until it is applied, and apply
 * refuses it once the dictionary has moved on. Works on any dictionary id (master or project copy).
 */

/** A review nobody applied within a day is stale anyway; older ones are purged and answer 404. */
export const REVIEW_TTL_MS = 24 * 60 * 60 * 1000;

export const REVIEW_NOT_FOUND_MESSAGE = "Review not found: it was applied, discarded or has expired. Upload the file again.";
export const REVIEW_HAS_ERRORS_MESSAGE = "This review has errors: correct the file and upload it again.";
export const REVIEW_STALE_MESSAGE = "The dictionary changed after this file was uploaded. Upload the file again to review it against the current dictionary.";

type ReviewOptions = {
  fileName: string;
  userId: string;
  /** replace (the default) or merge: see BULK_UPLOAD_MODES. */
  mode?: BulkUploadMode;
  now?: Date;
};

/** Stores the review of `parsed` against the dictionary as it is now, and answers it. */
export async function createReview(db: Kysely<Database>, dictionaryId: string, parsed: ParsedFile, options: ReviewOptions): Promise<Review> {
  const now = options.now ?? new Date();
  const mode = options.mode ?? "replace";
  await purgeExpiredReviews(db, now);
  // The version first, then the tables: a write in between makes the review stale (apply says 409),
  // never wrong.
  const { version } = await db.selectFrom("dictionaries").select("version").where("id", "=", dictionaryId).executeTakeFirstOrThrow();
  // With errors the file does not say what the tables should be: a diff would show the rows in
  // error as removed columns. The user fixes the file first.
  const current = parsed.errors.length > 0 ? [] : await readTables(db, dictionaryId);
  // What applying writes: the file's tables, or (merge) those with the columns the file leaves out.
  const desired = parsed.errors.length > 0 ? parsed.tables : desiredTables(parsed.tables, current, mode);
  const errors = [...parsed.errors, ...tooManyColumns(desired)];
  const tables = errors.length > 0 ? [] : diffTables(desired, current);
  const review: Review = {
    id: randomUUID(),
    fileName: options.fileName,
    createdAt: now.toISOString(),
    baseVersion: Number(version),
    mode,
    rowCount: parsed.rowCount,
    errors,
    tables,
    canApply: errors.length === 0 && reviewChangesSomething(tables),
  };
  await db
    .insertInto("dictionary_reviews")
    .values({
      id: review.id,
      dictionary_id: dictionaryId,
      file_name: review.fileName,
      base_version: review.baseVersion,
      rows: JSON.stringify(desired),
      review: JSON.stringify(review),
      created_by: options.userId,
      created_at: review.createdAt,
    })
    .execute();
  return review;
}

/** The review, if it belongs to this dictionary and has not expired. */
export async function getReview(db: Kysely<Database>, dictionaryId: string, reviewId: string, now = new Date()): Promise<Review | undefined> {
  const row = await findReviewRow(db, dictionaryId, reviewId, now);
  return row && storedReview(row.review);
}

/**
 * The reviews still waiting to be applied or discarded, newest first: not expired, and computed
 * against the dictionary's current version (apply would refuse the others; they can only go).
 */
export async function listPendingReviews(db: Kysely<Database>, dictionaryId: string, now = new Date()): Promise<ReviewSummary[]> {
  const rows = await db
    .selectFrom("dictionary_reviews as r")
    .innerJoin("dictionaries as d", "d.id", "r.dictionary_id")
    .select(["r.review"])
    .where("r.dictionary_id", "=", dictionaryId)
    .where("r.created_at", ">=", expiryCutoff(now))
    .whereRef("r.base_version", "=", "d.version")
    .orderBy("r.created_at", "desc")
    .orderBy("r.id")
    .execute();
  return rows.map((row) => {
    const { id, fileName, createdAt, baseVersion, mode, rowCount, canApply, errors } = storedReview(row.review);
    return { id, fileName, createdAt, baseVersion, mode, rowCount, canApply, errorCount: errors.length };
  });
}

/** A stored review; those stored before upload modes existed were all "replace". */
function storedReview(json: string): Review {
  const review = JSON.parse(json) as Omit<Review, "mode"> & { mode?: Review["mode"] };
  return { ...review, mode: review.mode ?? "replace" };
}

/** Merge mode adds the kept columns to the file's: a table may pass the limit only then. */
function tooManyColumns(tables: readonly DesiredTable[]): RowError[] {
  return tables
    .filter((t) => t.columns.length > MAX_COLUMNS_PER_TABLE)
    .map((t) => ({
      row: null,
      column: "table",
      message: `Table '${t.name}' would have ${t.columns.length} columns with the ones it keeps: at most ${MAX_COLUMNS_PER_TABLE}`,
    }));
}

/**
 * Applies the review in one transaction: the tables it lists as added or changed get the file's
 * columns, then the review is gone. Refused with 400 when it has errors and 409 when the dictionary
 * moved on since the upload; either way nothing changes. A review that changes nothing is simply used up.
 */
export async function applyReview(db: Kysely<Database>, dictionaryId: string, reviewId: string, userId: string, now = new Date()): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await findReviewRow(trx, dictionaryId, reviewId, now);
    if (!row) throw new NotFoundError(REVIEW_NOT_FOUND_MESSAGE);
    const review = storedReview(row.review);
    if (review.errors.length > 0) throw new ApiProblem(400, "review_has_errors", REVIEW_HAS_ERRORS_MESSAGE);
    const toWrite = tablesToWrite(JSON.parse(row.rows) as DesiredTable[], review.tables);
    if (toWrite.length > 0) {
      try {
        await bumpVersion(trx, dictionaryId, { expectedVersion: Number(row.base_version), userId, now });
      } catch (err) {
        if (err instanceof ConflictError) throw new ConflictError(REVIEW_STALE_MESSAGE);
        throw err;
      }
      await upsertTables(trx, dictionaryId, toWrite);
    }
    await trx.deleteFrom("dictionary_reviews").where("id", "=", reviewId).execute();
  });
}

/** Drops the review; answers false when there was none to drop. */
export async function discardReview(db: Kysely<Database>, dictionaryId: string, reviewId: string): Promise<boolean> {
  const result = await db.deleteFrom("dictionary_reviews").where("id", "=", reviewId).where("dictionary_id", "=", dictionaryId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function purgeExpiredReviews(db: Kysely<Database>, now = new Date()) {
  await db.deleteFrom("dictionary_reviews").where("created_at", "<", expiryCutoff(now)).execute();
}

function findReviewRow(db: Kysely<Database>, dictionaryId: string, reviewId: string, now: Date) {
  return db
    .selectFrom("dictionary_reviews")
    .selectAll()
    .where("id", "=", reviewId)
    .where("dictionary_id", "=", dictionaryId)
    .where("created_at", ">=", expiryCutoff(now))
    .executeTakeFirst();
}

// ISO-8601 UTC strings sort as the instants they name, so text comparison works on both engines.
function expiryCutoff(now: Date) {
  return new Date(now.getTime() - REVIEW_TTL_MS).toISOString();
}

/** The file's tables that the review says would change (unchanged ones are not rewritten). */
function tablesToWrite(tables: DesiredTable[], reviewed: readonly ReviewTable[]): DesiredTable[] {
  const changing = new Set(reviewed.filter((t) => t.status !== "unchanged").map((t) => t.name.toLowerCase()));
  return tables.filter((t) => changing.has(t.name.toLowerCase()));
}
