/**
 * Flat-file loads in the control plane: a row per load (the history's entry) and its rejected rows,
 * paged in SQL by (load, line).
 */
import { randomUUID } from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import type { Load, LoadForm, RejectedRow } from "../../../../contracts/loads.ts";
import type { LoadOutcome, Rejection } from "../data-plane/flat-file/load-messages.ts";
import type { Database } from "../db/schema.ts";
import type { LoadsTable } from "../db/schema-projects.ts";
import { insertJsonRows } from "./bulk-insert.ts";

export async function insertLoad(
  db: Kysely<Database>,
  load: { projectId: string; fileName: string; fileBytes: number; form: LoadForm; userId: string; now: Date },
): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("loads")
    .values({
      id,
      project_id: load.projectId,
      job_id: null,
      file_name: load.fileName,
      file_bytes: load.fileBytes,
      table_name: load.form.table,
      mode: load.form.mode,
      on_rejected: load.form.onRejected,
      status: "Loading",
      message: null,
      header: null,
      created_by: load.userId,
      created_at: load.now.toISOString(),
      finished_at: null,
    })
    .execute();
  return id;
}

export async function setLoadJob(db: Kysely<Database>, loadId: string, jobId: string) {
  await db.updateTable("loads").set({ job_id: jobId }).where("id", "=", loadId).execute();
}

export async function setLoadHeader(db: Kysely<Database>, loadId: string, header: string[]) {
  await db.updateTable("loads").set({ header: JSON.stringify(header) }).where("id", "=", loadId).execute();
}

/** Ends a load that is still Loading (a recovery may have ended it first). */
export async function finishLoad(db: Kysely<Database>, loadId: string, outcome: LoadOutcome, now: Date) {
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

/** Loads still Loading whose job has ended (a killed process): Failed, nothing loaded (the transaction never committed). */
export async function failLoadsOfEndedJobs(db: Kysely<Database>, message: string, now: Date) {
  await db
    .updateTable("loads")
    .set({ status: "Failed", rows_loaded: 0, message, finished_at: now.toISOString() })
    .where("status", "=", "Loading")
    .where((eb) => eb.or([eb("job_id", "is", null), eb("job_id", "in", eb.selectFrom("jobs").select("id").where("status", "!=", "IN_PROGRESS"))]))
    .execute();
}

export async function insertRejections(db: Kysely<Database>, loadId: string, rows: readonly Rejection[]) {
  await insertJsonRows(
    db,
    "load_rejections",
    [
      { name: "load_id", type: "text" },
      { name: "line", type: "integer" },
      { name: "column_name", type: "text" },
      { name: "value", type: "text" },
      { name: "reason", type: "text" },
      { name: "cells", type: "text" },
    ],
    rows.map((r) => [loadId, r.line, r.column, r.value, r.reason, JSON.stringify(r.cells)]),
  );
}

export async function deleteRejections(db: Kysely<Database>, loadId: string) {
  await db.deleteFrom("load_rejections").where("load_id", "=", loadId).execute();
}

export async function findLoad(db: Kysely<Database>, projectId: string, loadId: string): Promise<Load | undefined> {
  const row = await db.selectFrom("loads").selectAll().where("id", "=", loadId).where("project_id", "=", projectId).executeTakeFirst();
  return row && toLoad(row);
}

export async function listLoads(db: Kysely<Database>, projectId: string, page: { page: number; pageSize: number }) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom("loads")
      .selectAll()
      .where("project_id", "=", projectId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    db.selectFrom("loads").select((eb) => eb.fn.countAll<number | string>().as("n")).where("project_id", "=", projectId).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toLoad), total: Number(total.n), page: page.page, pageSize: page.pageSize };
}

export async function rejectionsPage(db: Kysely<Database>, loadId: string, page: { page: number; pageSize: number }, total: number) {
  const rows = await db
    .selectFrom("load_rejections")
    .select(["line", "column_name", "value", "reason"])
    .where("load_id", "=", loadId)
    .orderBy("line")
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  const items: RejectedRow[] = rows.map((r) => ({ line: Number(r.line), column: r.column_name, value: r.value, reason: r.reason }));
  return { items, total, page: page.page, pageSize: page.pageSize };
}

/** Every rejected row of a load in file order, a batch per query (keyset on the primary key): for the download. */
export async function* allRejections(db: Kysely<Database>, loadId: string, batch = 2000): AsyncGenerator<{ line: number; reason: string; cells: string[] }[]> {
  let after = -1;
  for (;;) {
    const rows = await db
      .selectFrom("load_rejections")
      .select(["line", "reason", "cells"])
      .where("load_id", "=", loadId)
      .where("line", ">", after)
      .orderBy("line")
      .limit(batch)
      .execute();
    if (rows.length) yield rows.map((r) => ({ line: Number(r.line), reason: r.reason, cells: JSON.parse(r.cells) as string[] }));
    if (rows.length < batch) return;
    after = Number(rows[rows.length - 1]!.line);
  }
}

/** The file's header row of a load, when it had one: the download of rejected rows starts with it. */
export async function findLoadHeader(db: Kysely<Database>, loadId: string): Promise<string[] | null> {
  const row = await db.selectFrom("loads").select("header").where("id", "=", loadId).executeTakeFirst();
  return row?.header ? (JSON.parse(row.header) as string[]) : null;
}

function toLoad(row: Selectable<LoadsTable>): Load {
  return {
    id: row.id,
    projectId: row.project_id,
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
