import { sql, type Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code,
// so it keeps describing the schema as it was on that day. Portable types only (text ids, ISO-8601
// text timestamps, integer 0/1 flags) so SQLite and PostgreSQL behave the same.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("projects")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("company_id", "text", (col) => col.notNull().references("companies.id").onDelete("cascade"))
    // No cascade: an application with projects cannot disappear from under them.
    .addColumn("application_id", "text", (col) => col.notNull().references("applications.id"))
    .addColumn("name", "text", (col) => col.notNull())
    // The lower-cased (trimmed) name: what "unique per company" compares, the same on both engines.
    .addColumn("name_key", "text", (col) => col.notNull())
    .addColumn("description", "text")
    .addColumn("source_type", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("is_locked", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("lock_reason", "text")
    .addColumn("lock_state", "text", (col) => col.notNull().defaultTo("Unlocked"))
    // The job holding the lock: only that job's end (or the restart recovery) releases it, so a
    // force-unlock followed by a new job is never undone by the old job finishing late.
    .addColumn("lock_job_id", "text")
    .addColumn("current_backup_name", "text")
    .addColumn("upload_type", "text")
    .addColumn("flat_file_parameters", "text")
    .addColumn("source_dictionary_id", "text", (col) => col.references("dictionaries.id").onDelete("set null"))
    .addColumn("version", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("updated_at", "text", (col) => col.notNull())
    .addColumn("created_by", "text", (col) => col.notNull())
    // Also the index for "a company's projects" (company_id leads).
    .addUniqueConstraint("projects_company_name_key", ["company_id", "name_key"])
    .execute();
  await db.schema.createIndex("projects_application_id").on("projects").column("application_id").execute();

  await db.schema
    .createTable("project_users")
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("user_id", "text", (col) => col.notNull())
    .addColumn("can_read", "integer", (col) => col.notNull())
    .addColumn("can_write", "integer", (col) => col.notNull())
    .addColumn("granted_at", "text", (col) => col.notNull())
    .addColumn("granted_by", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("project_users_pk", ["project_id", "user_id"])
    // Write implies read, whatever a caller sends.
    .addCheckConstraint("project_users_write_implies_read", sql`can_write = 0 or can_read = 1`)
    .execute();

  await db.schema
    .createTable("jobs")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("progress", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("error", "text")
    // The project's status when the job took the lock: kinds whose failure restores it read it here.
    .addColumn("previous_status", "text", (col) => col.notNull())
    .addColumn("created_by", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("started_at", "text")
    .addColumn("finished_at", "text")
    .addColumn("heartbeat_at", "text")
    .execute();
  await db.schema.createIndex("jobs_project_created").on("jobs").columns(["project_id", "created_at"]).execute();
  // The restart recovery looks for running jobs.
  await db.schema.createIndex("jobs_status").on("jobs").column("status").execute();

  await db.schema
    .createTable("job_steps")
    .addColumn("job_id", "text", (col) => col.notNull().references("jobs.id").onDelete("cascade"))
    .addColumn("position", "integer", (col) => col.notNull())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("started_at", "text")
    .addColumn("finished_at", "text")
    .addColumn("message", "text")
    .addPrimaryKeyConstraint("job_steps_pk", ["job_id", "position"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("job_steps").execute();
  await db.schema.dropTable("jobs").execute();
  await db.schema.dropTable("project_users").execute();
  await db.schema.dropTable("projects").execute();
}
