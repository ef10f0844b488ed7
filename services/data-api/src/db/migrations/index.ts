import type { Migration } from "kysely";
import * as m0001 from "./0001_initial.ts";

/** Every migration by its sortable name. Append only; never rename or edit a shipped one. */
export const migrations: Record<string, Migration> = {
  "0001_initial": m0001,
};
