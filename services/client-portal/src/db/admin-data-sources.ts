import { sql, type Kysely } from "kysely";
import type { AdminDataSource } from "../../../../contracts/client-portal.ts";
import type { Database } from "./schema.ts";

/** A company's admin data sources (its schemes), by name: case-insensitive first, then exact, then id. */
export function listAdminDataSources(db: Kysely<Database>, companyId: string): Promise<AdminDataSource[]> {
  return db
    .selectFrom("admin_data_sources")
    .select(["id", "company_id as companyId", "name", "description"])
    .where("company_id", "=", companyId)
    .orderBy(sql`lower(name)`)
    .orderBy("name")
    .orderBy("id")
    .execute();
}

/** Inserts the data source unless its id, or its name in that company, is there already (the seed runs at every start). */
export async function insertAdminDataSourceIfMissing(db: Kysely<Database>, source: AdminDataSource, now = new Date()) {
  await db
    .insertInto("admin_data_sources")
    .values({ id: source.id, company_id: source.companyId, name: source.name, description: source.description, created_at: now.toISOString() })
    .onConflict((oc) => oc.doNothing())
    .execute();
}
