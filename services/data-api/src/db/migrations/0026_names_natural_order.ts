import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// 0025 gave applications their natural sort key; the other lists sorted by name still compared the
// lower-cased name (name_key) as text, "Paging 1, 10, 11, 12, 2": master dictionaries, workspaces
// (projects, configurations, mapping projects) and templates. Each of those rows now keeps name_sort
// too, written with the name (db-helpers.ts's naturalSortKey; its rule as of this day is copied
// below) and filled here for the rows there are. The workspace lists, a company's and large, get an
// index in that order (ties by name as written, then id), so a page sorted by name reads its rows in
// order as 0020's does by date; a company's master dictionaries and an area's templates are few.

function naturalSortKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/\d+/g, (run) => {
      const digits = run.replace(/^0+(?=\d)/, "");
      return String(digits.length).padStart(3, "0") + digits;
    });
}

const TABLES = ["dictionaries", "projects", "templates"] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of TABLES) {
    // SQLite adds a NOT NULL column only with a default; every row gets its key just below.
    await db.schema
      .alterTable(table)
      .addColumn("name_sort", "text", (col) => col.notNull().defaultTo(""))
      .execute();
    const rows: { id: string; name: string }[] = await db.selectFrom(table).select(["id", "name"]).execute();
    for (const row of rows)
      await db
        .updateTable(table)
        .set({ name_sort: naturalSortKey(row.name) })
        .where("id", "=", row.id)
        .execute();
  }
  await db.schema.createIndex("projects_company_kind_name_sort").on("projects").columns(["company_id", "product_type", "name_sort", "name", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("projects_company_kind_name_sort").execute();
  for (const table of TABLES) await db.schema.alterTable(table).dropColumn("name_sort").execute();
}
