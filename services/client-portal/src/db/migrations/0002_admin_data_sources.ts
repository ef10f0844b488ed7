import type { Kysely } from "kysely";

// Frozen: never edit after release; add a new migration instead.
//
// A company's admin data sources: its schemes, whose deliveries the data API's onboarding
// configurations take in. Companies themselves live in the data API; company_id is the shared id.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("admin_data_sources")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("company_id", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    // Also the index for "a company's data sources" (company_id leads).
    .addUniqueConstraint("admin_data_sources_company_name", ["company_id", "name"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("admin_data_sources").execute();
}
