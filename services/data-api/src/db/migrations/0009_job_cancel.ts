import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// A running job can be cancelled: who asked, and when. The process running the job stops it at
// once when the request came to it, or within a second when it came to another process (it looks).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").addColumn("cancel_requested_by", "text").execute();
  await db.schema.alterTable("jobs").addColumn("cancel_requested_at", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").dropColumn("cancel_requested_at").execute();
  await db.schema.alterTable("jobs").dropColumn("cancel_requested_by").execute();
}
