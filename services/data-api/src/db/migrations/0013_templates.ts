import { sql, type Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// Templates, levels and scripts (issue 11):
// - `templates`: a master template of a company's area (project_id null), or a project's own
//   (project_id set: copied from a master, master_template_id and master_version say which and when,
//   or made in the project). `version` moves on with every change inside it (levels, scripts, saves).
//   `position` orders a project's templates (its run order).
// - `template_levels`, ordered in a template; `scripts`, ordered in a level, with their lock.
// - `script_versions`: every save, never changed; `scripts.version` is the newest's number.
// - `script_lock_events`: the lock audit (Locked, Unlocked, ForceUnlocked with its reason).
// Names are unique case-insensitively through `name_key`, as everywhere else.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("templates")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("company_id", "text", (col) => col.notNull().references("companies.id").onDelete("cascade"))
    .addColumn("area", "text", (col) => col.notNull())
    .addColumn("project_id", "text", (col) => col.references("projects.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("name_key", "text", (col) => col.notNull())
    .addColumn("description", "text")
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("version", "integer", (col) => col.notNull())
    .addColumn("master_template_id", "text")
    .addColumn("master_version", "integer")
    .addColumn("position", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("created_by", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .addColumn("updated_by", "text", (col) => col.notNull())
    .addColumn("updated_by_name", "text")
    .execute();
  await db.schema
    .createIndex("templates_master_name_key")
    .on("templates")
    .columns(["company_id", "area", "name_key"])
    .unique()
    .where(sql.ref("project_id"), "is", null)
    .execute();
  await db.schema
    .createIndex("templates_project_name_key")
    .on("templates")
    .columns(["project_id", "name_key"])
    .unique()
    .where(sql.ref("project_id"), "is not", null)
    .execute();

  await db.schema
    .createTable("template_levels")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("template_id", "text", (col) => col.notNull().references("templates.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("name_key", "text", (col) => col.notNull())
    .addColumn("position", "integer", (col) => col.notNull())
    .addUniqueConstraint("template_levels_template_name_key", ["template_id", "name_key"])
    .execute();

  await db.schema
    .createTable("scripts")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("template_id", "text", (col) => col.notNull().references("templates.id").onDelete("cascade"))
    .addColumn("level_id", "text", (col) => col.notNull().references("template_levels.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("name_key", "text", (col) => col.notNull())
    .addColumn("position", "integer", (col) => col.notNull())
    .addColumn("version", "integer", (col) => col.notNull())
    .addColumn("lock_state", "text", (col) => col.notNull())
    .addColumn("locked_by", "text")
    .addColumn("locked_by_name", "text")
    .addColumn("locked_at", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .addColumn("updated_by", "text", (col) => col.notNull())
    .addColumn("updated_by_name", "text")
    .addUniqueConstraint("scripts_level_name_key", ["level_id", "name_key"])
    .execute();
  await db.schema.createIndex("scripts_template_idx").on("scripts").column("template_id").execute();

  await db.schema
    .createTable("script_versions")
    .addColumn("script_id", "text", (col) => col.notNull().references("scripts.id").onDelete("cascade"))
    .addColumn("version", "integer", (col) => col.notNull())
    .addColumn("sql", "text", (col) => col.notNull())
    .addColumn("comment", "text")
    .addColumn("author", "text", (col) => col.notNull())
    .addColumn("author_name", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("script_versions_pk", ["script_id", "version"])
    .execute();

  await db.schema
    .createTable("script_lock_events")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("script_id", "text", (col) => col.notNull().references("scripts.id").onDelete("cascade"))
    .addColumn("state", "text", (col) => col.notNull())
    .addColumn("user_id", "text", (col) => col.notNull())
    .addColumn("user_name", "text")
    .addColumn("reason", "text")
    .addColumn("at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("script_lock_events_script_idx").on("script_lock_events").columns(["script_id", "at"]).execute();
}
