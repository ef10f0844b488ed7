import type { Kysely } from "kysely";
import { flatFileParametersSchema, type FlatFileParameters, type Project, type ProjectStatus } from "../../../../contracts/projects.ts";
import type { Database } from "../db/schema.ts";
import { DEFAULT_FLAT_FILE_PARAMETERS, type DateOrder } from "../../../../contracts/values/flat-files.ts";
import { inTransaction } from "./db-helpers.ts";
import type { VersionedWrite } from "./dictionary-version.ts";
import {
  insertWorkspace,
  nextVersion,
  searchWorkspaces,
  selectWorkspaces,
  updateWorkspace,
  type NewWorkspace,
  type WorkspaceChanges,
  type WorkspaceListRow,
  type WorkspaceReader,
  type WorkspaceRow,
  type WorkspaceSearch,
} from "./workspaces.ts";

/**
 * Migration projects: the workspace kind "migration" (workspaces.ts holds what configurations share).
 */

export async function getProject(db: Kysely<Database>, id: string): Promise<Project | undefined> {
  const row = await selectWorkspaces(db, "migration").where("p.id", "=", id).executeTakeFirst();
  return row && toProject(row);
}

export type NewProject = Omit<NewWorkspace, "isDefault">;

/**
 * Wizard step 1, in one transaction: the project (SetupDataDictionaryIncomplete), its creator's
 * read and write access, and its own empty data dictionary. The caller checks the application.
 */
export async function createProject(db: Kysely<Database>, input: NewProject, now = new Date()): Promise<string> {
  return inTransaction(db, (trx) => insertWorkspace(trx, "migration", input, now));
}

export type ProjectChanges = Omit<WorkspaceChanges, "isDefault">;

/** Writes `changes` if the project is still at `write.expectedVersion` (workspaces.ts updateWorkspace). */
export async function updateProject(
  db: Kysely<Database>,
  row: Pick<WorkspaceRow, "id" | "company_id">,
  write: VersionedWrite,
  changes: ProjectChanges,
): Promise<number> {
  return updateWorkspace(db, "migration", row, write, changes);
}

/** Records which master dictionary the project's own copy came from (assign, by `by`: nextVersion), moving the version on. */
export async function setSourceDictionary(db: Kysely<Database>, projectId: string, dictionaryId: string, by: string | null, now = new Date()) {
  await db
    .updateTable("projects")
    .set({ source_dictionary_id: dictionaryId, ...nextVersion(by, now) })
    .where("id", "=", projectId)
    .execute();
}

/** The project a dictionary copy belongs to, and the master it came from (if assigned). */
export async function projectDictionarySource(db: Kysely<Database>, dictionaryId: string) {
  const row = await db
    .selectFrom("dictionaries as d")
    .innerJoin("projects as p", "p.id", "d.project_id")
    .leftJoin("dictionaries as m", "m.id", "p.source_dictionary_id")
    .select(["p.id as project_id", "p.source_dictionary_id", "m.name as source_name"])
    .where("d.id", "=", dictionaryId)
    .executeTakeFirst();
  return row && { projectId: row.project_id, sourceDictionaryId: row.source_dictionary_id, sourceDictionaryName: row.source_name };
}

export type ProjectSearch = WorkspaceSearch;
export type ProjectReader = WorkspaceReader;

/** One page of the company's projects the reader may read: filtered, sorted and counted in SQL. */
export async function searchProjects(db: Kysely<Database>, search: ProjectSearch, reader: ProjectReader) {
  return searchWorkspaces(db, "migration", search, reader, (rows) => rows.map(toProject));
}

/** A workspace row as the projects contract reads it (a configuration adds its schemes and default). */
export function toProject(row: WorkspaceListRow): Project {
  return {
    id: row.id,
    companyId: row.company_id,
    name: row.name,
    description: row.description,
    applicationId: row.application_id,
    applicationName: row.application_name,
    sourceType: row.source_type as Project["sourceType"],
    status: row.status as ProjectStatus,
    isLocked: Number(row.is_locked) === 1,
    lockReason: row.lock_reason as Project["lockReason"],
    currentBackupName: row.current_backup_name,
    uploadType: row.upload_type as Project["uploadType"],
    flatFileParameters: flatFileParametersOf(row),
    sourceDictionaryId: row.source_dictionary_id,
    mappingProjectId: row.mapping_project_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: Number(row.version),
  };
}

/**
 * A workspace's saved flat-file parameters, or null. Read through the contract (checked by it when
 * they were saved): parameters saved before a key existed get its default.
 */
export function flatFileParametersOf(row: { flat_file_parameters: string | null }): FlatFileParameters | null {
  return row.flat_file_parameters ? flatFileParametersSchema.parse(JSON.parse(row.flat_file_parameters)) : null;
}

/** The order a workspace reads dates in (its flat-file parameters', else the default): loads, and text becoming dates in a schema change or a restore. */
export function dateOrderOf(row: { flat_file_parameters: string | null }): DateOrder {
  return (flatFileParametersOf(row) ?? DEFAULT_FLAT_FILE_PARAMETERS).dateOrder;
}

/** The date order of workspace `projectId`, read from the control plane. */
export async function workspaceDateOrder(db: Kysely<Database>, projectId: string): Promise<DateOrder> {
  const row = await db.selectFrom("projects").select("flat_file_parameters").where("id", "=", projectId).executeTakeFirst();
  return row ? dateOrderOf(row) : DEFAULT_FLAT_FILE_PARAMETERS.dateOrder;
}
