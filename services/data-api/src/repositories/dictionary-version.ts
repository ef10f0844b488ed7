import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { staleSave } from "./stale-saves.ts";

/** What every versioned write carries: the version the client based it on, and who writes. */
export type VersionedWrite = { expectedVersion: number; userId: string; now?: Date };

/**
 * The compare-and-bump every write starts with, inside its transaction: moves the dictionary from
 * `expectedVersion` to the next one, or throws ConflictError when someone else moved it first (so
 * the transaction, and everything it wrote, rolls back). On PostgreSQL the updated row stays locked
 * until commit, so concurrent writers of one dictionary go one at a time.
 */
export async function bumpVersion(trx: Kysely<Database>, id: string, write: VersionedWrite): Promise<number> {
  const result = await trx
    .updateTable("dictionaries")
    .set((eb) => ({ version: eb("version", "+", 1), updated_at: (write.now ?? new Date()).toISOString(), updated_by: write.userId }))
    .where("id", "=", id)
    .where("version", "=", write.expectedVersion)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw await staleSave(trx, { table: "dictionaries", key: "id", id }, write.userId, "this dictionary");
  return write.expectedVersion + 1;
}
