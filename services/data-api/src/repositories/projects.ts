import { randomUUID } from "node:crypto";
import { sql, type Kysely, type Selectable } from "kysely";
import type { PAGE_SIZES } from "../../../../contracts/common.ts";
import type { FlatFileParameters, Project, ProjectStatus, PROJECT_SORTS, UPLOAD_TYPES, SOURCE_TYPES } from "../../../../contracts/projects.ts";
import { ConflictError, DuplicateNameError } from "../api-problem.ts";
import type { Database } from "../db/schema.ts";
import type { ProjectsTable } from "../db/schema-projects.ts";
import { inTransaction, isUniqueViolation, nameKey, nameKeyContains, sortOf } from "./db-helpers.ts";
import { createDictionary } from "./dictionaries.ts";

/**
 * Migration projects. Every write compares and bumps `version` in the statement that writes, so a
 * write based on a stale read changes nothing (409). The lock columns are the job mechanism's
 * (jobs/project-lock.ts); routes refuse writes to a locked project before they get here.
 */

export type ProjectRow = Selectable<ProjectsTable>;

export const PROJECT_NOT_FOUND_MESSAGE = "Project not found.";
export const DUPLICATE_PROJECT_MESSAGE = "A project with this name already exists in this company";
export const STALE_PROJECT_MESSAGE = "This project was changed by someone else. Reload it and try again.";

export function findProjectRow(db: Kysely<Database>, id: string): Promise<ProjectRow | undefined> {
  return db.selectFrom("projects").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function getProject(db: Kysely<Database>, id: string): Promise<Project | undefined> {
  const row = await selectProjects(db).where("p.id", "=", id).executeTakeFirst();
  return row && toProject(row);
}

export type NewProject = {
  companyId: string;
  applicationId: string;
  name: string;
  description: string | null;
  sourceType: (typeof SOURCE_TYPES)[number];
  userId: string;
};

/**
 * Wizard step 1, in one transaction: the project (SetupDataDictionaryIncomplete), its creator's
 * read and write access, and its own empty data dictionary. The caller checks the application.
 */
export async function createProject(db: Kysely<Database>, input: NewProject, now = new Date()): Promise<string> {
  const id = randomUUID();
  const at = now.toISOString();
  const key = nameKey(input.name);
  await inTransaction(db, async (trx) => {
    await assertNameFree(trx, input.companyId, key);
    await withNameConstraint(() =>
      trx
        .insertInto("projects")
        .values({
          id,
          company_id: input.companyId,
          application_id: input.applicationId,
          name: input.name,
          name_key: key,
          description: input.description,
          source_type: input.sourceType,
          status: "SetupDataDictionaryIncomplete" satisfies ProjectStatus,
          lock_job_id: null,
          current_backup_name: null,
          upload_type: null,
          flat_file_parameters: null,
          source_dictionary_id: null,
          version: 1,
          created_at: at,
          updated_at: at,
          created_by: input.userId,
        })
        .execute(),
    );
    await trx
      .insertInto("project_users")
      .values({ project_id: id, user_id: input.userId, can_read: 1, can_write: 1, granted_at: at, granted_by: input.userId })
      .execute();
    await createDictionary(
      trx,
      { companyId: input.companyId, applicationId: input.applicationId, projectId: id, name: input.name, description: null, userId: input.userId },
      now,
    );
  });
  return id;
}

export type ProjectChanges = {
  name?: string;
  description?: string | null;
  status?: ProjectStatus;
  uploadType?: (typeof UPLOAD_TYPES)[number];
  flatFileParameters?: FlatFileParameters;
  sourceDictionaryId?: string | null;
};

/**
 * Writes `changes` if the project is still at `expectedVersion`, else ConflictError and nothing
 * written. Answers the new version. The caller has checked the rules against the row it read at
 * that version (a status transition, say): the version check makes that read still true.
 */
export async function updateProject(
  db: Kysely<Database>,
  row: Pick<ProjectRow, "id" | "company_id">,
  expectedVersion: number,
  changes: ProjectChanges,
  now = new Date(),
): Promise<number> {
  return inTransaction(db, async (trx) => {
    const key = changes.name !== undefined ? nameKey(changes.name) : undefined;
    if (key !== undefined) await assertNameFree(trx, row.company_id, key, row.id);
    const result = await withNameConstraint(() =>
      trx
        .updateTable("projects")
        .set({
          ...(changes.name !== undefined ? { name: changes.name, name_key: key } : {}),
          ...(changes.description !== undefined ? { description: changes.description } : {}),
          ...(changes.status !== undefined ? { status: changes.status } : {}),
          ...(changes.uploadType !== undefined ? { upload_type: changes.uploadType } : {}),
          ...(changes.flatFileParameters !== undefined ? { flat_file_parameters: JSON.stringify(changes.flatFileParameters) } : {}),
          ...(changes.sourceDictionaryId !== undefined ? { source_dictionary_id: changes.sourceDictionaryId } : {}),
          version: sql`version + 1`,
          updated_at: now.toISOString(),
        })
        .where("id", "=", row.id)
        .where("version", "=", expectedVersion)
        // The lock is checked by the route; this keeps a job that took it meanwhile safe too.
        .where("is_locked", "=", 0)
        .executeTakeFirst(),
    );
    if (result.numUpdatedRows !== 1n) throw new ConflictError(STALE_PROJECT_MESSAGE);
    return expectedVersion + 1;
  });
}

/** Records which master dictionary the project's own copy came from (assign), moving the version on. */
export async function setSourceDictionary(db: Kysely<Database>, projectId: string, dictionaryId: string, now = new Date()) {
  await db
    .updateTable("projects")
    .set({ source_dictionary_id: dictionaryId, version: sql`version + 1`, updated_at: now.toISOString() })
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

export type ProjectSearch = {
  companyId: string;
  name?: string | undefined;
  status: readonly ProjectStatus[];
  applicationId?: string | undefined;
  page: number;
  pageSize: (typeof PAGE_SIZES)[number] | number;
  sort: (typeof PROJECT_SORTS)[number];
};

/** Who searches: admins see every project of the company; others only those they may read. */
export type ProjectReader = { userId: string; seesAll: boolean };

const SORT_COLUMNS = {
  name: "p.name_key",
  status: "p.status",
  application: "a.name_key",
  updatedAt: "p.updated_at",
} as const;

/** One page of the company's projects the reader may read: filtered, sorted and counted in SQL. */
export async function searchProjects(db: Kysely<Database>, search: ProjectSearch, reader: ProjectReader) {
  let base = db.selectFrom("projects as p").innerJoin("applications as a", "a.id", "p.application_id");
  if (!reader.seesAll) {
    base = base.innerJoin("project_users as pu", (join) =>
      join.onRef("pu.project_id", "=", "p.id").on("pu.user_id", "=", reader.userId).on("pu.can_read", "=", 1),
    );
  }
  base = base.where("p.company_id", "=", search.companyId);
  const nameFilter = nameKeyContains("p.name_key", search.name);
  if (nameFilter) base = base.where(nameFilter);
  if (search.status.length) base = base.where("p.status", "in", [...search.status]);
  if (search.applicationId) base = base.where("p.application_id", "=", search.applicationId);

  const { key, direction } = sortOf<keyof typeof SORT_COLUMNS>(search.sort);
  const column = SORT_COLUMNS[key];

  const [rows, count] = await Promise.all([
    base
      .select(projectColumns)
      .orderBy(column, direction)
      .orderBy("p.id", direction)
      .limit(search.pageSize)
      .offset((search.page - 1) * search.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toProject), total: Number(count.n), page: search.page, pageSize: search.pageSize };
}

const projectColumns = [
  "p.id",
  "p.company_id",
  "p.name",
  "p.description",
  "p.application_id",
  "a.name as application_name",
  "p.source_type",
  "p.status",
  "p.is_locked",
  "p.lock_reason",
  "p.current_backup_name",
  "p.upload_type",
  "p.flat_file_parameters",
  "p.source_dictionary_id",
  "p.created_at",
  "p.updated_at",
  "p.version",
] as const;

function selectProjects(db: Kysely<Database>) {
  return db.selectFrom("projects as p").innerJoin("applications as a", "a.id", "p.application_id").select(projectColumns);
}

type ProjectListRow = Pick<
  ProjectRow,
  | "id"
  | "company_id"
  | "name"
  | "description"
  | "application_id"
  | "source_type"
  | "status"
  | "is_locked"
  | "lock_reason"
  | "current_backup_name"
  | "upload_type"
  | "flat_file_parameters"
  | "source_dictionary_id"
  | "created_at"
  | "updated_at"
  | "version"
> & { application_name: string };

function toProject(row: ProjectListRow): Project {
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
    flatFileParameters: row.flat_file_parameters ? (JSON.parse(row.flat_file_parameters) as FlatFileParameters) : null,
    sourceDictionaryId: row.source_dictionary_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: Number(row.version),
  };
}

async function assertNameFree(db: Kysely<Database>, companyId: string, key: string, exceptId?: string) {
  let query = db.selectFrom("projects").select("id").where("company_id", "=", companyId).where("name_key", "=", key);
  if (exceptId) query = query.where("id", "!=", exceptId);
  if (await query.executeTakeFirst()) throw new DuplicateNameError("name", DUPLICATE_PROJECT_MESSAGE);
}

/** The constraint decides when two writers race past the check above. */
async function withNameConstraint<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw new DuplicateNameError("name", DUPLICATE_PROJECT_MESSAGE);
    throw err;
  }
}
