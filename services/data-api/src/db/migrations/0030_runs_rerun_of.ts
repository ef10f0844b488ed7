import type { Kysely } from "kysely";

// Frozen: once shipped, a migration never changes. It takes Kysely<any> and imports no app code.
//
// A run's details and progress say by which run it was rerun (rerunBy, since 63c2e24): the latest run
// whose rerun_of is this run and that ran a script. The run's page polls its progress every second
// while the run goes on, and a rerun's start reads the same, but rerun_of had no index (0014), so each
// read looked through all of the project's runs (runs_project_idx). The index finds a run's reruns
// newest first, so the read stops at the first that ran a script.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("runs_rerun_of_idx").on("runs").columns(["rerun_of", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("runs_rerun_of_idx").execute();
}
