import { randomUUID } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import { insertJsonRows, type BulkColumn } from "../repositories/bulk-insert.ts";
import { sql, type Kysely } from "kysely";
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
import { claimAudit } from "../audit-writes.ts";
import { inTransaction, nameKey, toFlag } from "../repositories/db-helpers.ts";
import { readTables, upsertTables, type DesiredTable } from "../repositories/dictionary-tables.ts";
import { bumpVersion } from "../repositories/dictionary-version.ts";
import { desiredTables, diffTables } from "./diff.ts";
import { sortLine, TableCheck, type CheckedItem, type ParsedFile, type StagedRow } from "./parse-file.ts";
import { parseInWorker, type ParseOutcome } from "./parse-in-worker.ts";
import { withTightHeap } from "./tight-heap.ts";

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
/**
 * Rows per INSERT statement (one JSON parameter: bulk-insert.ts), with a turn of the event loop after
 * each: a few ms of work on SQLite, where a statement runs synchronously.
 */
const ROWS_PER_INSERT = 1000;

const STAGED_COLUMNS: readonly BulkColumn[] = [
  { name: "review_id", type: "text" },
  { name: "line", type: "integer" },
  { name: "table_key", type: "text" },
  { name: "table_name", type: "text" },
  { name: "column_key", type: "text" },
  { name: "column_name", type: "text" },
  { name: "valid", type: "integer" },
  { name: "type", type: "text" },
  { name: "length", type: "integer" },
  { name: "precision", type: "integer" },
  { name: "scale", type: "integer" },
  { name: "nullable", type: "integer" },
  { name: "is_key", type: "integer" },
  { name: "description", type: "text" },
];
const PROBLEM_COLUMNS: readonly BulkColumn[] = [
  { name: "review_id", type: "text" },
  { name: "seq", type: "integer" },
  { name: "line", type: "integer" },
  { name: "sort_line", type: "integer" },
  { name: "field", type: "text" },
  { name: "message", type: "text" },
];
/** Tables written per upsertTables call while applying. */
const TABLES_PER_WRITE = 200;

const READY = "ready";
const PARSING = "parsing";
/** A file at the upload limit is read in well under a minute: a review parsing for longer was left by a stopped process. */
const PARSING_GIVEN_UP_MS = 15 * 60 * 1000;
export const REVIEW_STILL_READING_MESSAGE = "The file is still being read: wait for its review before applying it.";

type ReviewOptions = {
  fileName: string;
  userId: string;
  /** replace (the default) or merge: see BULK_UPLOAD_MODES. */
  mode?: BulkUploadMode;
  now?: Date;
};

/** What storing a file's review reads: the worker's findings in batches (or a test's, from memory). */
type Findings = AsyncIterable<ParseOutcome>;

/** A review being stored: its id at once, its header once the file is read and reviewed. */
export type StartedReview = { id: string; done: Promise<ReviewHeader> };

/**
 * Starts parsing the uploaded file at `filePath` off the request thread and storing its review: the
 * review exists at once (status parsing, its row count growing as the file is read). When `done`
 * fails the review is still there: the caller drops it (dropReview) or keeps it with the failure as
 * its one problem (failReview). `onCrash` hears an unexpected failure of the parser.
 */
export async function startReviewFromFile(
  db: Kysely<Database>,
  dictionaryId: string,
  filePath: string,
  options: ReviewOptions & { onCrash?: (message: string) => void },
): Promise<StartedReview> {
  const begun = await beginReview(db, dictionaryId, options);
  // Stored with a tighter heap: a big file's batches would otherwise take the data API past its memory goal (tight-heap.ts).
  const done = withTightHeap(() => fillReview(db, dictionaryId, begun, parseInWorker(filePath, options.fileName, options.onCrash)));
  return { id: begun.id, done };
}

/** Stores the review of a file parsed in memory (tests, and files built in code). */
export async function createReview(db: Kysely<Database>, dictionaryId: string, parsed: ParsedFile, options: ReviewOptions): Promise<ReviewHeader> {
  async function* findings(): AsyncGenerator<ParseOutcome> {
    const items: CheckedItem[] = parsed.errors.map((problem) => ({ problem }));
    for (const table of parsed.tables) {
      for (const column of table.columns) items.push({ staged: { line: items.length + 2, tableName: table.name, columnName: column.name, column } });
    }
    yield { kind: "batch", items, rowsRead: parsed.rowCount };
    yield { kind: "end", rowCount: parsed.rowCount };
  }
  const begun = await beginReview(db, dictionaryId, options);
  try {
    return await fillReview(db, dictionaryId, begun, findings());
  } catch (err) {
    await deleteReview(db, begun.id);
    throw err;
  }
}

type Begun = { id: string; mode: BulkUploadMode; now: Date };

/** The review's header, status parsing, against the dictionary's version now. */
async function beginReview(db: Kysely<Database>, dictionaryId: string, options: ReviewOptions): Promise<Begun> {
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
  return { id, mode, now };
}

/**
 * Stores the findings and the review of the tables, then marks the review ready. A review discarded while
 * its file is read (its rows' foreign key refuses them) stops the reading, and the worker with it, as
 * REVIEW_NOT_FOUND_MESSAGE: no failure of the service to log.
 */
async function fillReview(db: Kysely<Database>, dictionaryId: string, begun: Begun, findings: Findings): Promise<ReviewHeader> {
  try {
    return await storeReview(db, dictionaryId, begun, findings);
  } catch (err) {
    if (!(err instanceof NotFoundError) && !(await reviewExists(db, begun.id))) throw new NotFoundError(REVIEW_NOT_FOUND_MESSAGE);
    throw err;
  }
}

async function reviewExists(db: Kysely<Database>, reviewId: string): Promise<boolean> {
  return Boolean(await db.selectFrom("dictionary_reviews").select("id").where("id", "=", reviewId).executeTakeFirst());
}

async function storeReview(db: Kysely<Database>, dictionaryId: string, { id, mode, now }: Begun, findings: Findings): Promise<ReviewHeader> {
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
      // Each statement is its own short transaction: the review cannot be applied until it is ready.
      await insertStaged(db, id, staged);
      seq = await insertProblems(db, id, problems, seq);
      // The progress a review page shows while the file is read: rows, not items (a row in error yields more than one).
      await db.updateTable("dictionary_reviews").set({ row_count: outcome.rowsRead }).where("id", "=", id).execute();
    } else if (outcome.kind === "csv-error") {
      // Not valid CSV: that one problem is the review; what was read before it means nothing.
      await deleteRowsOf(db, "dictionary_review_rows", id);
      await deleteRowsOf(db, "dictionary_review_problems", id);
      seq = await insertProblems(db, id, [outcome.rowError], 0);
      rowCount = 0;
    } else {
      rowCount = outcome.rowCount;
    }
  }
  // Counted as the tables are reviewed: an aggregate over a million staged rows would hold the
  // event loop (better-sqlite3 answers synchronously) for as long as it runs.
  const counts = await reviewTables(db, id, dictionaryId, mode, seq);
  const clean = counts.problems === 0;
  await inTransaction(db, async (trx) => {
    await trx
      .updateTable("dictionary_reviews")
      .set({
        status: READY,
        row_count: rowCount,
        table_count: counts.tables,
        changing_table_count: clean ? counts.changing : 0,
        added_table_count: clean ? counts.added : 0,
        problem_count: counts.problems,
        can_apply: toFlag(clean && counts.changing > 0),
      })
      .where("id", "=", id)
      .execute();
    // The upload's audit entry (deferred by its route): the review exists, ready, from here.
    claimAudit({ reviewId: id, rows: rowCount, problems: counts.problems });
  });
  const header = await findReviewRow(db, dictionaryId, id, now);
  // Discarded while it was being read.
  if (!header) throw new NotFoundError(REVIEW_NOT_FOUND_MESSAGE);
  return toHeader(header);
}

/** Drops a review whose file could not be read (the upload answers why; nothing stays). */
export function dropReview(db: Kysely<Database>, reviewId: string): Promise<void> {
  return deleteReview(db, reviewId);
}

/**
 * A review whose file failed to be read after its upload was answered: it becomes ready with that
 * failure as its one problem, so its page says what went wrong (it cannot be applied). Nothing
 * happens when it was discarded meanwhile.
 */
export async function failReview(db: Kysely<Database>, reviewId: string, message: string): Promise<void> {
  await deleteRowsOfReview(db, reviewId);
  if (!(await reviewExists(db, reviewId))) return;
  await insertProblems(db, reviewId, [{ row: null, column: "file", message }], 0);
  await db
    .updateTable("dictionary_reviews")
    .set({ status: READY, row_count: 0, table_count: 0, changing_table_count: 0, added_table_count: 0, problem_count: 1, can_apply: 0 })
    .where("id", "=", reviewId)
    .execute();
}

export const INTERRUPTED_REVIEW_MESSAGE = "The data service restarted while it read the file: upload the file again.";

/**
 * The reviews a stopped process was reading when this one is the only one on the control plane (at
 * its start, recover.ts): each becomes ready with why as its one problem, so its page stops saying
 * "Reading…" and says what to do. Answers how many.
 */
export async function failInterruptedReviews(db: Kysely<Database>): Promise<number> {
  const reading = await db.selectFrom("dictionary_reviews").select("id").where("status", "=", PARSING).execute();
  for (const { id } of reading) await failReview(db, id, INTERRUPTED_REVIEW_MESSAGE);
  return reading.length;
}

async function insertStaged(db: Kysely<Database>, reviewId: string, rows: StagedRow[]) {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    // In STAGED_COLUMNS' order.
    const values = rows.slice(i, i + ROWS_PER_INSERT).map((r) => [
      reviewId,
      r.line,
      nameKey(r.tableName),
      r.tableName,
      nameKey(r.columnName),
      r.columnName,
      toFlag(r.column !== null),
      r.column?.type ?? null,
      r.column?.length ?? null,
      r.column?.precision ?? null,
      r.column?.scale ?? null,
      r.column ? toFlag(r.column.nullable) : null,
      r.column ? toFlag(r.column.isKey) : null,
      r.column?.description ?? null,
    ]);
    await insertJsonRows(db, "dictionary_review_rows", STAGED_COLUMNS, values);
    await nextTurn();
  }
}

/** Stores the problems after `seq`; answers the last seq used. */
async function insertProblems(db: Kysely<Database>, reviewId: string, problems: RowError[], seq: number): Promise<number> {
  for (let i = 0; i < problems.length; i += ROWS_PER_INSERT) {
    // In PROBLEM_COLUMNS' order.
    const values = problems.slice(i, i + ROWS_PER_INSERT).map((p) => [reviewId, ++seq, p.row, sortLine(p), p.column, p.message]);
    await insertJsonRows(db, "dictionary_review_problems", PROBLEM_COLUMNS, values);
    await nextTurn();
  }
  return seq;
}

/**
 * The staged rows in (table, line) order, a batch per query (keyset pagination on the index):
 * a table's rows come together and in file order, and its first row is its first line in the file.
 */
async function* stagedBatches(db: Kysely<Database>, reviewId: string, onlyTable?: string): AsyncGenerator<(StagedRow & { tableKey: string })[]> {
  let after: { tableKey: string; line: number } | undefined;
  for (;;) {
    const from = after;
    const rows = await db
      .selectFrom("dictionary_review_rows")
      .selectAll()
      .where("review_id", "=", reviewId)
      .$if(onlyTable !== undefined, (q) => q.where("table_key", "=", onlyTable!))
      // A row value, so both engines seek the index instead of scanning the review's rows each time.
      .$if(from !== undefined, (q) => q.where(sql<boolean>`(table_key, line) > (${from!.tableKey}, ${from!.line})`))
      .orderBy("table_key")
      .orderBy("line")
      .limit(ROWS_PER_BATCH)
      .execute();
    if (rows.length > 0) yield rows.map((row) => ({ ...stagedOf(row), tableKey: row.table_key }));
    if (rows.length < ROWS_PER_BATCH) return;
    const last = rows[rows.length - 1]!;
    after = { tableKey: last.table_key, line: Number(last.line) };
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

type ReviewCounts = { tables: number; changing: number; added: number; problems: number };

/**
 * The checks that need a whole table, then (while the file has no problem) what applying would do
 * to each table, stored a batch at a time. With problems the file does not say what the tables
 * should be (a diff would show the rows in error as removed columns): no table is listed. A table
 * is numbered by its first line (`ordinal`): its place in the file.
 */
async function reviewTables(db: Kysely<Database>, reviewId: string, dictionaryId: string, mode: BulkUploadMode, seq: number): Promise<ReviewCounts> {
  const counts: ReviewCounts = { tables: 0, changing: 0, added: 0, problems: seq };
  let current: Map<string, Table> | undefined;
  let problems: RowError[] = [];
  let reviewed: { ordinal: number; tableKey: string; table: ReviewTable }[] = [];
  let open: { key: string; firstLine: number; check: TableCheck } | undefined;

  const finish = async () => {
    if (!open) return;
    counts.tables++;
    if (counts.problems > 0 || problems.length > 0) return;
    current ??= new Map((await readTables(db, dictionaryId)).map((t) => [t.name.toLowerCase(), t]));
    const existing = current.get(open.key);
    const [desired] = desiredTables([{ name: open.check.name!, columns: open.check.columns }], existing ? [existing] : [], mode);
    // Merge mode adds the kept columns to the file's: a table may pass the limit only then.
    if (desired!.columns.length > MAX_COLUMNS_PER_TABLE) {
      const message = `Table '${desired!.name}' would have ${desired!.columns.length} columns with the ones it keeps: at most ${MAX_COLUMNS_PER_TABLE}`;
      problems.push({ row: null, column: "table", message });
      return;
    }
    const [table] = diffTables([desired!], existing ? [existing] : []);
    if (table!.status !== "unchanged") counts.changing++;
    if (table!.status === "added") counts.added++;
    reviewed.push({ ordinal: open.firstLine, tableKey: open.key, table: table! });
  };
  const flush = async () => {
    counts.problems = await insertProblems(db, reviewId, problems, counts.problems);
    if (counts.problems === 0) await insertReviewTables(db, reviewId, reviewed);
    problems = [];
    reviewed = [];
  };

  for await (const batch of stagedBatches(db, reviewId)) {
    for (const row of batch) {
      if (row.tableKey !== open?.key) {
        await finish();
        open = { key: row.tableKey, firstLine: row.line, check: new TableCheck() };
      }
      problems.push(...open.check.add(row));
    }
    await flush();
  }
  await finish();
  await flush();
  if (counts.problems > 0) await deleteRowsOf(db, "dictionary_review_tables", reviewId);
  return counts;
}

/** Tables per INSERT: a table's changes are up to 1,024 columns of JSON. */
const TABLES_PER_INSERT = 50;

async function insertReviewTables(db: Kysely<Database>, reviewId: string, tables: { ordinal: number; tableKey: string; table: ReviewTable }[]) {
  for (let i = 0; i < tables.length; i += TABLES_PER_INSERT) {
    const values = tables.slice(i, i + TABLES_PER_INSERT).map(({ ordinal, tableKey, table }) => ({
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
    }));
    await db.insertInto("dictionary_review_tables").values(values).execute();
    await nextTurn();
  }
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
    canApply: row.status === READY && Boolean(Number(row.can_apply)),
    status: row.status === READY ? "ready" : "parsing",
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
    if (row.status !== READY) throw new ConflictError(REVIEW_STILL_READING_MESSAGE);
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
        for await (const batch of stagedBatches(trx, reviewId, table.table_key)) {
          for (const staged of batch) {
            name ??= staged.tableName;
            if (staged.column) columns.push(staged.column);
          }
        }
        const existing = current?.get(table.table_key);
        batch.push(...desiredTables([{ name: name ?? table.name, columns }], existing ? [existing] : [], mode));
        if (batch.length >= TABLES_PER_WRITE) {
          await upsertTables(trx, dictionaryId, batch, { userId, now });
          batch = [];
          await nextTurn();
        }
      }
      if (batch.length > 0) await upsertTables(trx, dictionaryId, batch, { userId, now });
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

/**
 * A review and its rows. Said explicitly rather than left to the foreign keys' cascade: a review of
 * a million rows goes in slices, with a turn of the event loop between them, instead of one
 * statement that holds the process for seconds.
 */
async function deleteReview(db: Kysely<Database>, reviewId: string) {
  await deleteRowsOfReview(db, reviewId);
  // Its own transaction: a discard's audit entry commits with the header's removal.
  await inTransaction(db, (trx) => trx.deleteFrom("dictionary_reviews").where("id", "=", reviewId).execute());
}

/** A review's staged rows, problems and tables; its header stays. */
async function deleteRowsOfReview(db: Kysely<Database>, reviewId: string) {
  await deleteRowsOf(db, "dictionary_review_rows", reviewId);
  await deleteRowsOf(db, "dictionary_review_problems", reviewId);
  await deleteRowsOf(db, "dictionary_review_tables", reviewId);
}

/** Rows deleted per statement. */
const ROWS_PER_DELETE = 20_000;

/** Deletes a review's rows of one table in slices of its key (line, seq or ordinal: all numbers of the file). */
async function deleteRowsOf(db: Kysely<Database>, table: "dictionary_review_rows" | "dictionary_review_problems" | "dictionary_review_tables", reviewId: string) {
  const key = table === "dictionary_review_rows" ? "line" : table === "dictionary_review_problems" ? "seq" : "ordinal";
  for (;;) {
    const edge = await db
      .selectFrom(table)
      .select(key)
      .where("review_id", "=", reviewId)
      .orderBy(key)
      .offset(ROWS_PER_DELETE - 1)
      .limit(1)
      .executeTakeFirst();
    if (!edge) break;
    await db.deleteFrom(table).where("review_id", "=", reviewId).where(key, "<=", (edge as Record<string, number>)[key]!).execute();
    await nextTurn();
  }
  await db.deleteFrom(table).where("review_id", "=", reviewId).execute();
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
    .where("created_at", ">=", expiryCutoff(now))
    // A review still being read long after any file could be: its process stopped midway; gone.
    .where((eb) => eb.or([eb("status", "=", READY), eb("created_at", ">=", new Date(now.getTime() - PARSING_GIVEN_UP_MS).toISOString())]))
    .executeTakeFirst();
}

// ISO-8601 UTC strings sort as the instants they name, so text comparison works on both engines.
function expiryCutoff(now: Date) {
  return new Date(now.getTime() - REVIEW_TTL_MS).toISOString();
}
