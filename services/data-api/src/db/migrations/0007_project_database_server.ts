import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// Project databases move from SQLite files under DATA_DIR/projects to PostgreSQL (ARCHITECTURE.md
// §3a): each project records the server that holds its database (host:port of one of
// PROJECT_DATABASES_URL, or the embedded one), null until its databases are created. The SQLite
// files held no user data yet (nothing could be loaded): a project whose databases were created
// before this change goes back to the step that creates them.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("projects").addColumn("database_server", "text").execute();
  await db
    .updateTable("projects")
    .set({ status: "DatabaseCreationFailed" })
    .where("status", "in", ["SetupRestoreDatabaseIncomplete", "SetupUploadTypeIncomplete", "SetupAssignTemplatesIncomplete", "Active", "Inactive", "Completed"])
    .where("is_locked", "=", 0)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("projects").dropColumn("database_server").execute();
}
