import type { Kysely } from "kysely";
import { DEMO_COMPANIES } from "../../../scripts/demo-data.ts";
import type { Database } from "./db/schema.ts";
import { insertCompanyIfMissing } from "./repositories/companies.ts";

/**
 * The demo tenant (SEED_DEMO=true, as `npm start` sets it; never in a production start). The
 * companies keep the fixed ids the client portal's permissions and admin data sources use, and go
 * in in their given order (not alphabetical), so the API's own sorting is what users see. Safe to
 * run at every start.
 */
export async function seedDemo(db: Kysely<Database>) {
  await db.transaction().execute(async (trx) => {
    for (const company of DEMO_COMPANIES) await insertCompanyIfMissing(trx, company);
  });
}
