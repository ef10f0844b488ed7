import { randomUUID } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Kysely } from "kysely";
import {
  MAX_COLUMNS_PER_TABLE,
  type BulkUploadMode,
  type ColumnInput,
  type ColumnType,
  type ReviewHeader,
  type ReviewProblemsPage,
  type ReviewSummary,
  type ReviewTable,
  type ReviewTablesPage,
  type RowError,
  type Table,
} from "../../../../contracts/dictionary.ts";
import { ApiProblem, ConflictError, NotFoundError } from "../api-problem.ts";
import type { Database } from "../db/schema.ts";
import type { DictionaryReviewRowsTable, DictionaryReviewsTable } from "../db/schema-dictionaries.ts";
import { inTransaction, nameKey, toFlag } from "../repositories/db-helpers.ts";
import { readTables, upsertTables, type DesiredTable } from "../repositories/dictionary-tables.ts";
import { bumpVersion } from "../repositories/dictionary-version.ts";
import { desiredTables, diffTables } from "./diff.ts";
import { sortLine, TableCheck, type CheckedItem, type ParsedFile, type StagedRow } from "./parse-file.ts";
import { parseInWorker, type ParseOutcome } from "./parse-in-worker.ts";

/**
 * Bulk upload → review → apply or discard. A review is stored as rows: a header (the file, the
 * dictionary version it was computed against, its counts), the file's rows staged as parsed, its
 * problems and, per table of the file, what applying would do. Nothing else changes until it is
 * applied, and apply refuses it once the dictionary has moved on. Every step works table by table
 * or batch by batch, never on the whole file, with a turn of the event loop between batches
 * (Kysely over better-sqlite3 resolves synchronously: without them no other request would be
 * served). Works on any dictionary id (master or project copy).
 */

/** A review nobody applied within a day is stale anyway; older ones are purged and answer 404. */
export const REVIEW_TTL_MS = 24 * 60 * 60 * 1000;

export const REVIEW_NOT_FOUND_MESSAGE = "Review not found: it was applied, discarded or has expired. Upload the file again.";
export const REVIEW_HAS_ERRORS_MESSAGE = "This review has errors: correct the file and upload it again.";
export const REVIEW_STALE_MESSAGE = "The dictionary changed after this file was uploaded. Upload the file again to review it against the current dictionary.";

/** Staged rows read (or written) per query, and per transaction while storing. */
const ROWS_PER_BATCH = 2000;
/** Rows per INSERT statement: within SQLite's and PostgreSQL's limits on bound parameters. */
const ROWS_PER_INSERT = 500;
/** Tables written per upsertTables call while applying. */
const TABLES_PER_WRITE = 200;

const READY = "ready";
const PARSING = "parsing";

type ReviewOptions = {
  fileName: string;
  userId: string;
  /** replace (the default) or merge: see BULK_UPLOAD_MODES. */
  mode?: BulkUploadMode;
  now?: Date;
};

/** What storing a file's review reads: the worker's findings in batches (or a test's, from memory). */
type Findings = AsyncIterable<ParseOutcome>;

/** Parses the uploaded file at `filePath` off the request thread and stores its review. */
export function createReviewFromFile(db: Kysely<Database>, dictionaryId: string, filePath: string, options: ReviewOptions): Promise<ReviewHeader> {
  return storeReview(db, dictionaryId, parseInWorker(filePath, options.fileName), options);
}

/** Stores the review of a file parsed in memory (tests, and files built in code). */
export function createReview(db: Kysely<Database>, dictionaryId: string, parsed: ParsedFile, options: ReviewOptions): Promise<ReviewHeader> {
  async function* findings(): AsyncGenerator<ParseOutcome> {
    const items: CheckedItem[] = parsed.errors.map((problem) => ({ problem }));
    for (const table of parsed.tables) {
      for (const column of table.columns) items.push({ staged: { line: items.length + 2, tableName: table.name, columnName: column.name, column } });
    }
    yield { kind: "batch", items };
    yield { kind: "end", rowCount: parsed.rowCount };
  }
  return storeReview(db, dictionaryId, findings(), options);
}

async function storeReview(db: Kysely<Database>, dictionaryId: string, findings: Findings, options: ReviewOptions): Promise<ReviewHeader> {
  const now = options.now ?? new Date();
  const mode = options.mode ?? "replace";
  await purgeExpiredReviews(db, now);
  // The version first, then the tables: a write in between makes the review stale (apply says 409),
  // never wrong.
  const { version } = await db.selectFrom("dictionaries").select("version").where("id", "=", dictionaryId).executeTakeFirstOrThrow();
  const id = randomUUID();
  await db
    .insertInto("dictionary_reviews")
    .values({
      id,
      dictionary_id: dictionaryId,
      file_name: options.fileName,
      mode,
      base_version: Number(version),
      status: PARSING,
      row_count: 0,
      table_count: 0,
      changing_table_count: 0,
      added_table_count: 0,
      problem_count: 0,
      can_apply: 0,
      created_by: options.userId,
      created_at: now.toISOString(),
    })
    .execute();
  try {
    let seq = 0;
    let rowCount = 0;
    for await (const outcome of findings) {
      if (outcome.kind === "batch") {
        const staged: StagedRow[] = [];
        const problems: RowError[] = [];
        for (const item of outcome.items) {
          if ("staged" in item) staged.push(item.staged);
          else problems.push(item.problem);
        }
        await inTransaction(db, async (trx) => {
          await insertStaged(trx, id, staged);
          seq = await insertProblems(trx, id, problems, seq);
        });
        await nextTurn();
      } else if (outcome.kind === "csv-error") {
        // Not valid CSV: that one problem is the review; what was read before it means nothing.
        await db.deleteFrom("dictionary_review_rows").where("review_id", "=", id).execute();
        await db.deleteFrom("dictionary_review_problems").where("review_id", "=", id).execute();
        seq = await insertProblems(db, id, [outcome.rowError], 0);
        rowCount = 0;
      } else {
        rowCount = outcome.rowCount;
      }
    }
    await reviewTables(db, id, dictionaryId, mode, seq);
    const counts = await db
      .selectFrom("dictionary_reviews as r")
      .select((eb) => [
        eb.selectFrom("dictionary_review_problems").select(eb.fn.countAll<number>().as("n")).where("review_id", "=", id).as("problems"),
        eb.selectFrom("dictionary_review_tables").select(eb.fn.countAll<number>().as("n")).where("review_id", "=", id).where("status", "!=", "unchanged").as("changing"),
        eb.selectFrom("dictionary_review_tables").select(eb.fn.countAll<number>().as("n")).where("review_id", "=", id).where("status", "=", "added").as("added"),
        eb.selectFrom("dictionary_review_rows").select((e) => e.fn.count<number>("table_key").distinct().as("n")).where("review_id", "=", id).as("tables"),
      ])
      .where("r.id", "=", id)
      .executeTakeFirstOrThrow();
    const problemCount = Number(counts.problems ?? 0);
    const changing = problemCount > 0 ? 0 : Number(counts.changing ?? 0);
    await db
      .updateTable("dictionary_reviews")
      .set({
        status: READY,
        row_count: rowCount,
        table_count: Number(counts.tables ?? 0),
        changing_table_count: changing,
        added_table_count: problemCount > 0 ? 0 : Number(counts.added ?? 0),
        problem_count: problemCount,
        can_apply: toFlag(problemCount === 0 && changing > 0),
      })
      .where("id", "=", id)
      .execute();
  } catch (err) {
    await db.deleteFrom("dictionary_reviews").where("id", "=", id).execute();
    throw err;
  }
  const header = await findReviewRow(db, dictionaryId, id, now);
  return toHeader(header!);
}

async function insertStaged(db: Kysely<Database>, reviewId: string, rows: StagedRow[]) {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const values = rows.slice(i, i + ROWS_PER_INSERT).map((r): DictionaryReviewRowsTable => ({
      review_id: reviewId,
      line: r.line,
      table_key: nameKey(r.tableName),
      table_name: r.tableName,
      column_key: nameKey(r.columnName),
      column_name: r.columnName,
      valid: toFlag(r.column !== null),
      type: r.column?.type ?? null,
      length: r.column?.length ?? null,
      precision: r.column?.precision ?? null,
      scale: r.column?.scale ?? null,
      nullable: r.column ? toFlag(r.column.nullable) : null,
      is_key: r.column ? toFlag(r.column.isKey) : null,
      description: r.column?.description ?? null,
    }));
    await db.insertInto("dictionary_review_rows").values(values).execute();
  }
}

/** Stores the problems after `seq`; answers the last seq used. */
async function insertProblems(db: Kysely<Database>, reviewId: string, problems: RowError[], seq: number): Promise<number> {
  for (let i = 0; i < problems.length; i += ROWS_PER_INSERT) {
    const values = problems.slice(i, i + ROWS_PER_INSERT).map((p) => ({
      review_id: reviewId,
      seq: ++seq,
      line: p.row,
      sort_line: sortLine(p),
      field: p.column,
      message: p.message,
    }));
    await db.insertInto("dictionary_review_problems").values(values).execute();
  }
  return seq;
}

/** The file's tables by first appearance: their keys. */
async function fileTables(db: Kysely<Database>, reviewId: string) {
  const rows = await db
    .selectFrom("dictionary_review_rows")
    .select((eb) => ["table_key", eb.fn.min<number>("line").as("first_line")])
    .where("review_id", "=", reviewId)
    .groupBy("table_key")
    .orderBy("first_line")
    .execute();
  return rows.map((r) => r.table_key);
}

/** One table's staged rows in file order, a batch at a time. */
async function* tableRows(db: Kysely<Database>, reviewId: string, tableKey: string, onlyValid = false): AsyncGenerator<StagedRow> {
  let after = 0;
  for (;;) {
    let query = db
      .selectFrom("dictionary_review_rows")
      .selectAll()
      .where("review_id", "=", reviewId)
      .where("table_key", "=", tableKey)
      .where("line", ">", after)
      .orderBy("line")
      .limit(ROWS_PER_BATCH);
    if (onlyValid) query = query.where("valid", "=", 1);
    const rows = await query.execute();
    for (const row of rows) yield stagedOf(row);
    if (rows.length < ROWS_PER_BATCH) return;
    after = Number(rows[rows.length - 1]!.line);
    await nextTurn();
  }
}

function stagedOf(row: DictionaryReviewRowsTable): StagedRow {
  const column: ColumnInput | null = Number(row.valid)
    ? {
        name: row.column_name,
        type: row.type as ColumnType,
        length: row.length === null ? null : Number(row.length),
        precision: row.precision === null ? null : Number(row.precision),
        scale: row.scale === null ? null : Number(row.scale),
        nullable: Boolean(Number(row.nullable)),
        isKey: Boolean(Number(row.is_key)),
        description: row.description,
      }
    : null;
  return { line: Number(row.line), tableName: row.table_name, columnName: row.column_name, column };
}

/**
 * The checks that need a whole table, then (while the file has no problem) what applying would do
 * to each table, stored table by table. With problems the file does not say what the tables should
 * be (a diff would show the rows in error as removed columns): no table is listed.
 */
async function reviewTables(db: Kysely<Database>, reviewId: string, dictionaryId: string, mode: BulkUploadMode, seq: number) {
  let problems = seq;
  let current: Map<string, Table> | undefined;
  let ordinal = 0;
  for (const tableKey of await fileTables(db, reviewId)) {
    const check = new TableCheck();
    const found: RowError[] = [];
    for await (const row of tableRows(db, reviewId, tableKey)) found.push(...check.add(row));
    if (found.length > 0) problems = await insertProblems(db, reviewId, found, problems);
    if (problems > 0) continue;

    current ??= new Map((await readTables(db, dictionaryId)).map((t) => [t.name.toLowerCase(), t]));
    const existing = current.get(tableKey);
    const [desired] = desiredTables([{ name: check.name!, columns: check.columns }], existing ? [existing] : [], mode);
    // Merge mode adds the kept columns to the file's: a table may pass the limit only then.
    if (desired!.columns.length > MAX_COLUMNS_PER_TABLE) {
      const message = `Table '${desired!.name}' would have ${desired!.columns.length} columns with the ones it keeps: at most ${MAX_COLUMNS_PER_TABLE}`;
      problems = await insertProblems(db, reviewId, [{ row: null, column: "table", message }], problems);
      continue;
    }
    const [table] = diffTables([desired!], existing ? [existing] : []);
    await insertReviewTable(db, reviewId, ++ordinal, tableKey, table!);
    await nextTurn();
  }
  if (problems > 0) await db.deleteFrom("dictionary_review_tables").where("review_id", "=", reviewId).execute();
}

async function insertReviewTable(db: Kysely<Database>, reviewId: string, ordinal: number, tableKey: string, table: ReviewTable) {
  await db
    .insertInto("dictionary_review_tables")
    .values({
      review_id: reviewId,
      ordinal,
      name: table.name,
      table_key: tableKey,
      status: table.status,
      added_count: table.added.length,
      changed_count: table.changed.length,
      removed_count: table.removed.length,
      unchanged_count: table.unchanged,
      changes: JSON.stringify({ added: table.added, changed: table.changed, removed: table.removed }),
    })
    .execute();
}

function toHeader(row: DictionaryReviewsTable): ReviewHeader {
  return {
    id: row.id,
    fileName: row.file_name,
    createdAt: row.created_at,
    baseVersion: Number(row.base_version),
    mode: row.mode as BulkUploadMode,
    rowCount: Number(row.row_count),
    errorCount: Number(row.problem_count),
    tableCount: Number(row.table_count),
    changingTableCount: Number(row.changing_table_count),
    addedTableCount: Number(row.added_table_count),
    canApply: Boolean(Number(row.can_apply)),
  };
}

/** The review's header, if it belongs to this dictionary and has not expired. */
export async function getReview(db: Kysely<Database>, dictionaryId: string, reviewId: string, now = new Date()): Promise<ReviewHeader | undefined> {
  const row = await findReviewRow(db, dictionaryId, reviewId, now);
  return row && toHeader(row);
}

type PageQuery = { page: number; pageSize: number; table?: string | undefined };

/** A page of the review's tables, in the file's order; undefined when there is no such review. */
export async function reviewTablesPage(db: Kysely<Database>, dictionaryId: string, reviewId: string, query: PageQuery, now = new Date()): Promise<ReviewTablesPage | undefined> {
  if (!(await findReviewRow(db, dictionaryId, reviewId, now))) return undefined;
  const tableKey = query.table ? nameKey(query.table) : undefined;
  const of = db.selectFrom("dictionary_review_tables").where("review_id", "=", reviewId).$if(tableKey !== undefined, (q) => q.where("table_key", "=", tableKey!));
  const [rows, total] = await Promise.all([
    of.selectAll().orderBy("ordinal").limit(query.pageSize).offset((query.page - 1) * query.pageSize).execute(),
    of.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const items = rows.map((row): ReviewTable => {
    const changes = JSON.parse(row.changes) as Pick<ReviewTable, "added" | "changed" | "removed">;
    return { name: row.name, status: row.status as ReviewTable["status"], ...changes, unchanged: Number(row.unchanged_count) };
  });
  return { items, total: Number(total.n), page: query.page, pageSize: query.pageSize };
}

/** A page of the review's problems, by row (those of the whole file last); undefined when there is no such review. */
export async function reviewProblemsPage(db: Kysely<Database>, dictionaryId: string, reviewId: string, query: PageQuery, now = new Date()): Promise<ReviewProblemsPage | undefined> {
  const header = await findReviewRow(db, dictionaryId, reviewId, now);
  if (!header) return undefined;
  const rows = await db
    .selectFrom("dictionary_review_problems")
    .select(["line", "field", "message"])
    .where("review_id", "=", reviewId)
    .orderBy("sort_line")
    .orderBy("seq")
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  const items = rows.map((r) => ({ row: r.line === null ? null : Number(r.line), column: r.field, message: r.message }));
  return { items, total: Number(header.problem_count), page: query.page, pageSize: query.pageSize };
}

/**
 * The reviews still waiting to be applied or discarded, newest first: not expired, and computed
 * against the dictionary's current version (apply would refuse the others; they can only go).
 */
export async function listPendingReviews(db: Kysely<Database>, dictionaryId: string, now = new Date()): Promise<ReviewSummary[]> {
  const rows = await db
    .selectFrom("dictionary_reviews as r")
    .innerJoin("dictionaries as d", "d.id", "r.dictionary_id")
    .selectAll("r")
    .where("r.dictionary_id", "=", dictionaryId)
    .where("r.status", "=", READY)
    .where("r.created_at", ">=", expiryCutoff(now))
    .whereRef("r.base_version", "=", "d.version")
    .orderBy("r.created_at", "desc")
    .orderBy("r.id")
    .execute();
  return rows.map((row) => {
    const { id, fileName, createdAt, baseVersion, mode, rowCount, canApply, errorCount } = toHeader(row);
    return { id, fileName, createdAt, baseVersion, mode, rowCount, canApply, errorCount };
  });
}

/**
 * Applies the review in one transaction: the tables it lists as added or changed get the file's
 * columns (read back table by table from the staged rows), then the review is gone. Refused with
 * 400 when it has errors and 409 when the dictionary moved on since the upload; either way nothing
 * changes. A review that changes nothing is simply used up.
 */
export async function applyReview(db: Kysely<Database>, dictionaryId: string, reviewId: string, userId: string, now = new Date()): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await findReviewRow(trx, dictionaryId, reviewId, now);
    if (!row) throw new NotFoundError(REVIEW_NOT_FOUND_MESSAGE);
    if (Number(row.problem_count) > 0) throw new ApiProblem(400, "review_has_errors", REVIEW_HAS_ERRORS_MESSAGE);
    const changing = await trx
      .selectFrom("dictionary_review_tables")
      .select(["table_key", "name"])
      .where("review_id", "=", reviewId)
      .where("status", "!=", "unchanged")
      .orderBy("ordinal")
      .execute();
    if (changing.length > 0) {
      try {
        await bumpVersion(trx, dictionaryId, { expectedVersion: Number(row.base_version), userId, now });
      } catch (err) {
        if (err instanceof ConflictError) throw new ConflictError(REVIEW_STALE_MESSAGE);
        throw err;
      }
      const mode = row.mode as BulkUploadMode;
      const current = mode === "merge" ? new Map((await readTables(trx, dictionaryId)).map((t) => [t.name.toLowerCase(), t])) : undefined;
      let batch: DesiredTable[] = [];
      for (const table of changing) {
        const columns: ColumnInput[] = [];
        let name: string | undefined;
        for await (const staged of tableRows(trx, reviewId, table.table_key, true)) {
          name ??= staged.tableName;
          columns.push(staged.column!);
        }
        const existing = current?.get(table.table_key);
        batch.push(...desiredTables([{ name: name ?? table.name, columns }], existing ? [existing] : [], mode));
        if (batch.length >= TABLES_PER_WRITE) {
          await upsertTables(trx, dictionaryId, batch);
          batch = [];
          await nextTurn();
        }
      }
      if (batch.length > 0) await upsertTables(trx, dictionaryId, batch);
    }
    await deleteReview(trx, reviewId);
  });
}

/** Drops the review; answers false when there was none to drop. */
export async function discardReview(db: Kysely<Database>, dictionaryId: string, reviewId: string): Promise<boolean> {
  const found = await db.selectFrom("dictionary_reviews").select("id").where("id", "=", reviewId).where("dictionary_id", "=", dictionaryId).executeTakeFirst();
  if (!found) return false;
  await deleteReview(db, reviewId);
  return true;
}

/** A review and its rows (said explicitly: the foreign keys cascade, but a big review is better gone in known steps). */
async function deleteReview(db: Kysely<Database>, reviewId: string) {
  await inTransaction(db, async (trx) => {
    await trx.deleteFrom("dictionary_review_rows").where("review_id", "=", reviewId).execute();
    await trx.deleteFrom("dictionary_review_problems").where("review_id", "=", reviewId).execute();
    await trx.deleteFrom("dictionary_review_tables").where("review_id", "=", reviewId).execute();
    await trx.deleteFrom("dictionary_reviews").where("id", "=", reviewId).execute();
  });
}

/** Expired reviews go with their rows, problems and tables. */
export async function purgeExpiredReviews(db: Kysely<Database>, now = new Date()) {
  const expired = await db.selectFrom("dictionary_reviews").select("id").where("created_at", "<", expiryCutoff(now)).execute();
  for (const { id } of expired) await deleteReview(db, id);
}

function findReviewRow(db: Kysely<Database>, dictionaryId: string, reviewId: string, now: Date) {
  return db
    .selectFrom("dictionary_reviews")
    .selectAll()
    .where("id", "=", reviewId)
    .where("dictionary_id", "=", dictionaryId)
    .where("status", "=", READY)
    .where("created_at", ">=", expiryCutoff(now))
    .executeTakeFirst();
}

// ISO-8601 UTC strings sort as the instants they name, so text comparison works on both engines.
function expiryCutoff(now: Date) {
  return new Date(now.getTime() - REVIEW_TTL_MS).toISOString();
}
