import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// Bulk-upload reviews as rows instead of one JSON blob: a file of a million rows made a review of
// tens of megabytes that every read parsed whole. Now a header row per review, the file's parsed
// rows staged (what apply writes, read back table by table), its problems and its tables (each
// with its column changes as a small JSON: a table has at most 1,024 columns) as rows of their own,
// paginated in SQL. The old table held reviews that expire within a day: it is replaced, and any
// review pending at the upgrade has to be uploaded again.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("dictionary_reviews").execute();
  await db.schema
    .createTable("dictionary_reviews")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("dictionary_id", "text", (col) => col.notNull().references("dictionaries.id").onDelete("cascade"))
    .addColumn("file_name", "text", (col) => col.notNull())
    .addColumn("mode", "text", (col) => col.notNull())
    .addColumn("base_version", "integer", (col) => col.notNull())
    // parsing: the file is being read into the rows below (not shown); ready: a review to show.
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("row_count", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("table_count", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("changing_table_count", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("added_table_count", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("problem_count", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("can_apply", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_by", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("dictionary_reviews_dictionary_idx").on("dictionary_reviews").column("dictionary_id").execute();
  await db.schema.createIndex("dictionary_reviews_created_idx").on("dictionary_reviews").column("created_at").execute();

  // One row of the file whose table and column names are valid identifiers (the others are only
  // problems). `valid` 1: the whole row is a column definition (the fields below are set).
  await db.schema
    .createTable("dictionary_review_rows")
    .addColumn("review_id", "text", (col) => col.notNull().references("dictionary_reviews.id").onDelete("cascade"))
    .addColumn("line", "integer", (col) => col.notNull())
    .addColumn("table_key", "text", (col) => col.notNull())
    .addColumn("table_name", "text", (col) => col.notNull())
    .addColumn("column_key", "text", (col) => col.notNull())
    .addColumn("column_name", "text", (col) => col.notNull())
    .addColumn("valid", "integer", (col) => col.notNull())
    .addColumn("type", "text")
    .addColumn("length", "integer")
    .addColumn("precision", "integer")
    .addColumn("scale", "integer")
    .addColumn("nullable", "integer")
    .addColumn("is_key", "integer")
    .addColumn("description", "text")
    .addPrimaryKeyConstraint("dictionary_review_rows_pk", ["review_id", "line"])
    .execute();
  // Whole-table checks and apply read a table's rows in file order.
  await db.schema.createIndex("dictionary_review_rows_table_idx").on("dictionary_review_rows").columns(["review_id", "table_key", "line"]).execute();

  // The file's problems; shown by line (file-level ones, without a line, last), then in the order found.
  await db.schema
    .createTable("dictionary_review_problems")
    .addColumn("review_id", "text", (col) => col.notNull().references("dictionary_reviews.id").onDelete("cascade"))
    .addColumn("seq", "integer", (col) => col.notNull())
    .addColumn("line", "integer")
    .addColumn("sort_line", "integer", (col) => col.notNull())
    .addColumn("field", "text")
    .addColumn("message", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("dictionary_review_problems_pk", ["review_id", "seq"])
    .execute();
  await db.schema.createIndex("dictionary_review_problems_order_idx").on("dictionary_review_problems").columns(["review_id", "sort_line", "seq"]).execute();

  // Per table of the file, in its order: what applying would do to it.
  await db.schema
    .createTable("dictionary_review_tables")
    .addColumn("review_id", "text", (col) => col.notNull().references("dictionary_reviews.id").onDelete("cascade"))
    .addColumn("ordinal", "integer", (col) => col.notNull())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("table_key", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("added_count", "integer", (col) => col.notNull())
    .addColumn("changed_count", "integer", (col) => col.notNull())
    .addColumn("removed_count", "integer", (col) => col.notNull())
    .addColumn("unchanged_count", "integer", (col) => col.notNull())
    // JSON { added, changed, removed }: contracts/dictionary.ts columnChangeSchema lists.
    .addColumn("changes", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("dictionary_review_tables_pk", ["review_id", "ordinal"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("dictionary_review_tables").execute();
  await db.schema.dropTable("dictionary_review_problems").execute();
  await db.schema.dropTable("dictionary_review_rows").execute();
  await db.schema.dropTable("dictionary_reviews").execute();
  await db.schema
    .createTable("dictionary_reviews")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("dictionary_id", "text", (col) => col.notNull().references("dictionaries.id").onDelete("cascade"))
    .addColumn("file_name", "text", (col) => col.notNull())
    .addColumn("base_version", "integer", (col) => col.notNull())
    .addColumn("rows", "text", (col) => col.notNull())
    .addColumn("review", "text", (col) => col.notNull())
    .addColumn("created_by", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("dictionary_reviews_dictionary_idx").on("dictionary_reviews").column("dictionary_id").execute();
}
