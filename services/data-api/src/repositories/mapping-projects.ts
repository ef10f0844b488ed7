import type { Kysely } from "kysely";
import type { Project } from "../../../../contracts/projects.ts";
import type { Database } from "../db/schema.ts";
import { inTransaction } from "./db-helpers.ts";
import type { VersionedWrite } from "./dictionary-version.ts";
import { toProject } from "./projects.ts";
import {
  insertWorkspace,
  searchWorkspaces,
  selectWorkspaces,
  updateWorkspace,
  type NewWorkspace,
  type WorkspaceChanges,
  type WorkspaceRow,
  type WorkspaceSearch,
} from "./workspaces.ts";

/**
 * Translation mapping projects: the workspace kind "translation" (workspaces.ts holds the row, the
 * name rule and the search). They read as the projects contract does; they have no access list, so
 * every search sees all of the company's.
 */

export async function getMappingProject(db: Kysely<Database>, id: string): Promise<Project | undefined> {
  const row = await selectWorkspaces(db, "translation").where("p.id", "=", id).executeTakeFirst();
  return row && toProject(row);
}

/** The basic settings, in one transaction: the project (SetupAddColumnsIncomplete) and its empty file data structure (its dictionary). */
export async function createMappingProject(db: Kysely<Database>, input: Omit<NewWorkspace, "isDefault" | "sourceType">, now = new Date()): Promise<string> {
  // Its files are flat files, whatever a later issue lets them be.
  return inTransaction(db, (trx) => insertWorkspace(trx, "translation", { ...input, sourceType: "FlatFile" }, now));
}

export function updateMappingProject(
  db: Kysely<Database>,
  row: Pick<WorkspaceRow, "id" | "company_id">,
  write: VersionedWrite,
  changes: Omit<WorkspaceChanges, "isDefault" | "uploadType" | "flatFileParameters" | "sourceDictionaryId">,
  alsoInTransaction?: (trx: Kysely<Database>) => Promise<void>,
) {
  return updateWorkspace(db, "translation", row, write, changes, alsoInTransaction);
}

export async function searchMappingProjects(db: Kysely<Database>, search: WorkspaceSearch, userId: string) {
  return searchWorkspaces(db, "translation", search, { userId, seesAll: true }, (rows) => rows.map(toProject));
}
