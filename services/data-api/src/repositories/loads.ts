/**
 * Flat-file loads in the control plane: a row per load (an entry of the history: its type, file,
 * choices, the parameters it read with, status and totals), a row per table it fills (file, counts,
 * header), and the rejected rows of each table, paged in SQL by (load, table, line).
 */
import { randomUUID } from "node:crypto";
import { sql, type Kysely, type Selectable } from "kysely";
import type { HistoryEntry, HistoryListEntry, HistoryQuery, Load, LoadForm, LoadTable, RejectedRow } from "../../../../contracts/loads.ts";
import { HISTORY_TYPES, LOAD_STATUSES, statusLabel, type HistoryType, type LoadStatus } from "../../../../contracts/values/loads.ts";
import type { FlatFileParameters } from "../../../../contracts/projects.ts";
import type { LoadOutcome, Rejection } from "../data-plane/flat-file/load-messages.ts";
import type { Database } from "../db/schema.ts";
import type { LoadsTable, LoadTablesTable } from "../db/schema-projects.ts";
import { findBackups } from "./backups.ts";
import { insertJsonRows } from "./bulk-insert.ts";
import { inTransaction, sortOf, totalOf } from "./db-helpers.ts";

/** What a load reads: each file into its table, in order (one today; several when a load takes several files). */
export type NewLoadTable = { table: string; fileName: string };

export async function insertLoad(
  db: Kysely<Database>,
  load: {
    projectId: string;
    fileName: string;
    fileBytes: number;
    form: LoadForm;
    tables: readonly NewLoadTable[];
    /** The flat-file parameters a load reads with; null for the other types. */
    parameters: FlatFileParameters | null;
    userId: string;
    now: Date;
    /** FlatFile by default; a restore, backup, comparison or undo records its entry here too. */
    type?: HistoryType;
    /** An undo: the entry it undoes; a comparison: the entry whose data it compares. */
    aboutLoadId?: string | null;
    /** Said from the start (files of the upload it leaves out); the outcome's message follows it. */
    message?: string | null;
  },
): Promise<string> {
  const id = randomUUID();
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto("loads")
      .values({
        id,
        project_id: load.projectId,
        job_id: null,
        run_type: load.type ?? "FlatFile",
        file_name: load.fileName,
        file_bytes: load.fileBytes,
        table_name: load.form.table,
        mode: load.form.mode,
        on_rejected: load.form.onRejected,
        // A copy: the workspace's parameters may change after, this load's history may not.
        parameters: load.parameters && JSON.stringify(load.parameters),
        about_load_id: load.aboutLoadId ?? null,
        status: "Loading",
        message: load.message ?? null,
        created_by: load.userId,
        created_at: load.now.toISOString(),
        finished_at: null,
      })
      .execute();
    if (load.tables.length)
      await trx
      .insertInto("load_tables")
      .values(load.tables.map((t, position) => ({ load_id: id, table_name: t.table, position, file_name: t.fileName, header: null })))
      .execute();
  });
  return id;
}

export async function setLoadJob(db: Kysely<Database>, loadId: string, jobId: string) {
  await db.updateTable("loads").set({ job_id: jobId }).where("id", "=", loadId).execute();
}

/** The size of the entry's file, once all of it has arrived (a load starts as its file arrives). */
export async function setLoadFileBytes(db: Kysely<Database>, loadId: string, bytes: number) {
  await db.updateTable("loads").set({ file_bytes: bytes }).where("id", "=", loadId).execute();
}

/** The entry's backup: the one a Backup made, the automatic one taken before a change, or the one a comparison compared. */
export async function setLoadBackup(db: Kysely<Database>, loadId: string, backupId: string) {
  await db.updateTable("loads").set({ backup_id: backupId }).where("id", "=", loadId).execute();
}

/** The tables an entry filled, once known (a restore learns them as it reads its input). */
export async function insertLoadTables(db: Kysely<Database>, loadId: string, tables: readonly (NewLoadTable & { rows: number })[]) {
  if (tables.length === 0) return;
  await db
    .insertInto("load_tables")
    .values(
      tables.map((t, position) => ({
        load_id: loadId,
        table_name: t.table,
        position,
        file_name: t.fileName,
        rows_read: t.rows,
        rows_loaded: t.rows,
        header: null,
      })),
    )
    .execute();
}

export async function setLoadHeader(db: Kysely<Database>, loadId: string, table: string, header: string[]) {
  await db
    .updateTable("load_tables")
    .set({ header: JSON.stringify(header) })
    .where("load_id", "=", loadId)
    .where("table_name", "=", table)
    .execute();
}

/** One table's counts as its file's pass ended (the load's own totals are finishLoad's). */
export async function finishLoadTable(
  db: Kysely<Database>,
  loadId: string,
  table: string,
  outcome: Pick<LoadOutcome, "rowsRead" | "rowsLoaded" | "rowsRejected">,
) {
  await db
    .updateTable("load_tables")
    .set({ rows_read: outcome.rowsRead, rows_loaded: outcome.rowsLoaded, rows_rejected: outcome.rowsRejected })
    .where("load_id", "=", loadId)
    .where("table_name", "=", table)
    .execute();
}

/** Ends a load that is still Loading (a recovery may have ended it first). */
export async function finishLoad(db: Kysely<Database>, loadId: string, outcome: Omit<LoadOutcome, "status"> & { status: Exclude<LoadStatus, "Loading"> }, now: Date) {
  await db
    .updateTable("loads")
    .set({
      status: outcome.status,
      rows_read: outcome.rowsRead,
      rows_loaded: outcome.rowsLoaded,
      rows_rejected: outcome.rowsRejected,
      message: outcome.message,
      finished_at: now.toISOString(),
    })
    .where("id", "=", loadId)
    .where("status", "=", "Loading")
    .execute();
}

/**
 * Loads still Loading whose job has ended (a killed process, a force unlock): Failed, nothing loaded
 * (the transaction never committed). `message` leads; what the entry said from its start (the files of
 * its upload it skipped) stays after it, as after a load's own outcome (flat-file-load.ts).
 */
export async function failLoadsOfEndedJobs(db: Kysely<Database>, message: string, now: Date) {
  await db
    .updateTable("loads")
    .set({
      status: "Failed",
      rows_loaded: 0,
      message: sql<string>`cast(${message} as text) || coalesce(' ' || message, '')`,
      finished_at: now.toISOString(),
    })
    .where("status", "=", "Loading")
    .where((eb) => eb.or([eb("job_id", "is", null), eb("job_id", "in", eb.selectFrom("jobs").select("id").where("status", "!=", "IN_PROGRESS"))]))
    .execute();
}

export async function insertRejections(db: Kysely<Database>, loadId: string, table: string, rows: readonly Rejection[]) {
  await insertJsonRows(
    db,
    "load_rejections",
    [
      { name: "load_id", type: "text" },
      { name: "table_name", type: "text" },
      { name: "line", type: "integer" },
      { name: "column_name", type: "text" },
      { name: "value", type: "text" },
      { name: "reason", type: "text" },
      { name: "cells", type: "text" },
    ],
    rows.map((r) => [loadId, table, r.line, r.column, r.value, r.reason, JSON.stringify(r.cells)]),
  );
}

export async function deleteRejections(db: Kysely<Database>, loadId: string, table: string) {
  await db.deleteFrom("load_rejections").where("load_id", "=", loadId).where("table_name", "=", table).execute();
}

export async function findLoad(db: Kysely<Database>, projectId: string, loadId: string): Promise<Load | undefined> {
  const row = await db.selectFrom("loads").selectAll().where("id", "=", loadId).where("project_id", "=", projectId).executeTakeFirst();
  return row && toLoad(row);
}

/** The latest undo of an entry that did not fail or get refused (running, or its data restored): when it started and who started it. */
export async function findUndoOf(db: Kysely<Database>, projectId: string, loadId: string) {
  return db
    .selectFrom("loads")
    .select(["created_at", "created_by"])
    .where("project_id", "=", projectId)
    .where("about_load_id", "=", loadId)
    .where("run_type", "=", "Undo")
    .where("status", "in", ["Loading", "Loaded"] satisfies LoadStatus[])
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

/**
 * The Status column's words in SQL (statusLabel: a restore's Loaded reads "Restored", work other than a
 * load "Running" while it runs), so that sorting by Status follows what the rows show, not the stored status.
 */
const STATUS_WORDS = sql<string>`case ${sql.join(
  HISTORY_TYPES.flatMap((type) =>
    LOAD_STATUSES.filter((status) => statusLabel(type, status) !== status).map(
      (status) => sql`when run_type = ${sql.lit(type)} and status = ${sql.lit(status)} then ${sql.lit(statusLabel(type, status))}`,
    ),
  ),
  sql` `,
)} else status end`;

/**
 * The Rows column's number in SQL, so that sorting by Rows follows what the rows show: a load's rows
 * loaded (its tables' "… loaded", summed), a comparison's rows compared (rows_read: it loads none), a
 * backup's, restore's or undo's rows backed up or restored; work other than a load shows none while it
 * runs or once it failed, which sorts below every number (-1: alike on SQLite and PostgreSQL, whose nulls
 * sort at opposite ends).
 */
const ROWS_SHOWN = sql<number>`case when run_type <> ${sql.lit("FlatFile" satisfies HistoryType)} and status in (${sql.join(
  (["Loading", "Failed"] satisfies LoadStatus[]).map((status) => sql.lit(status)),
)}) then -1 when run_type = ${sql.lit("Comparison" satisfies HistoryType)} then rows_read else rows_loaded end`;

const HISTORY_SORT_COLUMNS = { createdAt: "created_at", type: "run_type", status: STATUS_WORDS, file: "file_name", rowsLoaded: ROWS_SHOWN } as const;

/**
 * One page of the workspace's history: filtered by type and status, sorted, counted and paginated in
 * SQL; each entry with its tables (one more query for the page's entries, not one per entry), and a
 * comparison with what the backup it compared holds (one more query for the page's comparisons).
 */
export async function listHistory(db: Kysely<Database>, projectId: string, search: HistoryQuery) {
  let rows = db.selectFrom("loads").selectAll().where("project_id", "=", projectId);
  let count = db
    .selectFrom("loads")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("project_id", "=", projectId);
  if (search.type.length) {
    rows = rows.where("run_type", "in", search.type);
    count = count.where("run_type", "in", search.type);
  }
  if (search.status.length) {
    rows = rows.where("status", "in", search.status);
    count = count.where("status", "in", search.status);
  }
  const { key, direction } = sortOf<keyof typeof HISTORY_SORT_COLUMNS>(search.sort);
  rows = rows.orderBy(HISTORY_SORT_COLUMNS[key], direction);
  // Ties: newest first, then by id, so consecutive pages never overlap or skip.
  if (key !== "createdAt") rows = rows.orderBy("created_at", "desc");
  const items = await rows
    .orderBy("id", direction)
    .limit(search.pageSize)
    .offset((search.page - 1) * search.pageSize)
    .execute();
  const total = await totalOf(items.length, search, () => count.executeTakeFirstOrThrow());
  const tables = await tablesOf(
    db,
    items.map((r) => r.id),
  );
  const compared = await findBackups(
    db,
    projectId,
    items.flatMap((r) => (r.run_type === "Comparison" && r.backup_id ? [r.backup_id] : [])),
  );
  const listEntry = (row: (typeof items)[number]): HistoryListEntry => {
    const backup = row.run_type === "Comparison" && row.backup_id ? compared.get(row.backup_id) : undefined;
    return { ...toEntry(row, tables), compared: backup ? { after: backup.after } : null };
  };
  return { items: items.map(listEntry), total, page: search.page, pageSize: search.pageSize };
}

/** One entry of the workspace's history with its tables and the parameters it read with; undefined when it is not this workspace's. */
export async function findHistoryEntry(db: Kysely<Database>, projectId: string, loadId: string) {
  const row = await db.selectFrom("loads").selectAll().where("id", "=", loadId).where("project_id", "=", projectId).executeTakeFirst();
  if (!row) return undefined;
  const entry = toEntry(row, await tablesOf(db, [row.id]));
  return {
    entry,
    parameters: row.parameters ? (JSON.parse(row.parameters) as FlatFileParameters) : null,
    backupId: row.backup_id,
    aboutLoadId: row.about_load_id,
  };
}

async function tablesOf(db: Kysely<Database>, loadIds: readonly string[]): Promise<Map<string, LoadTable[]>> {
  const byLoad = new Map<string, LoadTable[]>();
  if (loadIds.length === 0) return byLoad;
  const rows = await db.selectFrom("load_tables").selectAll().where("load_id", "in", loadIds).orderBy("load_id").orderBy("position").execute();
  for (const row of rows) {
    const table = toLoadTable(row);
    const list = byLoad.get(row.load_id);
    if (list) list.push(table);
    else byLoad.set(row.load_id, [table]);
  }
  return byLoad;
}

/** One table of a load, by its name, with the file's header row: the table's rejected rows are read through it. */
export async function findLoadTable(db: Kysely<Database>, loadId: string, table: string) {
  const row = await db.selectFrom("load_tables").selectAll().where("load_id", "=", loadId).where("table_name", "=", table).executeTakeFirst();
  return row && { ...toLoadTable(row), header: row.header ? (JSON.parse(row.header) as string[]) : null };
}

export async function rejectionsPage(db: Kysely<Database>, loadId: string, table: string, page: { page: number; pageSize: number }, total: number) {
  const rows = await db
    .selectFrom("load_rejections")
    .select(["line", "column_name", "value", "reason"])
    .where("load_id", "=", loadId)
    .where("table_name", "=", table)
    .orderBy("line")
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const items: RejectedRow[] = rows.map((r) => ({ line: Number(r.line), column: r.column_name, value: r.value, reason: r.reason }));
  return { items, total, page: page.page, pageSize: page.pageSize };
}

/** Every rejected row of a load's table in file order, a batch per query (keyset on the primary key): for the download. */
export async function* allRejections(
  db: Kysely<Database>,
  loadId: string,
  table: string,
  batch = 2000,
): AsyncGenerator<{ line: number; column: string | null; reason: string; cells: string[] }[]> {
  let after = -1;
  for (;;) {
    const rows = await db
      .selectFrom("load_rejections")
      .select(["line", "column_name", "reason", "cells"])
      .where("load_id", "=", loadId)
      .where("table_name", "=", table)
      .where("line", ">", after)
      .orderBy("line")
      .limit(batch)
      .execute();
    if (rows.length) yield rows.map((r) => ({ line: Number(r.line), column: r.column_name, reason: r.reason, cells: JSON.parse(r.cells) as string[] }));
    if (rows.length < batch) return;
    after = Number(rows[rows.length - 1]!.line);
  }
}

function toLoad(row: Selectable<LoadsTable>): Load {
  return {
    id: row.id,
    projectId: row.project_id,
    type: row.run_type as Load["type"],
    jobId: row.job_id,
    fileName: row.file_name,
    fileBytes: Number(row.file_bytes),
    tableName: row.table_name,
    mode: row.mode as Load["mode"],
    onRejected: row.on_rejected as Load["onRejected"],
    status: row.status as Load["status"],
    rowsRead: Number(row.rows_read),
    rowsLoaded: Number(row.rows_loaded),
    rowsRejected: Number(row.rows_rejected),
    message: row.message,
    createdBy: row.created_by,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

function toEntry(row: Selectable<LoadsTable>, tables: Map<string, LoadTable[]>): HistoryEntry {
  return { ...toLoad(row), tables: tables.get(row.id) ?? [] };
}

function toLoadTable(row: Selectable<LoadTablesTable>): LoadTable {
  return {
    table: row.table_name,
    fileName: row.file_name,
    rowsRead: Number(row.rows_read),
    rowsLoaded: Number(row.rows_loaded),
    rowsRejected: Number(row.rows_rejected),
  };
}

/** When a load last changed each of a workspace's source tables (the loads that committed), by table name. */
export async function lastLoadedAt(db: Kysely<Database>, projectId: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom("load_tables as t")
    .innerJoin("loads as l", "l.id", "t.load_id")
    .select(["t.table_name as table", (eb) => eb.fn.max("l.finished_at").as("at")])
    .where("l.project_id", "=", projectId)
    .where("l.status", "=", "Loaded")
    .groupBy("t.table_name")
    .execute();
  return new Map(rows.filter((r) => r.at).map((r) => [r.table, String(r.at)]));
}
