/**
 * Backups in the control plane (issue 10): a row per archive (its file lives under
 * DATA_DIR/backups), which entry of the history its data follows, and the comparisons' results.
 */
import { randomUUID } from "node:crypto";
import type { Kysely, Selectable, Transaction } from "kysely";
import type { Backup, BackupQuery, TableComparisonResult } from "../../../../contracts/backups.ts";
import { CHANGING_TYPES } from "../../../../contracts/values/loads.ts";
import type { Database } from "../db/schema.ts";
import type { BackupsTable } from "../db/schema-projects.ts";
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

export async function insertComparison(db: Db, loadId: string, tables: readonly TableComparisonResult[]) {
  if (tables.length === 0) return;
  await db
    .insertInto("comparison_tables")
    .values(tables.map((t, position) => ({ load_id: loadId, table_name: t.table, position, result: JSON.stringify(t) })))
    .execute();
}

export async function comparisonOf(db: Db, loadId: string): Promise<TableComparisonResult[] | null> {
  const rows = await db.selectFrom("comparison_tables").select("result").where("load_id", "=", loadId).orderBy("position").execute();
  // Stored before columnChanges was recorded: none said.
  return rows.length ? rows.map((r) => ({ columnChanges: [], ...(JSON.parse(r.result) as Omit<TableComparisonResult, "columnChanges">) })) : null;
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
