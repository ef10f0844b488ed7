import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// A workspace (a projects row of any kind) records who made its current version, as dictionaries,
// templates and value maps do, so that a stale save of its details can say "You changed this project
// in another tab or window" to the user who did. Null where no user did: a job's lock taken or
// released, the system, and every row changed before this migration (who did is not known).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("projects").addColumn("updated_by", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("projects").dropColumn("updated_by").execute();
}
