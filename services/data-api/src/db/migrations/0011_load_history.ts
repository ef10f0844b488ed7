import { sql, type Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// The history of loads (issue 9 §3):
// - `loads.run_type`: the entry's type (spec §4's run types, and Undo), so the history of loads,
//   restores, backups, comparisons and undos is one table, filtered in SQL. Every load so far is FlatFile.
// - `loads.parameters`: a copy (JSON) of the flat-file parameters a load read its file with, taken when
//   it starts: changing the workspace's parameters later does not rewrite its history. Null for the
//   loads before this migration (what they used is not known).
// - `load_tables`: a row per table a load fills, from one file (a load of several files has several),
//   with its counts and the file's header row; `position` is the order they are loaded in (the job's
//   steps). The loads so far each get theirs, from their own columns (the header moves here).
// - `load_rejections` gains the table its rejected row was read for, in its key: two files of one load
//   both have a row 2. Rebuilt (a primary key cannot be altered in SQLite), its rows kept.
// - `jobs.progress_detail`: where a running step is in its input (bytes, rows, time left), JSON.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("loads")
    .addColumn("run_type", "text", (col) => col.notNull().defaultTo("FlatFile"))
    .execute();
  await db.schema.alterTable("loads").addColumn("parameters", "text").execute();
  await db.schema.createIndex("loads_project_type_idx").on("loads").columns(["project_id", "run_type", "created_at"]).execute();

  await db.schema
    .createTable("load_tables")
    .addColumn("load_id", "text", (col) => col.notNull().references("loads.id").onDelete("cascade"))
    .addColumn("table_name", "text", (col) => col.notNull())
    .addColumn("position", "integer", (col) => col.notNull())
    .addColumn("file_name", "text", (col) => col.notNull())
    .addColumn("rows_read", "bigint", (col) => col.notNull().defaultTo(0))
    .addColumn("rows_loaded", "bigint", (col) => col.notNull().defaultTo(0))
    .addColumn("rows_rejected", "bigint", (col) => col.notNull().defaultTo(0))
    // The file's header row (JSON array) when it has one: the download of rejected rows starts with it.
    .addColumn("header", "text")
    .addPrimaryKeyConstraint("load_tables_pk", ["load_id", "table_name"])
    .execute();
  await sql`insert into load_tables (load_id, table_name, position, file_name, rows_read, rows_loaded, rows_rejected, header)
            select id, table_name, 0, file_name, rows_read, rows_loaded, rows_rejected, header from loads`.execute(db);
  await db.schema.alterTable("loads").dropColumn("header").execute();

  await db.schema
    .createTable("load_rejections_by_table")
    .addColumn("load_id", "text", (col) => col.notNull())
    .addColumn("table_name", "text", (col) => col.notNull())
    .addColumn("line", "bigint", (col) => col.notNull())
    .addColumn("column_name", "text")
    .addColumn("value", "text")
    .addColumn("reason", "text", (col) => col.notNull())
    .addColumn("cells", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("load_rejections_by_table_pk", ["load_id", "table_name", "line"])
    .addForeignKeyConstraint("load_rejections_table_fk", ["load_id", "table_name"], "load_tables", ["load_id", "table_name"], (fk) => fk.onDelete("cascade"))
    .execute();
  await sql`insert into load_rejections_by_table (load_id, table_name, line, column_name, value, reason, cells)
            select r.load_id, l.table_name, r.line, r.column_name, r.value, r.reason, r.cells from load_rejections r join loads l on l.id = r.load_id`.execute(
    db,
  );
  await db.schema.dropTable("load_rejections").execute();
  await db.schema.alterTable("load_rejections_by_table").renameTo("load_rejections").execute();

  await db.schema.alterTable("jobs").addColumn("progress_detail", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").dropColumn("progress_detail").execute();
  await db.schema.alterTable("loads").addColumn("header", "text").execute();
  await sql`update loads set header = (select t.header from load_tables t where t.load_id = loads.id and t.position = 0)`.execute(db);
  await db.schema
    .createTable("load_rejections_by_load")
    .addColumn("load_id", "text", (col) => col.notNull().references("loads.id").onDelete("cascade"))
    .addColumn("line", "bigint", (col) => col.notNull())
    .addColumn("column_name", "text")
    .addColumn("value", "text")
    .addColumn("reason", "text", (col) => col.notNull())
    .addColumn("cells", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("load_rejections_pk", ["load_id", "line"])
    .execute();
  // Before this migration a load had one table: its rejected rows are those of its first.
  await sql`insert into load_rejections_by_load (load_id, line, column_name, value, reason, cells)
            select r.load_id, r.line, r.column_name, r.value, r.reason, r.cells from load_rejections r
              join load_tables t on t.load_id = r.load_id and t.table_name = r.table_name where t.position = 0`.execute(db);
  await db.schema.dropTable("load_rejections").execute();
  await db.schema.alterTable("load_rejections_by_load").renameTo("load_rejections").execute();
  await db.schema.dropTable("load_tables").execute();
  await db.schema.dropIndex("loads_project_type_idx").execute();
  await db.schema.alterTable("loads").dropColumn("parameters").execute();
  await db.schema.alterTable("loads").dropColumn("run_type").execute();
}
