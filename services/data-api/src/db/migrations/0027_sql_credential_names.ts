import { sql, type Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// A company's SQL credentials for services have names unique case-insensitively among those not
// revoked (a revoked one's name is free for its replacement); a credential for a user is named
// after the user and is no matter. The data API checked it in code only, so two creates at the same
// instant on PostgreSQL could both pass. Each credential now keeps `name_key` (the lower-cased,
// trimmed name, as the codebase's other names; computed in code, since SQLite's lower() folds ASCII
// only), null for a user's, and a partial unique index on (company_id, name_key) where not revoked
// holds the rule on both engines. Credentials made before the check (commit 5563305) may share a
// name: of a company's not-revoked service credentials of one name, the oldest keeps its key and
// the later ones keep null (still listed and working, as before; the data API's check still reads
// their names, so none of that name is made again until they are all revoked).

function nameKey(name: string): string {
  return name.trim().toLowerCase();
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sql_credentials").addColumn("name_key", "text").execute();
  const rows: { id: string; company_id: string; name: string; revoked_at: string | null }[] = await db
    .selectFrom("sql_credentials")
    .select(["id", "company_id", "name", "revoked_at"])
    .where("user_id", "is", null)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  const held = new Set<string>();
  for (const row of rows) {
    const key = nameKey(row.name);
    const holder = `${row.company_id}\u0000${key}`;
    if (!row.revoked_at && held.has(holder)) continue;
    if (!row.revoked_at) held.add(holder);
    await db.updateTable("sql_credentials").set({ name_key: key }).where("id", "=", row.id).execute();
  }
  await db.schema
    .createIndex("sql_credentials_company_service_name")
    .on("sql_credentials")
    .columns(["company_id", "name_key"])
    .unique()
    .where(sql.ref("revoked_at"), "is", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("sql_credentials_company_service_name").execute();
  await db.schema.alterTable("sql_credentials").dropColumn("name_key").execute();
}
