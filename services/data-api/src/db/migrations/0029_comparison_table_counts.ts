import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// A comparison's page showed all of its tables at once, each with its samples: a project of a few
// hundred tables made a page of megabytes (issue 8). Its tables are now paged in SQL, under a summary
// (tables compared, tables that differ, rows added, removed and changed in all) summed in SQL and
// filtered to the tables that differ: each row of comparison_tables keeps its counts beside its JSON
// result (`column_changes`: how many columns were added, removed or retyped), written with the result
// and filled here from the JSON of the rows there are, a batch at a time (keyset on the primary key).
// One index in the page's order holds the counts, so the summary and the filter read the index alone,
// never the results' JSON, and a page reads the JSON of its own rows only.

const BATCH = 200;

type Stored = { added?: number; removed?: number; changed?: number; columnChanges?: unknown[] };

export async function up(db: Kysely<any>): Promise<void> {
  // SQLite adds a NOT NULL column only with a default; every row gets its counts just below.
  for (const column of ["added", "removed", "changed"])
    await db.schema
      .alterTable("comparison_tables")
      .addColumn(column, "bigint", (col) => col.notNull().defaultTo(0))
      .execute();
  await db.schema
    .alterTable("comparison_tables")
    .addColumn("column_changes", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  let after: { load_id: string; table_name: string } | null = null;
  for (;;) {
    let query = db.selectFrom("comparison_tables").select(["load_id", "table_name", "result"]);
    if (after) {
      const last: { load_id: string; table_name: string } = after;
      query = query.where((eb) =>
        eb.or([eb("load_id", ">", last.load_id), eb.and([eb("load_id", "=", last.load_id), eb("table_name", ">", last.table_name)])]),
      );
    }
    const rows: { load_id: string; table_name: string; result: string }[] = await query.orderBy("load_id").orderBy("table_name").limit(BATCH).execute();
    for (const row of rows) {
      const stored = JSON.parse(row.result) as Stored;
      await db
        .updateTable("comparison_tables")
        .set({
          added: stored.added ?? 0,
          removed: stored.removed ?? 0,
          changed: stored.changed ?? 0,
          // Stored before columnChanges was recorded: none said.
          column_changes: stored.columnChanges?.length ?? 0,
        })
        .where("load_id", "=", row.load_id)
        .where("table_name", "=", row.table_name)
        .execute();
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!;
  }
  await db.schema
    .createIndex("comparison_tables_load_position")
    .on("comparison_tables")
    .columns(["load_id", "position", "added", "removed", "changed", "column_changes"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("comparison_tables_load_position").execute();
  for (const column of ["column_changes", "changed", "removed", "added"]) await db.schema.alterTable("comparison_tables").dropColumn(column).execute();
}
