import { sql, type Kysely } from "kysely";
import { staleSaveMessage, type LastChange } from "../../../../contracts/values/common.ts";
import { ConflictError } from "../api-problem.ts";
import type { Database } from "../db/schema.ts";

/**
 * A stale save's refusal says who made the version that is there now (contracts' staleSaveMessage):
 * the caller's own other tab, with when, or someone else. Every versioned row that records its last
 * change (updated_by, updated_at) is asked the same way, here.
 */

/** Who last changed a row, as its columns hold it; updated_by is null where no user did (a job, the system). */
type LastChangeColumns = { updated_by: string | null; updated_at: string };

/** The tables whose rows record their last change. */
export type ChangeRecordingTable = { [T in keyof Database]: Database[T] extends LastChangeColumns ? T : never }[keyof Database];

/** One row of such a table: its table, the column that identifies it and its value there. */
export type RecordedRow<T extends ChangeRecordingTable> = { table: T; key: keyof Database[T] & string; id: string };

/** A row's last change as a stale save's message tells it to `userId`: theirs (another tab) or someone else's, which a change by no user always is. */
export const lastChangeOf = (row: LastChangeColumns | undefined, userId: string): LastChange | null =>
  row ? { byCaller: row.updated_by !== null && row.updated_by === userId, at: row.updated_at } : null;

/**
 * The refusal (409 conflict) of `userId`'s write based on a version of `row` that moved on, naming
 * `what` ("this template"), then saying `then` (what was not done). Read in the caller's transaction, after its version
 * check failed: the row is as the write that won left it (or gone, which reads as someone else).
 */
export async function staleSave<T extends ChangeRecordingTable>(
  db: Kysely<Database>,
  row: RecordedRow<T>,
  userId: string,
  what: string,
  then?: string,
): Promise<ConflictError> {
  // Raw SQL because Kysely's builder cannot type a table chosen by a type parameter; the table and key are checked above.
  const { rows } = await sql<LastChangeColumns>`select updated_by, updated_at from ${sql.table(row.table)} where ${sql.ref(row.key)} = ${row.id}`.execute(db);
  return new ConflictError(staleSaveMessage(what, lastChangeOf(rows[0], userId), then));
}
