import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// Applications sorted by their lower-cased name (name_key) as text: "Bulk app 12, 11, 10, 1" where a
// user reads 1, 2, … 10. Each now keeps name_sort beside it, the key of natural order, written with
// the name (db-helpers.ts's naturalSortKey; its rule as of this day is copied below) and filled here
// for the applications there are, with an index for the company's list in that order.

function naturalSortKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/\d+/g, (run) => {
      const digits = run.replace(/^0+(?=\d)/, "");
      return String(digits.length).padStart(3, "0") + digits;
    });
}

export async function up(db: Kysely<any>): Promise<void> {
  // SQLite adds a NOT NULL column only with a default; every row gets its key just below.
  await db.schema
    .alterTable("applications")
    .addColumn("name_sort", "text", (col) => col.notNull().defaultTo(""))
    .execute();
  const rows: { id: string; name: string }[] = await db.selectFrom("applications").select(["id", "name"]).execute();
  for (const row of rows)
    await db
      .updateTable("applications")
      .set({ name_sort: naturalSortKey(row.name) })
      .where("id", "=", row.id)
      .execute();
  await db.schema.createIndex("applications_company_name_sort").on("applications").columns(["company_id", "name_sort"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("applications_company_name_sort").execute();
  await db.schema.alterTable("applications").dropColumn("name_sort").execute();
}
