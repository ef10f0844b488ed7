import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// The workspace lists open sorted by most recently updated (PROJECT_SORTS' default, "-updatedAt"):
// without an index in that order, every page of a company's list sorted all its projects of the
// kind to return 25. With it, a page reads its 25 rows in order and stops.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("projects_company_kind_updated").on("projects").columns(["company_id", "product_type", "updated_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("projects_company_kind_updated").execute();
}
