import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// Runs of a workspace's templates (issue 11):
// - `runs`: one per run (Full or Test), its job, its result status, what it ran (scope, as JSON) and
//   `rerun_of` (the run a "Rerun from the failed step" continues).
// - `run_steps`: each script of the run in order, pinned to the version it ran (its SQL as run), with
//   its status, rows affected, duration, notices (JSON) and error with its line.
// - `run_table_counts`: rows per destination table before and after the run (a Test run: what it would have left).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("runs")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("project_id", "text", (col) => col.notNull().references("projects.id").onDelete("cascade"))
    .addColumn("job_id", "text")
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("on_error", "text", (col) => col.notNull())
    .addColumn("scope", "text", (col) => col.notNull())
    .addColumn("rerun_of", "text")
    .addColumn("message", "text")
    .addColumn("created_by", "text", (col) => col.notNull())
    .addColumn("created_by_name", "text")
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("finished_at", "text")
    .execute();
  await db.schema.createIndex("runs_project_idx").on("runs").columns(["project_id", "created_at"]).execute();
  await db.schema
    .createTable("run_steps")
    .addColumn("run_id", "text", (col) => col.notNull().references("runs.id").onDelete("cascade"))
    .addColumn("position", "integer", (col) => col.notNull())
    .addColumn("template_name", "text", (col) => col.notNull())
    .addColumn("level_name", "text", (col) => col.notNull())
    .addColumn("script_id", "text", (col) => col.notNull())
    .addColumn("script_name", "text", (col) => col.notNull())
    .addColumn("script_version", "integer", (col) => col.notNull())
    .addColumn("sql", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("rows_affected", "bigint")
    .addColumn("started_at", "text")
    .addColumn("finished_at", "text")
    .addColumn("duration_ms", "integer")
    .addColumn("notices", "text", (col) => col.notNull().defaultTo("[]"))
    .addColumn("error", "text")
    .addColumn("error_line", "integer")
    .addPrimaryKeyConstraint("run_steps_pk", ["run_id", "position"])
    .execute();
  await db.schema
    .createTable("run_table_counts")
    .addColumn("run_id", "text", (col) => col.notNull().references("runs.id").onDelete("cascade"))
    .addColumn("table_name", "text", (col) => col.notNull())
    .addColumn("rows_before", "bigint")
    .addColumn("rows", "bigint", (col) => col.notNull())
    .addPrimaryKeyConstraint("run_table_counts_pk", ["run_id", "table_name"])
    .execute();
}
