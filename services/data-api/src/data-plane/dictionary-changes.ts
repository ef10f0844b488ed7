/**
 * A write to a workspace's own dictionary once its databases exist (decision 017): the dictionary
 * and the databases change together or not at all.
 *
 * 1. Rehearsal: the edit runs in a control-plane transaction that is rolled back, giving the
 *    dictionary it would make; that is compared with the databases (schema-sync.ts) and what it
 *    would lose measured. An edit the databases need not follow (a description, the order of
 *    columns) is then simply written; one they cannot follow, or that loses data unconfirmed, is
 *    refused here, before any lock or job.
 * 2. The change, as a job (kind SchemaChange, lock reason DatabaseCreation: a load and a schema
 *    change never overlap) that the request waits for: in one control-plane transaction the edit is
 *    written again and the databases made to follow it in one transaction of their own (measured
 *    again under the lock: a load may have come in between), which commits first; a failure of
 *    either rolls both back and the request answers why (409).
 *
 * The rehearsal and the write do the same thing: every edit is based on the dictionary's version,
 * so the second either makes the same dictionary or is refused as stale.
 */
import type { Kysely } from "kysely";
import type { WorkspaceKind } from "../../../../contracts/workspaces.ts";
import { VALUE_MAP_LOSS_CODE } from "../../../../contracts/values/dictionary.ts";
import { ApiProblem } from "../api-problem.ts";
import type { Database } from "../db/schema.ts";
import { JobCancelledError, JobRefusedError, runJob, type JobDeps } from "../jobs/start-job.ts";
import { inTransaction } from "../repositories/db-helpers.ts";
import { readTables } from "../repositories/dictionary-tables.ts";
import { columnsWithValues } from "../repositories/value-maps.ts";
import type { WorkspaceRow } from "../repositories/workspaces.ts";
import { dateOrderOf } from "../repositories/projects.ts";
import { followDictionary, refuseUnlessConfirmed, type WantedTable } from "./schema-sync.ts";
import type { DataPlane } from "./servers.ts";

/** One write of a dictionary, in the transaction it is given (the repositories' writes compose into it). */
export type DictionaryEdit = (db: Kysely<Database>) => Promise<unknown>;

export const SCHEMA_CHANGE_STEP = "Change the source and destination databases";

/** Whether the workspace's databases exist: made (a server recorded) and not a failed or running creation. */
export function hasDatabases(
  workspace: Pick<WorkspaceRow, "database_server" | "status">,
): workspace is Pick<WorkspaceRow, "status"> & { database_server: string } {
  return workspace.database_server !== null && workspace.status !== "DatabaseCreation" && workspace.status !== "DatabaseCreationFailed";
}

export type DictionaryChange = {
  kind: WorkspaceKind;
  workspace: WorkspaceRow;
  dictionaryId: string;
  userId: string;
  /** The request confirms that the change may delete the data a refusal listed. */
  confirmDataLoss: boolean;
  edit: DictionaryEdit;
};

/** Writes `edit` to the workspace's dictionary, and its databases follow when they exist (see above). */
export async function changeWorkspaceDictionary(deps: JobDeps & { dataPlane: DataPlane }, change: DictionaryChange): Promise<void> {
  const { db, dataPlane } = deps;
  const { workspace, dictionaryId, edit, confirmDataLoss } = change;
  if (!hasDatabases(workspace)) {
    if (!confirmDataLoss) await refuseLosingValueMaps(db, dictionaryId, edit);
    await edit(db);
    return;
  }
  const serverId = workspace.database_server;
  // Text becoming a date is read as the workspace's loads read dates.
  const dateOrder = dateOrderOf(workspace);
  const rehearsed = await rehearse(db, (trx) => editedTables(trx, dictionaryId, edit));
  const report = await followDictionary(dataPlane, serverId, workspace.id, rehearsed, { apply: false, confirmDataLoss, dateOrder });
  if (report.statements.length === 0) {
    await edit(db);
    return;
  }
  refuseUnlessConfirmed(report, confirmDataLoss);

  // The step's outcome, for the answer: runSteps records a failure on the job and does not rethrow it.
  let failure: unknown;
  let applied = false;
  let ended: Promise<void>;
  try {
    ({ ended } = await runJob(deps, {
      projectId: workspace.id,
      workspace: change.kind,
      kind: "SchemaChange",
      lockReason: "DatabaseCreation",
      userId: change.userId,
      steps: [
        {
          name: SCHEMA_CHANGE_STEP,
          run: async () => {
            try {
              await inTransaction(db, async (trx) => {
                const wanted = await editedTables(trx, dictionaryId, edit);
                await followDictionary(dataPlane, serverId, workspace.id, wanted, { apply: true, confirmDataLoss, dateOrder });
              });
              applied = true;
            } catch (err) {
              failure = err;
              throw err;
            }
          },
        },
      ],
      onSuccess: { status: "previous" },
    }));
  } catch (err) {
    // Another job took the lock since the workspace was read.
    if (err instanceof JobRefusedError) throw new ApiProblem(409, "project_locked", err.message);
    throw err;
  }
  await ended;
  if (failure !== undefined) throw refusalOf(failure);
  // Cancelled, force-unlocked or ended by a recovery before its step ran: nothing was written.
  if (!applied) throw new ApiProblem(409, "cancelled", "The change was stopped before it ran: nothing was changed.");
}

/** The dictionary `edit` would make (tables with their former names where it renamed one), rolled back. */
async function rehearse<T>(db: Kysely<Database>, edit: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  let after: { value: T } | undefined;
  try {
    await db.transaction().execute(async (trx) => {
      after = { value: await edit(trx) };
      throw new Rehearsed();
    });
  } catch (err) {
    if (!(err instanceof Rehearsed)) throw err;
  }
  return after!.value;
}

class Rehearsed extends Error {}

export const VALUE_MAP_LOSS_MESSAGE = "This change deletes value maps, so nothing was changed. Send it again with confirmDataLoss=true to apply it and delete:";

/**
 * A mapping project's value maps go with their columns (a table deleted, a column dropped by its table's form or
 * a bulk update, a master dictionary assigned over the tables): a change that deletes maps holding values is
 * refused (409 value_map_loss, each map and its counts listed), as one deleting data from the databases is, until
 * it is sent again confirmed. Rehearsed only when the dictionary has such maps (most have none).
 */
async function refuseLosingValueMaps(db: Kysely<Database>, dictionaryId: string, edit: DictionaryEdit) {
  const maps = await columnsWithValues(db, dictionaryId);
  if (maps.length === 0) return;
  const kept = await rehearse(db, async (trx) => {
    await edit(trx);
    return new Set((await readTables(trx, dictionaryId)).flatMap((t) => t.columns.map((c) => c.id)));
  });
  const lost = maps.filter((m) => !kept.has(m.id));
  if (lost.length === 0) return;
  const values = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "source value" : "source values"}`;
  const lines = lost.map((m) => `The value map of ${m.tableName}.${m.name}: ${values(m.distinctCount)}, ${m.mappedCount.toLocaleString("en-US")} mapped`);
  throw new ApiProblem(409, VALUE_MAP_LOSS_CODE, VALUE_MAP_LOSS_MESSAGE, undefined, lines);
}

/** Runs `edit` in `trx` and answers the tables it leaves, each renamed table and column with the name it had (both keep their ids). */
async function editedTables(trx: Kysely<Database>, dictionaryId: string, edit: DictionaryEdit): Promise<WantedTable[]> {
  const before = new Map<string, string>();
  for (const t of await readTables(trx, dictionaryId)) {
    before.set(t.id, t.name);
    for (const c of t.columns) before.set(c.id, c.name);
  }
  const formerNameOf = (thing: { id: string; name: string }) => {
    const formerName = before.get(thing.id);
    return formerName !== thing.name ? formerName : undefined;
  };
  await edit(trx);
  return (await readTables(trx, dictionaryId)).map((t) => ({
    name: t.name,
    columns: t.columns.map((c) => ({ ...c, formerName: formerNameOf(c) })),
    formerName: formerNameOf(t),
  }));
}

/** A failed change as the request answers it: refusals as they are; the database's own refusal of the DDL as a 409 saying why. */
function refusalOf(error: unknown): unknown {
  if (error instanceof ApiProblem) return error;
  if (error instanceof JobCancelledError) return new ApiProblem(409, "cancelled", `${error.message} The dictionary was not changed.`);
  // pg's DatabaseError: a statement PostgreSQL refused (a value that does not convert, a name taken by a table of a script).
  if (error instanceof Error && typeof (error as { code?: unknown }).code === "string" && "severity" in error) {
    return new ApiProblem(409, "schema_change_failed", `The databases could not follow this change, so nothing was changed: ${error.message}`);
  }
  return error;
}
