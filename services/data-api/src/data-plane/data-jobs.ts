/**
 * What every job on a workspace's data shares (flat-file loads, backups, restores, comparisons): the
 * statuses it may start from, and the move out of setup that its first load or restore makes.
 */
import type { Transaction } from "kysely";
import type { ProjectStatus } from "../../../../contracts/projects.ts";
import type { Database } from "../db/schema.ts";
import { finishTemplateSetup } from "../project-setup.ts";

/** Where a workspace's data may be loaded, backed up, restored or compared: its databases exist. */
export const LOAD_START_STATUSES: readonly ProjectStatus[] = ["SetupRestoreDatabaseIncomplete", "SetupAssignTemplatesIncomplete", "Active", "Inactive"];

/**
 * A migration project's first load or restore moves it from "Setup: load source data" to "Setup:
 * assign templates" (the wizard's next step), or on to Active when it has templates already, in the
 * transaction that ends the job.
 */
export function leaveSetupAfterFirstLoad(projectId: string) {
  return async (trx: Transaction<Database>) => {
    await trx
      .updateTable("projects")
      .set({ status: "SetupAssignTemplatesIncomplete" })
      .where("id", "=", projectId)
      .where("status", "=", "SetupRestoreDatabaseIncomplete")
      .execute();
    await finishTemplateSetup(trx, projectId, null);
  };
}
