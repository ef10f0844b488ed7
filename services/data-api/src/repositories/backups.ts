/**
 * Backups in the control plane (issue 10): a row per archive (its file lives under
 * DATA_DIR/backups), which entry of the history its data follows, and the comparisons' results.
 */
import { randomUUID } from "node:crypto";
import type { ExpressionBuilder, Kysely, Selectable, Transaction } from "kysely";
import type { Backup, BackupQuery, ComparisonPage, ComparisonQuery, ComparisonSummary, TableComparisonResult } from "../../../../contracts/backups.ts";
import { COMPARISON_VALUE_MAX } from "../../../../contracts/values/backups.ts";
import { CHANGING_TYPES } from "../../../../contracts/values/loads.ts";
import type { Database } from "../db/schema.ts";
import type { BackupsTable } from "../db/schema-projects.ts";
import { insertJsonRows, type BulkColumn } from "./bulk-insert.ts";
import { totalOf } from "./db-helpers.ts";

type Db = Kysely<Database> | Transaction<Database>;

/** The last entry that changed the source data (a load or restore that committed): the data a backup taken now holds follows it. */
export async function lastChangingLoadId(db: Db, projectId: string): Promise<string | null> {
  const row = await db
    .selectFrom("loads")
    .select("id")
    .where("project_id", "=", projectId)
    .where("run_type", "in", CHANGING_TYPES)
    .where("status", "=", "Loaded")
    .orderBy("finished_at", "desc")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function insertBackup(db: Db, backup: { projectId: string; name: string; kind: Backup["kind"]; userId: string; now: Date }): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("backups")
    .values({
      id,
      project_id: backup.projectId,
      name: backup.name,
      kind: backup.kind,
      status: "Running",
      after_load_id: await lastChangingLoadId(db, backup.projectId),
      created_by: backup.userId,
      created_at: backup.now.toISOString(),
      finished_at: null,
    })
    .execute();
  return id;
}

export async function finishBackup(db: Db, id: string, done: { bytes: number; tableCount: number; rowCount: number }, now: Date) {
  await db
    .updateTable("backups")
    .set({ status: "Ready", bytes: done.bytes, table_count: done.tableCount, row_count: done.rowCount, finished_at: now.toISOString() })
    .where("id", "=", id)
    .execute();
}

export async function failBackup(db: Db, id: string, now: Date) {
  await db.updateTable("backups").set({ status: "Failed", finished_at: now.toISOString() }).where("id", "=", id).where("status", "=", "Running").execute();
}

/** Backups still Running that no running job writes (a killed process): Failed; their partial files are removed at start. */
export async function failBackupsOfEndedJobs(db: Db, now: Date) {
  await db
    .updateTable("backups")
    .set({ status: "Failed", finished_at: now.toISOString() })
    .where("status", "=", "Running")
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("loads as l")
            .innerJoin("jobs as j", "j.id", "l.job_id")
            .select("l.id")
            .whereRef("l.backup_id", "=", "backups.id")
            .where("j.status", "=", "IN_PROGRESS"),
        ),
      ),
    )
    .execute();
}

const backupColumns = [
  "b.id",
  "b.project_id",
  "b.name",
  "b.kind",
  "b.status",
  "b.bytes",
  "b.table_count",
  "b.row_count",
  "b.after_load_id",
  "b.created_by",
  "b.created_at",
  "b.finished_at",
  "a.run_type as after_type",
  "a.file_name as after_file",
  "a.finished_at as after_finished_at",
] as const;

type BackupRow = Selectable<BackupsTable> & { after_type: string | null; after_file: string | null; after_finished_at: string | null };

function backupsOf(db: Db, projectId: string) {
  return db.selectFrom("backups as b").leftJoin("loads as a", "a.id", "b.after_load_id").where("b.project_id", "=", projectId);
}

/**
 * One page of the workspace's backups that can be used (Ready), newest first. `deliveries`: only those
 * holding the data as a flat-file load left it (what onboarding compares an earlier delivery with).
 */
export async function listBackups(db: Kysely<Database>, projectId: string, query: BackupQuery) {
  let rows = backupsOf(db, projectId).where("b.status", "=", "Ready");
  if (query.deliveries) rows = rows.where("a.run_type", "=", "FlatFile");
  const items = await rows
    .select(backupColumns)
    .orderBy("b.created_at", "desc")
    .orderBy("b.id", "desc")
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  const total = await totalOf(items.length, query, () => rows.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow());
  return { items: items.map((r) => toBackup(r as BackupRow)), total, page: query.page, pageSize: query.pageSize };
}

/** A backup of this workspace (any status); undefined when it is another's or does not exist. */
export async function findBackup(db: Db, projectId: string, backupId: string): Promise<Backup | undefined> {
  const row = await backupsOf(db, projectId).select(backupColumns).where("b.id", "=", backupId).executeTakeFirst();
  return row && toBackup(row as BackupRow);
}

/** The workspace's backups of these ids, by id (a page of the history's comparisons: one query, not one per entry). */
export async function findBackups(db: Db, projectId: string, backupIds: readonly string[]): Promise<Map<string, Backup>> {
  if (backupIds.length === 0) return new Map();
  const rows = await backupsOf(db, projectId).select(backupColumns).where("b.id", "in", backupIds).execute();
  return new Map(rows.map((row) => [row.id, toBackup(row as BackupRow)]));
}

/** The newest usable backup holding the data as that entry left it; undefined when none is kept. */
export async function backupAfter(db: Db, projectId: string, loadId: string): Promise<Backup | undefined> {
  const row = await backupsOf(db, projectId)
    .select(backupColumns)
    .where("b.after_load_id", "=", loadId)
    .where("b.status", "=", "Ready")
    .orderBy("b.created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row && toBackup(row as BackupRow);
}

/** The automatic backups beyond the newest `kept` (with those that failed): to remove, files and rows. */
export async function automaticBackupsBeyond(db: Db, projectId: string, kept: number): Promise<string[]> {
  const rows = await db
    .selectFrom("backups")
    .select(["id", "status"])
    .where("project_id", "=", projectId)
    .where("kind", "=", "Automatic")
    .where("status", "!=", "Running")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  const ready = rows.filter((r) => r.status === "Ready");
  return [...ready.slice(kept), ...rows.filter((r) => r.status === "Failed")].map((r) => r.id);
}

export async function deleteBackups(db: Db, ids: readonly string[]) {
  if (ids.length) await db.deleteFrom("backups").where("id", "in", ids).execute();
}

/**
 * A comparison's result, one row per table in the order compared: its JSON (samples cut, cutSamples) and
 * its counts beside it (migration 0029), which comparisonSummary sums and comparisonPage filters by.
 * One statement with one parameter whatever the number of tables (insertJsonRows).
 */
export async function insertComparison(db: Db, loadId: string, tables: readonly TableComparisonResult[]) {
  await insertJsonRows(
    db,
    "comparison_tables",
    COMPARISON_COLUMNS,
    tables.map((t, position) => [loadId, t.table, position, JSON.stringify(cutSamples(t)), t.added, t.removed, t.changed, t.columnChanges.length]),
  );
}

const COMPARISON_COLUMNS: BulkColumn[] = [
  { name: "load_id", type: "text" },
  { name: "table_name", type: "text" },
  { name: "position", type: "integer" },
  { name: "result", type: "text" },
  { name: "added", type: "integer" },
  { name: "removed", type: "integer" },
  { name: "changed", type: "integer" },
  { name: "column_changes", type: "integer" },
];

/** A table that differs: a row added, removed or changed, or a column added, removed or retyped. */
const differs = (eb: ExpressionBuilder<Database, "comparison_tables">) =>
  eb.or([eb("added", ">", 0), eb("removed", ">", 0), eb("changed", ">", 0), eb("column_changes", ">", 0)]);

/**
 * A comparison in all, summed in SQL from its tables' counts (the index comparison_tables_load_position
 * holds them: no result's JSON is read); null when it has no table stored (not a comparison, or not done).
 */
export async function comparisonSummary(db: Db, loadId: string): Promise<ComparisonSummary | null> {
  const row = await db
    .selectFrom("comparison_tables")
    .where("load_id", "=", loadId)
    .select((eb) => [
      eb.fn.countAll<number | string>().as("tables"),
      eb.fn.sum<number | string | null>(eb.case().when(differs(eb)).then(1).else(0).end()).as("differing"),
      eb.fn.sum<number | string | null>("added").as("added"),
      eb.fn.sum<number | string | null>("removed").as("removed"),
      eb.fn.sum<number | string | null>("changed").as("changed"),
    ])
    .executeTakeFirstOrThrow();
  const tables = Number(row.tables);
  if (tables === 0) return null;
  return { tables, differing: Number(row.differing ?? 0), added: Number(row.added ?? 0), removed: Number(row.removed ?? 0), changed: Number(row.changed ?? 0) };
}

/** One page of a comparison's tables in the order they were compared (`differing`: only those that differ), paged in SQL. */
export async function comparisonPage(db: Db, loadId: string, query: ComparisonQuery): Promise<ComparisonPage> {
  let rows = db.selectFrom("comparison_tables").where("load_id", "=", loadId);
  if (query.differing) rows = rows.where(differs);
  const page = await rows
    .select("result")
    .orderBy("position")
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  const total = await totalOf(page.length, query, () => rows.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow());
  // Stored before columnChanges was recorded: none said. Stored before values were cut at insert: cut now.
  const items = page.map((r) => cutSamples({ columnChanges: [], ...(JSON.parse(r.result) as Omit<TableComparisonResult, "columnChanges">) }));
  return { items, total, page: query.page, pageSize: query.pageSize };
}

const ELLIPSIS = "…";
/** Characters a changed value cut around its first difference keeps before it. */
const CONTEXT = 20;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** `value` from `start` in at most COMPARISON_VALUE_MAX characters, "…" for the text left out before and after (never half a character). */
function cutFrom(value: string, start: number): string {
  if (start === 0 && value.length <= COMPARISON_VALUE_MAX) return value;
  if (isLowSurrogate(value.charCodeAt(start))) start++;
  const before = start > 0 ? ELLIPSIS : "";
  const rest = value.slice(start);
  const room = COMPARISON_VALUE_MAX - before.length;
  if (rest.length <= room) return before + rest;
  let end = room - ELLIPSIS.length;
  if (isHighSurrogate(rest.charCodeAt(end - 1))) end--;
  return before + rest.slice(0, end) + ELLIPSIS;
}

const cutValue = (value: string | null) => (value === null ? null : cutFrom(value, 0));

/**
 * An earlier and a current value of a changed row, each at most COMPARISON_VALUE_MAX characters: where both
 * are the same for longer than that, both are cut from a little before where they first differ, so the
 * change still shows ("…same text, then the difference…"), never two equal cut values.
 */
function cutChange(earlier: string | null, current: string | null): [string | null, string | null] {
  if (earlier === null || current === null || (earlier.length <= COMPARISON_VALUE_MAX && current.length <= COMPARISON_VALUE_MAX))
    return [cutValue(earlier), cutValue(current)];
  let same = 0;
  while (same < earlier.length && same < current.length && earlier.charCodeAt(same) === current.charCodeAt(same)) same++;
  const start = same < COMPARISON_VALUE_MAX - CONTEXT ? 0 : same - CONTEXT;
  return [cutFrom(earlier, start), cutFrom(current, start)];
}

/** A table's result with each value of its samples (keys too) cut to COMPARISON_VALUE_MAX characters: one long text cannot make megabytes of a page. */
function cutSamples(result: TableComparisonResult): TableComparisonResult {
  const row = (values: (string | null)[]) => values.map(cutValue);
  return {
    ...result,
    samples: {
      added: result.samples.added.map(row),
      removed: result.samples.removed.map(row),
      changed: result.samples.changed.map(({ key, changes }) => ({
        key: row(key),
        changes: changes.map(({ column, earlier, current }) => {
          const [e, c] = cutChange(earlier, current);
          return { column, earlier: e, current: c };
        }),
      })),
    },
  };
}

function toBackup(row: BackupRow): Backup {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as Backup["kind"],
    status: row.status as Backup["status"],
    bytes: Number(row.bytes),
    tableCount: Number(row.table_count),
    rowCount: Number(row.row_count),
    after: row.after_load_id
      ? {
          id: row.after_load_id,
          type: (row.after_type ?? "FlatFile") as NonNullable<Backup["after"]>["type"],
          fileName: row.after_file ?? "",
          finishedAt: row.after_finished_at,
        }
      : null,
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}
