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
//
// The credentials list (sorted by Who) and a workspace's SQL permissions list sorted by the name as
// written, in text order and, on SQLite, by case: "Paging svc 1, 10, 11, 2", and "alpha" after
// "Paging". Each credential now keeps name_sort too, the natural sort key 0026 gave the other named
// rows (db-helpers.ts's naturalSortKey; its rule as of this day is copied below), written with the
// name and filled here for every credential there is. A company has few credentials: no index.

function nameKey(name: string): string {
  return name.trim().toLowerCase();
}

function naturalSortKey(name: string): string {
  return nameKey(name).replace(/\d+/g, (run) => {
    const digits = run.replace(/^0+(?=\d)/, "");
    return String(digits.length).padStart(3, "0") + digits;
  });
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sql_credentials").addColumn("name_key", "text").execute();
  // SQLite adds a NOT NULL column only with a default; every row gets its key just below.
  await db.schema
    .alterTable("sql_credentials")
    .addColumn("name_sort", "text", (col) => col.notNull().defaultTo(""))
    .execute();
  const all: { id: string; name: string }[] = await db.selectFrom("sql_credentials").select(["id", "name"]).execute();
  for (const row of all)
    await db
      .updateTable("sql_credentials")
      .set({ name_sort: naturalSortKey(row.name) })
      .where("id", "=", row.id)
      .execute();
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
  await db.schema.alterTable("sql_credentials").dropColumn("name_sort").execute();
  await db.schema.alterTable("sql_credentials").dropColumn("name_key").execute();
}
