import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// A project's access list is paged with the latest grant first and the user id for ties (granted_at
// desc, user_id). Only the primary key (project_id, user_id) served it, so every page sorted all of
// the project's grants to return 25. The index holds the rows in the page's own order, granted_at
// descending, so a page reads its rows in order and stops (on SQLite with no sort at all, where an
// index ascending on granted_at still sorted each page's ties by user id).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("project_users_project_granted").on("project_users").columns(["project_id", "granted_at desc", "user_id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("project_users_project_granted").execute();
}
