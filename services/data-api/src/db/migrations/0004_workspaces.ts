import { sql, type Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code,
// so it keeps describing the schema as it was on that day.
//
// Workspaces: a migration project and an onboarding configuration ("audit project") are one row
// kind, `projects`, told apart by `product_type` (spec §4's product types). Everything that hangs
// off a project (access list, jobs, its own dictionary, its databases) serves both unchanged.
//
// Names stay unique per company *and kind* through the existing constraint
// projects_company_name_key (company_id, name_key), which SQLite cannot drop without rebuilding the
// table (and rebuilding `projects` with foreign keys on would cascade-delete its access lists and
// jobs). So instead of a new constraint, the application gives each kind its own key space:
// a migration project's name_key is the lower-cased name (as before), another kind's is its
// product type in capitals, a colon and the lower-cased name ("ONBOARDING:monthly payroll").
// Lower-casing can never produce capitals, so the two spaces cannot meet.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("projects").addColumn("product_type", "text", (col) => col.notNull().defaultTo("Migration")).execute();
  // 0/1: the company's default workspace of its kind (onboarding: its default configuration).
  await db.schema.alterTable("projects").addColumn("is_default", "integer", (col) => col.notNull().defaultTo(0)).execute();
  // At most one default per company and kind, whoever writes: moving it is clear-then-set in one transaction.
  await db.schema
    .createIndex("projects_one_default")
    .on("projects")
    .columns(["company_id", "product_type"])
    .unique()
    .where(sql.ref("is_default"), "=", 1)
    .execute();

  // The schemes a configuration serves, in the order chosen. The client portal owns the schemes
  // (a company's admin data sources); the name is kept as it was when chosen, so reading a
  // configuration never needs the client portal.
  await db.schema
    .createTable("workspace_schemes")
    .addColumn("workspace_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("scheme_id", "text", (col) => col.notNull())
    .addColumn("scheme_name", "text", (col) => col.notNull())
    .addColumn("position", "integer", (col) => col.notNull())
    .addPrimaryKeyConstraint("workspace_schemes_pk", ["workspace_id", "scheme_id"])
    .execute();

  // Migration 0001 read "admin data sources" as where project databases live; they are the
  // client's schemes, kept by the client portal now. Nothing refers to this table.
  await db.schema.dropTable("admin_data_sources").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("admin_data_sources")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("company_id", "text", (col) => col.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("engine", "text", (col) => col.notNull())
    .addColumn("description", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addUniqueConstraint("admin_data_sources_company_name_key", ["company_id", "name"])
    .execute();
  await db.schema.dropTable("workspace_schemes").execute();
  await db.schema.dropIndex("projects_one_default").execute();
  await db.schema.alterTable("projects").dropColumn("is_default").execute();
  await db.schema.alterTable("projects").dropColumn("product_type").execute();
}
