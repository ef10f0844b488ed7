import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code,
// so it keeps describing the schema as it was on that day.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("companies")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();

  await db.schema
    .createTable("admin_data_sources")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("company_id", "text", (col) => col.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("engine", "text", (col) => col.notNull())
    .addColumn("description", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    // Also the index for "a company's data sources" (company_id leads) and the seed's idempotency key.
    .addUniqueConstraint("admin_data_sources_company_name_key", ["company_id", "name"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("admin_data_sources").execute();
  await db.schema.dropTable("companies").execute();
}
