import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// SQL access (issue 13). A SQL credential is a PostgreSQL login (`login`) on the servers that hold
// project databases, of one company, for a person of the client portal (`user_id`) or a named
// service. Its password is never stored: PostgreSQL keeps its SCRAM verifier. `sql_permissions`
// says which workspaces' databases it reaches and how (read: the project's reader role, write: its
// writer role). `audit_log` is append-only: every change a SuperAdmin or a project's writer makes to
// SQL access, with its reason, and later every other write of the data API.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("sql_credentials")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("company_id", "text", (col) => col.notNull().references("companies.id"))
    .addColumn("login", "text", (col) => col.notNull().unique())
    .addColumn("user_id", "text")
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("note", "text")
    .addColumn("expires_on", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("created_by", "text", (col) => col.notNull())
    .addColumn("password_set_at", "text", (col) => col.notNull())
    .addColumn("last_used_at", "text")
    .addColumn("revoked_at", "text")
    .addColumn("revoked_by", "text")
    .execute();
  await db.schema.createIndex("sql_credentials_company_idx").on("sql_credentials").columns(["company_id", "created_at"]).execute();

  await db.schema
    .createTable("sql_permissions")
    .addColumn("credential_id", "text", (col) => col.notNull().references("sql_credentials.id").onDelete("cascade"))
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("level", "text", (col) => col.notNull())
    .addColumn("granted_at", "text", (col) => col.notNull())
    .addColumn("granted_by", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("sql_permissions_pk", ["credential_id", "project_id"])
    .execute();
  await db.schema.createIndex("sql_permissions_project_idx").on("sql_permissions").column("project_id").execute();

  await db.schema
    .createTable("audit_log")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("at", "text", (col) => col.notNull())
    .addColumn("company_id", "text")
    .addColumn("workspace_id", "text")
    .addColumn("user_id", "text", (col) => col.notNull())
    .addColumn("user_name", "text")
    .addColumn("action", "text", (col) => col.notNull())
    .addColumn("target", "text", (col) => col.notNull())
    .addColumn("summary", "text", (col) => col.notNull())
    .addColumn("reason", "text")
    .execute();
  await db.schema.createIndex("audit_log_at_idx").on("audit_log").columns(["at", "id"]).execute();
  await db.schema.createIndex("audit_log_company_idx").on("audit_log").columns(["company_id", "at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("audit_log").execute();
  await db.schema.dropTable("sql_permissions").execute();
  await db.schema.dropTable("sql_credentials").execute();
}
