import { sql, type Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code,
// so it keeps describing the schema as it was on that day.
//
// Names are unique case-insensitively: every named row keeps `name_key` (the lower-cased name)
// beside `name`, and the unique constraints are on the key, so both engines enforce the same rule
// without expression indexes or collations.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("applications")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("company_id", "text", (col) => col.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("name_key", "text", (col) => col.notNull())
    .addColumn("description", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addUniqueConstraint("applications_company_name_key", ["company_id", "name_key"])
    .execute();

  // A master dictionary has no project; a project's own copy names its project (one per project).
  // project_id has no foreign key: the projects table comes in a later migration, and SQLite
  // cannot add one to an existing column.
  await db.schema
    .createTable("dictionaries")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("company_id", "text", (col) => col.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("application_id", "text", (col) => col.notNull().references("applications.id").onDelete("cascade"))
    .addColumn("project_id", "text", (col) => col.unique())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("name_key", "text", (col) => col.notNull())
    .addColumn("description", "text")
    .addColumn("version", "integer", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .addColumn("updated_by", "text", (col) => col.notNull())
    .execute();

  // Master names are unique per application; project copies may share the master's name.
  await db.schema
    .createIndex("dictionaries_master_name_key")
    .on("dictionaries")
    .columns(["company_id", "application_id", "name_key"])
    .unique()
    .where(sql.ref("project_id"), "is", null)
    .execute();

  await db.schema
    .createTable("dictionary_tables")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("dictionary_id", "text", (col) => col.notNull().references("dictionaries.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("name_key", "text", (col) => col.notNull())
    .addColumn("description", "text")
    .addColumn("position", "integer", (col) => col.notNull())
    .addUniqueConstraint("dictionary_tables_dictionary_name_key", ["dictionary_id", "name_key"])
    .execute();

  await db.schema
    .createTable("dictionary_columns")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("table_id", "text", (col) => col.notNull().references("dictionary_tables.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("name_key", "text", (col) => col.notNull())
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("length", "integer")
    .addColumn("precision", "integer")
    .addColumn("scale", "integer")
    .addColumn("nullable", "integer", (col) => col.notNull())
    .addColumn("is_key", "integer", (col) => col.notNull())
    .addColumn("description", "text")
    .addColumn("position", "integer", (col) => col.notNull())
    .addUniqueConstraint("dictionary_columns_table_name_key", ["table_id", "name_key"])
    .execute();

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

  // Lists filter by these; the unique constraints above already index the other lookups.
  await db.schema.createIndex("dictionaries_application_idx").on("dictionaries").column("application_id").execute();
  await db.schema.createIndex("dictionary_reviews_dictionary_idx").on("dictionary_reviews").column("dictionary_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("dictionary_reviews").execute();
  await db.schema.dropTable("dictionary_columns").execute();
  await db.schema.dropTable("dictionary_tables").execute();
  await db.schema.dropTable("dictionaries").execute();
  await db.schema.dropTable("applications").execute();
}
