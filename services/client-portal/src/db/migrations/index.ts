import type { Kysely, Migration } from "kysely";
import { migrateToLatest } from "../../../../shared/migrate.ts";
import * as m0001 from "./0001_initial.ts";
import * as m0002 from "./0002_admin_data_sources.ts";

export const migrations: Record<string, Migration> = {
  "0001_initial": m0001,
  "0002_admin_data_sources": m0002,
};

export function migrate(db: Kysely<any>) {
  return migrateToLatest(db, migrations);
}
