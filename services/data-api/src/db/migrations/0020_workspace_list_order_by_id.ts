import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// A workspace list is ordered by its sort column and then by id, so that rows updated in the same
// instant keep one order from page to page. 0006's index stopped at updated_at: each page still
// sorted its rows by id (SQLite's "temp b-tree for the last term of ORDER BY"), some 40 % of the
// query's time for a page of 25. With id in the index the rows are read in their final order.
// It replaces 0006's index, which is a prefix of it.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("projects_company_kind_updated_id").on("projects").columns(["company_id", "product_type", "updated_at", "id"]).execute();
  await db.schema.dropIndex("projects_company_kind_updated").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("projects_company_kind_updated").on("projects").columns(["company_id", "product_type", "updated_at"]).execute();
  await db.schema.dropIndex("projects_company_kind_updated_id").execute();
}
