import type { Kysely } from "kysely";
import { DEFAULT_BRAND_NAME } from "../../../contracts/client-portal.ts";
import { DEMO_ADMIN_DATA_SOURCES, DEMO_PASSWORD, demoUsers } from "../../../scripts/demo-data.ts";
import { insertAdminDataSourceIfMissing } from "./db/admin-data-sources.ts";
import type { Database } from "./db/schema.ts";
import { normaliseEmail } from "./db/users.ts";
import { hashPassword } from "./passwords.ts";

/**
 * Inserts the demo users (password DEMO_PASSWORD), their permissions, a default branding row and
 * the demo companies' admin data sources (their schemes). Idempotent: a user that exists (by id or
 * email) is left exactly as it is, also its permissions, so a demo user changed by hand keeps the
 * change across restarts; so is a data source (by id, or by name in its company).
 */
export async function seedDemo(db: Kysely<Database>, translationAnalystRole: string): Promise<{ usersCreated: number }> {
  const now = new Date().toISOString();
  let usersCreated = 0;

  for (const user of demoUsers(translationAnalystRole)) {
    const email = normaliseEmail(user.email);
    const existing = await db
      .selectFrom("users")
      .select("id")
      .where((eb) => eb.or([eb("id", "=", user.id), eb("email", "=", email)]))
      .executeTakeFirst();
    if (existing) continue;

    const passwordHash = await hashPassword(DEMO_PASSWORD);
    await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto("users")
        .values({ id: user.id, email, name: user.name, password_hash: passwordHash, roles: user.roles, created_at: now })
        // Another process seeding at the same moment got there first: leave its row alone.
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return;
      usersCreated++;
      if (user.permissions.length) {
        await trx
          .insertInto("permissions")
          .values(user.permissions.map((p) => ({ user_id: user.id, company_id: p.companyId, product_role_name: p.productRoleName })))
          .execute();
      }
    });
  }

  await db
    .insertInto("branding")
    .values({ id: 1, logo_url: null, name: DEFAULT_BRAND_NAME, terms_and_conditions: null, updated_at: now })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();

  for (const source of DEMO_ADMIN_DATA_SOURCES) await insertAdminDataSourceIfMissing(db, source);

  return { usersCreated };
}
