import type { Kysely } from "kysely";
import { DEFAULT_BRAND_NAME, type Branding } from "../../../../contracts/client-portal.ts";
import type { Database } from "./schema.ts";

export const DEFAULT_BRANDING: Branding = { logoUrl: null, name: DEFAULT_BRAND_NAME, termsAndConditions: null };

/** The tenant branding; a tenant that never set one gets the generic name and no logo (spec §1). */
export async function getBranding(db: Kysely<Database>): Promise<Branding> {
  const row = await db
    .selectFrom("branding")
    .select(["logo_url", "name", "terms_and_conditions"])
    .where("id", "=", 1)
    .executeTakeFirst();
  if (!row) return DEFAULT_BRANDING;
  return { logoUrl: row.logo_url, name: row.name || DEFAULT_BRAND_NAME, termsAndConditions: row.terms_and_conditions };
}
