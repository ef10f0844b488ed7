/**
 * The wizard's rules (DOMAIN.md "Migration project life cycle"): which setup status a project's
 * dictionary puts it in, and what must be true before its databases can be created.
 */
import { sql, type Kysely } from "kysely";
import type { ProjectStatus } from "../../../contracts/projects.ts";
import type { Database } from "./db/schema.ts";
import type { ProjectRow } from "./repositories/projects.ts";

/** The statuses of wizard step 2: while in one of them, the dictionary decides which. */
export const DICTIONARY_SETUP_STATUSES = ["SetupDataDictionaryIncomplete", "SetupAddColumnsIncomplete", "SetupUploadTypeIncomplete"] as const satisfies readonly ProjectStatus[];

/** Statuses try-create-databases starts from: the wizard's step 3, or a retry after a failure. */
export const DATABASE_CREATION_START_STATUSES = ["SetupUploadTypeIncomplete", "DatabaseCreationFailed"] as const satisfies readonly ProjectStatus[];

export type DictionaryShape = { tableCount: number; emptyTableCount: number };

export function setupStatusFor(shape: DictionaryShape): ProjectStatus {
  if (shape.tableCount === 0) return "SetupDataDictionaryIncomplete";
  if (shape.emptyTableCount > 0) return "SetupAddColumnsIncomplete";
  return "SetupUploadTypeIncomplete";
}

/** What the dictionary lacks for databases to be made of it; empty when nothing. */
export function dictionaryBlockers(shape: DictionaryShape): string[] {
  if (shape.tableCount === 0) return ["The data dictionary has no tables: add at least one."];
  if (shape.emptyTableCount > 0) {
    const n = shape.emptyTableCount;
    return [`${n} ${n === 1 ? "table has" : "tables have"} no columns: every table needs at least one.`];
  }
  return [];
}

/** Why try-create-databases cannot start now; empty when it can. */
export function databaseCreationBlockers(project: ProjectRow, shape: DictionaryShape): string[] {
  const reasons: string[] = [];
  if (!(DATABASE_CREATION_START_STATUSES as readonly string[]).includes(project.status)) {
    reasons.push(`The databases cannot be created while the project's status is ${project.status}.`);
  }
  reasons.push(...dictionaryBlockers(shape));
  if (!project.upload_type) reasons.push("Choose an upload type first.");
  if (project.source_type === "FlatFile" && !project.flat_file_parameters) reasons.push("Set the flat file parameters first.");
  return reasons;
}

/**
 * After a change to the project's dictionary, moves the project to the setup status its dictionary
 * now gives, if it is still in wizard step 2 (and unlocked). Run it in the transaction of the change.
 */
export async function recomputeSetupStatus(db: Kysely<Database>, projectId: string, shape: DictionaryShape, now = new Date()) {
  const status = setupStatusFor(shape);
  await db
    .updateTable("projects")
    .set({ status, version: sql`version + 1`, updated_at: now.toISOString() })
    .where("id", "=", projectId)
    .where("status", "in", [...DICTIONARY_SETUP_STATUSES])
    .where("status", "!=", status)
    .where("is_locked", "=", 0)
    .execute();
}
