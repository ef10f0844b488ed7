import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// Value maps of translation mapping projects (issue 12). A mapping project's file data structure is
// its own dictionary, so a map hangs off a dictionary column and goes with it:
// - `value_map_columns`: a column's settings (translated or not, the rule for an unmapped value and
//   its default) and `version`, which moves on with every change to its settings or its values, so a
//   stale edit is refused. A column without a row is not translated and keeps unmapped values.
// - `value_map_values`: the column's distinct source values (from samples, imports or typed), each
//   with its target (null: not mapped yet) and how often the samples held it.
// - `value_map_imports` and `value_map_import_rows`: an uploaded map CSV waiting for its confirmation
//   (the preview compares it with the map in SQL; "Apply" copies it in), dropped once applied.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("value_map_columns")
    .addColumn("column_id", "text", (col) => col.primaryKey().references("dictionary_columns.id").onDelete("cascade"))
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("translate", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("unmapped_rule", "text", (col) => col.notNull().defaultTo("Keep"))
    .addColumn("default_value", "text")
    .addColumn("version", "integer", (col) => col.notNull().defaultTo(1))
    .addColumn("updated_at", "text", (col) => col.notNull())
    .addColumn("updated_by", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("value_map_columns_project_idx").on("value_map_columns").column("project_id").execute();

  await db.schema
    .createTable("value_map_values")
    .addColumn("column_id", "text", (col) => col.notNull().references("dictionary_columns.id").onDelete("cascade"))
    .addColumn("source_value", "text", (col) => col.notNull())
    .addColumn("target_value", "text")
    .addColumn("sample_count", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("updated_at", "text", (col) => col.notNull())
    .addColumn("updated_by", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("value_map_values_pk", ["column_id", "source_value"])
    .execute();

  await db.schema
    .createTable("value_map_imports")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("column_id", "text", (col) => col.notNull().references("dictionary_columns.id").onDelete("cascade"))
    .addColumn("base_version", "integer", (col) => col.notNull())
    .addColumn("file_name", "text", (col) => col.notNull())
    .addColumn("row_count", "integer", (col) => col.notNull())
    .addColumn("created_by", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema
    .createTable("value_map_import_rows")
    .addColumn("import_id", "text", (col) => col.notNull().references("value_map_imports.id").onDelete("cascade"))
    .addColumn("line", "integer", (col) => col.notNull())
    .addColumn("source_value", "text", (col) => col.notNull())
    .addColumn("target_value", "text")
    .addPrimaryKeyConstraint("value_map_import_rows_pk", ["import_id", "source_value"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("value_map_import_rows").execute();
  await db.schema.dropTable("value_map_imports").execute();
  await db.schema.dropTable("value_map_values").execute();
  await db.schema.dropTable("value_map_columns").execute();
}
