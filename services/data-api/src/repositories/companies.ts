import { sql, type Kysely } from "kysely";
import type { Company } from "../../../../contracts/data-api.ts";
import { scopeIsEmpty, type CompanyScope } from "../company-scope.ts";
import type { Database } from "../db/schema.ts";
import { compiledByShape } from "./db-helpers.ts";

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

/** Every guarded request looks its company up (access.ts requireCompany): compiled once, not per call. */
export async function findCompany(db: Kysely<Database>, id: string): Promise<Company | undefined> {
  return (await companyById(db, {}, { id }))[0];
}

const companyById = compiledByShape((db: Kysely<Database>, _shape: Record<string, never>, param) =>
  db.selectFrom("companies").select(["id", "name"]).where("id", "=", param("id")),
);

/** Inserts the company unless one with this id exists (the seed runs at every demo start). */
export async function insertCompanyIfMissing(db: Kysely<Database>, company: Company, now = new Date()) {
  await db
    .insertInto("companies")
    .values({ id: company.id, name: company.name, created_at: now.toISOString() })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
}
