import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// Backups, restores, undo and comparisons (issue 10):
// - `backups`: a backup archive of a workspace's databases (its file is DATA_DIR/backups/{project}/{id}.backup.tar):
//   Manual ("Back up now") or Automatic (taken before each load and restore), its size and counts, and
//   `after_load_id`: the entry of the history whose result it holds (the last load or restore before it).
// - `loads.backup_id`: for a Backup entry the backup it made; for a load, restore or undo the automatic
//   backup taken before it (what Undo restores); for a comparison the backup it compared.
// - `loads.about_load_id`: the entry an undo undid, or a comparison compared.
// - `comparison_tables`: a comparison's result per table (counts, the columns that changed, samples as JSON).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("backups")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("bytes", "bigint", (col) => col.notNull().defaultTo(0))
    .addColumn("table_count", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("row_count", "bigint", (col) => col.notNull().defaultTo(0))
    .addColumn("after_load_id", "text")
    .addColumn("created_by", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("finished_at", "text")
    .execute();
  await db.schema.createIndex("backups_project_idx").on("backups").columns(["project_id", "created_at"]).execute();
  await db.schema.alterTable("loads").addColumn("backup_id", "text").execute();
  await db.schema.alterTable("loads").addColumn("about_load_id", "text").execute();
  await db.schema
    .createTable("comparison_tables")
    .addColumn("load_id", "text", (col) => col.notNull().references("loads.id").onDelete("cascade"))
    .addColumn("table_name", "text", (col) => col.notNull())
    .addColumn("position", "integer", (col) => col.notNull())
    .addColumn("result", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("comparison_tables_pk", ["load_id", "table_name"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("comparison_tables").execute();
  await db.schema.alterTable("loads").dropColumn("about_load_id").execute();
  await db.schema.alterTable("loads").dropColumn("backup_id").execute();
  await db.schema.dropIndex("backups_project_idx").execute();
  await db.schema.dropTable("backups").execute();
}
