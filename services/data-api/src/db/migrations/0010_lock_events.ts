import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// A force-unlock (SuperAdmin or Support) is recorded with who, when, why and the job it stopped:
// append-only, never updated (the audit log of a later release reads it).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("lock_events")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("job_id", "text")
    .addColumn("action", "text", (col) => col.notNull())
    .addColumn("lock_reason", "text")
    .addColumn("reason", "text", (col) => col.notNull())
    .addColumn("user_id", "text", (col) => col.notNull())
    .addColumn("at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("lock_events_project_idx").on("lock_events").columns(["project_id", "at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("lock_events").execute();
}
