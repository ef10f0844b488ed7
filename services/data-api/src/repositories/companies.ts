import { sql, type Kysely } from "kysely";
import type { AdminDataSource, Company } from "../../../../contracts/data-api.ts";
import { scopeIsEmpty, type CompanyScope } from "../company-scope.ts";
import type { Database, DataSourceEngine } from "../db/schema.ts";

/**
 * The companies in `scope`, sorted by name in SQL. Case-insensitive first so that "acme" and
 * "Acme" sit together on both engines; name and id break ties so the order is stable.
 */
export async function listCompanies(db: Kysely<Database>, scope: CompanyScope): Promise<Company[]> {
  if (scopeIsEmpty(scope)) return [];
  let query = db.selectFrom("companies").select(["id", "name"]);
  if (!scope.all) query = query.where("id", "in", scope.companyIds);
  return query.orderBy(sql`lower(name)`).orderBy("name").orderBy("id").execute();
}

export async function findCompany(db: Kysely<Database>, id: string): Promise<Company | undefined> {
  return db.selectFrom("companies").select(["id", "name"]).where("id", "=", id).executeTakeFirst();
}

export async function listAdminDataSources(db: Kysely<Database>, companyId: string): Promise<AdminDataSource[]> {
  return db
    .selectFrom("admin_data_sources")
    .select(["id", "company_id as companyId", "name", "engine", "description"])
    .where("company_id", "=", companyId)
    .orderBy(sql`lower(name)`)
    .orderBy("id")
    .execute();
}

/** Inserts the company unless one with this id exists (the seed runs at every demo start). */
export async function insertCompanyIfMissing(db: Kysely<Database>, company: Company, now = new Date()) {
  await db
    .insertInto("companies")
    .values({ id: company.id, name: company.name, created_at: now.toISOString() })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
}

export type NewAdminDataSource = {
  id: string;
  companyId: string;
  name: string;
  engine: DataSourceEngine;
  description: string | null;
};

/** Inserts the data source unless the company already has one of that name. */
export async function insertAdminDataSourceIfMissing(db: Kysely<Database>, source: NewAdminDataSource, now = new Date()) {
  await db
    .insertInto("admin_data_sources")
    .values({
      id: source.id,
      company_id: source.companyId,
      name: source.name,
      engine: source.engine,
      description: source.description,
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.columns(["company_id", "name"]).doNothing())
    .execute();
}
