/**
 * The wizard's rules on the data API's side, for every kind of workspace: which setup status a
 * workspace's dictionary puts it in, what must be true before its databases can be created, and
 * when its templates step is done. The statuses themselves are contracts/workspaces.ts's (the portal's wizard reads the same table).
 */
import type { Kysely } from "kysely";
import type { ProjectStatus } from "../../../contracts/projects.ts";
import { DATABASE_CREATION_START_STATUSES, DICTIONARY_SETUP_STATUSES, dictionarySetupStatus, type WorkspaceKind } from "../../../contracts/workspaces.ts";
import { SERVICE_WORKSPACES } from "../../../contracts/workspaces.server.ts";
import type { Database } from "./db/schema.ts";
import { nextVersion, type WorkspaceRow } from "./repositories/workspaces.ts";

export type DictionaryShape = { tableCount: number; emptyTableCount: number };

/** What the dictionary lacks for databases to be made of it; empty when nothing. */
export function dictionaryBlockers(shape: DictionaryShape): string[] {
  if (shape.tableCount === 0) return ["The data dictionary has no tables: add at least one."];
  if (shape.emptyTableCount > 0) {
    const n = shape.emptyTableCount;
    return [`${n} ${n === 1 ? "table has" : "tables have"} no columns: every table needs at least one.`];
  }
  return [];
}

/**
 * Why try-create-databases cannot start now; empty when it can. A migration project also needs its
 * upload type (and flat-file parameters for FlatFile); a configuration has no such step.
 */
export function databaseCreationBlockers(kind: WorkspaceKind, workspace: WorkspaceRow, shape: DictionaryShape): string[] {
  const reasons: string[] = [];
  if (!(DATABASE_CREATION_START_STATUSES[kind] as readonly string[]).includes(workspace.status)) {
    reasons.push(`The databases cannot be created while the ${SERVICE_WORKSPACES[kind].noun}'s status is ${workspace.status}.`);
  }
  reasons.push(...dictionaryBlockers(shape));
  if (kind === "migration") {
    if (!workspace.upload_type) reasons.push("Choose an upload type first.");
    if (workspace.source_type === "FlatFile" && !workspace.flat_file_parameters) reasons.push("Set the flat file parameters first.");
  }
  return reasons;
}

/**
 * After `by`'s change to the workspace's dictionary, moves it to the setup status its dictionary now
 * gives, if it is still in the dictionary step (and unlocked). Run it in the transaction of the change.
 */
export async function recomputeSetupStatus(
  db: Kysely<Database>,
  kind: WorkspaceKind,
  workspaceId: string,
  shape: DictionaryShape,
  by: string | null,
  now = new Date(),
) {
  const status: ProjectStatus = dictionarySetupStatus(kind, shape);
  await db
    .updateTable("projects")
    .set({ status, ...nextVersion(by, now) })
    .where("id", "=", workspaceId)
    .where("product_type", "=", SERVICE_WORKSPACES[kind].productType)
    .where("status", "in", [...DICTIONARY_SETUP_STATUSES[kind]])
    .where("status", "!=", status)
    .where("is_locked", "=", 0)
    .execute();
}

/**
 * The wizard's last step (DOMAIN.md step 4): a workspace at "Setup: assign templates" that has a
 * template of its own is done with setup, so it becomes Active (`by`'s change; null for a job's).
 * Run it in the transaction of every move into that status (a migration project's first load or
 * restore, a mapping project's file data structure ended, a configuration's databases made) and of
 * every template a workspace gains: one assigned or made from its Templates tab before the wizard
 * reached the step counts as one assigned at the step. The transaction must hold the workspace's
 * row lock (lockWorkspaceRow, or its own update of the row) before it writes the template or the
 * status: else, on PostgreSQL, a template and a move committing at once each miss the other's write.
 */
export async function finishTemplateSetup(db: Kysely<Database>, workspaceId: string, by: string | null, now = new Date()) {
  await db
    .updateTable("projects")
    .set({ status: "Active", ...nextVersion(by, now) })
    .where("id", "=", workspaceId)
    .where("status", "=", "SetupAssignTemplatesIncomplete")
    .where((eb) => eb.exists(eb.selectFrom("templates").select("templates.id").where("templates.project_id", "=", workspaceId)))
    .execute();
}
