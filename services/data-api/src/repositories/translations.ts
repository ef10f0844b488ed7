import { randomUUID } from "node:crypto";
import path from "node:path";
import type { Kysely, Selectable } from "kysely";
import { translationReportSchema, type Translation, type TranslationQuery, type TranslationReport } from "../../../../contracts/mappings.ts";
import type { TranslationStatus } from "../../../../contracts/values/mappings.ts";
import type { Database } from "../db/schema.ts";
import type { TranslationsTable } from "../db/schema-templates.ts";
import type { TranslateProgress } from "../translations/translate-messages.ts";
import { inTransaction, totalOf } from "./db-helpers.ts";

/** Files translated with a mapping project's maps (migration 0016); the translated files are on disk. */

export const TRANSLATION_NOT_FOUND_MESSAGE = "Translation not found.";
export const INTERRUPTED_TRANSLATION_MESSAGE = "Interrupted: the data service restarted while translating. Translate the file again.";

/** Where a translated file lies: `${dataDir}/translations/{id}.csv`. */
export function translatedFilePath(dataDir: string, id: string): string {
  return path.join(dataDir, "translations", `${id}.csv`);
}

export async function createTranslation(
  db: Kysely<Database>,
  input: { projectId: string; tableName: string; fileName: string; bytesTotal: number; userId: string },
  now = new Date(),
): Promise<string> {
  const id = randomUUID();
  const at = now.toISOString();
  // A transaction even for one statement: the request's audit entry commits with it (audit-writes.ts).
  await inTransaction(db, (trx) =>
    trx
      .insertInto("translations")
      .values({
        id,
        project_id: input.projectId,
        table_name: input.tableName,
        file_name: input.fileName,
        status: "Running" satisfies TranslationStatus,
        bytes_read: 0,
        bytes_total: input.bytesTotal,
        rows_read: 0,
        rows_written: 0,
        rows_rejected: 0,
        report: null,
        error: null,
        created_by: input.userId,
        created_at: at,
        updated_at: at,
        finished_at: null,
      })
      .execute(),
  );
  return id;
}

/** Progress of a running translation; `updated_at` is its heartbeat. */
export async function recordProgress(db: Kysely<Database>, id: string, progress: TranslateProgress, now = new Date()) {
  await db
    .updateTable("translations")
    .set({
      bytes_read: progress.bytesRead,
      rows_read: progress.rowsRead,
      rows_written: progress.rowsWritten,
      rows_rejected: progress.rowsRejected,
      updated_at: now.toISOString(),
    })
    .where("id", "=", id)
    .where("status", "=", "Running")
    .execute();
}

/** A running translation is alive (its worker may be busy before its first progress). */
export async function touchTranslation(db: Kysely<Database>, id: string, now = new Date()) {
  await db.updateTable("translations").set({ updated_at: now.toISOString() }).where("id", "=", id).where("status", "=", "Running").execute();
}

export async function finishTranslation(
  db: Kysely<Database>,
  id: string,
  outcome: { status: "Completed"; progress: TranslateProgress; report: TranslationReport } | { status: "Failed"; error: string },
  now = new Date(),
) {
  const at = now.toISOString();
  const counts =
    outcome.status === "Completed"
      ? {
          bytes_read: outcome.progress.bytesRead,
          rows_read: outcome.progress.rowsRead,
          rows_written: outcome.progress.rowsWritten,
          rows_rejected: outcome.progress.rowsRejected,
          report: JSON.stringify(outcome.report),
        }
      : { error: outcome.error };
  await db
    .updateTable("translations")
    .set({ status: outcome.status, ...counts, updated_at: at, finished_at: at })
    .where("id", "=", id)
    .where("status", "=", "Running")
    .execute();
}

export async function findTranslation(db: Kysely<Database>, projectId: string, id: string): Promise<Translation | undefined> {
  const row = await db.selectFrom("translations").selectAll().where("id", "=", id).where("project_id", "=", projectId).executeTakeFirst();
  return row && toTranslation(row);
}

/** One page of the mapping project's translations, newest first (the id orders those started in the same instant). */
export async function listTranslations(db: Kysely<Database>, projectId: string, query: TranslationQuery) {
  const rows = db.selectFrom("translations").where("project_id", "=", projectId);
  const items = await rows
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  const total = await totalOf(items.length, query, () => rows.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow());
  return { items: items.map(toTranslation), total, page: query.page, pageSize: query.pageSize };
}

/** After a restart (or in another process, once silent for a while): a translation still Running never ends. */
export async function failInterruptedTranslations(db: Kysely<Database>, staleBefore: Date | undefined, now = new Date()) {
  let query = db
    .updateTable("translations")
    .set({ status: "Failed", error: INTERRUPTED_TRANSLATION_MESSAGE, finished_at: now.toISOString(), updated_at: now.toISOString() })
    .where("status", "=", "Running");
  if (staleBefore) query = query.where("updated_at", "<", staleBefore.toISOString());
  await query.execute();
}

function toTranslation(row: Selectable<TranslationsTable>): Translation {
  return {
    id: row.id,
    tableName: row.table_name,
    fileName: row.file_name,
    status: row.status as TranslationStatus,
    bytesRead: Number(row.bytes_read),
    bytesTotal: Number(row.bytes_total),
    rowsRead: Number(row.rows_read),
    rowsWritten: Number(row.rows_written),
    rowsRejected: Number(row.rows_rejected),
    report: row.report ? translationReportSchema.parse(JSON.parse(row.report)) : null,
    error: row.error,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}
