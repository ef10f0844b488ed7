import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// The start's pass that shares what SQL credentials' logins made before the project shared it
// (share-login-tables.ts, decision 022) walked every granted workspace at every start. A row here says
// the pass is done for that workspace's database, so later starts skip it; a workspace whose pass
// failed has none and is tried again at the next start.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("sql_login_tables_shared")
    .addColumn("project_id", "text", (col) => col.primaryKey().references("projects.id").onDelete("cascade"))
    .addColumn("shared_at", "text", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("sql_login_tables_shared").execute();
}
