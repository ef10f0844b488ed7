import type { Kysely } from "kysely";
import { migrateToLatest } from "../../../shared/migrate.ts";
import { migrations } from "./migrations/index.ts";
import type { Database } from "./schema.ts";

/** Brings the control-plane database to the latest schema; safe to run at every start. */
export function migrateDatabase(db: Kysely<Database>) {
  return migrateToLatest(db, migrations);
}
