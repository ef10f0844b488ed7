import type { Kysely, Migration } from "kysely";
import { migrateToLatest } from "../../../../shared/migrate.ts";
import * as m0001 from "./0001_initial.ts";

export const migrations: Record<string, Migration> = {
  "0001_initial": m0001,
};

export function migrate(db: Kysely<any>) {
  return migrateToLatest(db, migrations);
}
