import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// Flat-file loads into a workspace's source database: one row per load (its history entry: file,
// table, choices, outcome and counts), and its rejected rows, each with the row's place in the file,
// the column and value at fault, the reason, and the row's cells as read (JSON), so the rejected rows
// can be downloaded as they were written, corrected and loaded again. Paged in SQL by (load, line).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("loads")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("job_id", "text")
    .addColumn("file_name", "text", (col) => col.notNull())
    .addColumn("file_bytes", "bigint", (col) => col.notNull())
    .addColumn("table_name", "text", (col) => col.notNull())
    .addColumn("mode", "text", (col) => col.notNull())
    .addColumn("on_rejected", "text", (col) => col.notNull())
    // Loading, Loaded, Refused, Failed (contracts/values/loads.ts).
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("rows_read", "bigint", (col) => col.notNull().defaultTo(0))
    .addColumn("rows_loaded", "bigint", (col) => col.notNull().defaultTo(0))
    .addColumn("rows_rejected", "bigint", (col) => col.notNull().defaultTo(0))
    .addColumn("message", "text")
    // The file's header row (JSON array) when it has one: the download of rejected rows starts with it.
    .addColumn("header", "text")
    .addColumn("created_by", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("finished_at", "text")
    .execute();
  await db.schema.createIndex("loads_project_created_idx").on("loads").columns(["project_id", "created_at"]).execute();
  await db.schema
    .createTable("load_rejections")
    .addColumn("load_id", "text", (col) => col.notNull().references("loads.id").onDelete("cascade"))
    .addColumn("line", "bigint", (col) => col.notNull())
    .addColumn("column_name", "text")
    .addColumn("value", "text")
    .addColumn("reason", "text", (col) => col.notNull())
    .addColumn("cells", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("load_rejections_pk", ["load_id", "line"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("load_rejections").execute();
  await db.schema.dropTable("loads").execute();
}
