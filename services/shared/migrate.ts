import { Migrator, type Kysely, type Migration } from "kysely";

/**
 * Runs a service's frozen, in-code migrations to the latest version. Migrations are keyed by a
 * sortable name (`0001_initial`), take `Kysely<any>` and never import application code.
 */
export async function migrateToLatest(db: Kysely<any>, migrations: Record<string, Migration>) {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ""} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return results ?? [];
}
