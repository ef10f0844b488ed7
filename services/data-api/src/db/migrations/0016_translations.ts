import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// "Translate a file" of translation mapping projects (issue 12): one row per file translated, while
// it runs (its progress, `updated_at` as its heartbeat) and after (its counts and report as JSON:
// unmapped values per column, rows rejected by the rules). The translated file itself is on disk
// under DATA_DIR/translations, named by the row's id.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("translations")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("table_name", "text", (col) => col.notNull())
    .addColumn("file_name", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("bytes_read", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("bytes_total", "integer", (col) => col.notNull())
    .addColumn("rows_read", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("rows_written", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("rows_rejected", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("report", "text")
    .addColumn("error", "text")
    .addColumn("created_by", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .addColumn("finished_at", "text")
    .execute();
  await db.schema.createIndex("translations_project_idx").on("translations").columns(["project_id", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("translations").execute();
}
