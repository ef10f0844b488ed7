import { randomUUID } from "node:crypto";
import { auditWorkspace } from "../audit-writes.ts";
import { sql, type Kysely, type Selectable } from "kysely";
import type { PAGE_SIZES } from "../../../../contracts/common.ts";
import type { FlatFileParameters, ProjectStatus, PROJECT_SORTS, SOURCE_TYPES, UPLOAD_TYPES } from "../../../../contracts/projects.ts";
import { type WorkspaceKind } from "../../../../contracts/workspaces.ts";
import { SERVICE_WORKSPACES, workspaceOfProductType } from "../../../../contracts/workspaces.server.ts";
import { DuplicateNameError } from "../api-problem.ts";
import type { Database } from "../db/schema.ts";
import type { ProjectsTable } from "../db/schema-projects.ts";
import { compiledByShape, escapeLike, inTransaction, isUniqueViolation, makeOnce, nameKey, naturalSortKey, sentAgain, sortOf, toFlag, totalOf } from "./db-helpers.ts";
import { createDictionary } from "./dictionaries.ts";
import type { VersionedWrite } from "./dictionary-version.ts";
import { staleSave } from "./stale-saves.ts";

/**
 * Workspaces: migration projects and onboarding configurations, one `projects` row kind told apart
 * by `product_type` (contracts/workspaces.server.ts). What both kinds share lives here: the row, the name
 * rule, creation with the creator's access and an empty dictionary of its own, the versioned update
 * and the search. projects.ts and configurations.ts add what only their kind has.
 *
 * Every write compares and bumps `version` in the statement that writes, so a write based on a
 * stale read changes nothing (409). The lock columns are the job mechanism's (jobs/project-lock.ts);
 * routes refuse writes to a locked workspace before they get here.
 */

export type WorkspaceRow = Selectable<ProjectsTable>;

export const duplicateNameMessage = (kind: WorkspaceKind) => `A ${SERVICE_WORKSPACES[kind].noun} with this name already exists in this company`;

/**
 * What every write that moves a workspace's version sets (version, updated_at, updated_by), so that
 * the row always says who made the version it holds. The rule: `by` is the user whose own request
 * made the change (a save of its details, upload type or flat file parameters, a wizard step their
 * dictionary edit, dictionary assignment or first template moved it to, a force-unlock); null when
 * a job or the system did (a job's lock taken or released, demo content). A stale save's refusal
 * says "You changed this …" only to that user, so a job's change always reads as someone else's,
 * even when it was the same user who started the job.
 */
export function nextVersion(by: string | null, now: Date | string) {
  return { version: sql<number>`version + 1`, updated_at: typeof now === "string" ? now : now.toISOString(), updated_by: by };
}

/**
 * The refusal of `userId`'s write based on a version of the workspace that moved on: their other tab, or someone else (a job included);
 * `then` says what was not done ("Nothing was saved." unless given).
 */
export const staleWorkspace = (db: Kysely<Database>, kind: WorkspaceKind, id: string, userId: string, then?: string) =>
  staleSave(db, { table: "projects", key: "id", id }, userId, `this ${SERVICE_WORKSPACES[kind].noun}`, then);

/**
 * What "unique per company" compares. A migration project's key is its lower-cased name, as before
 * workspaces; another kind's is prefixed with its product type in capitals ("ONBOARDING:payroll"),
 * so that the one (company_id, name_key) constraint keeps names unique per company *and kind*: a
 * configuration may share a project's name. Lower-casing never produces capitals, so no project's
 * key can equal a configuration's. Migration 0004 says why the constraint stays as it is.
 */
export function workspaceNameKey(kind: WorkspaceKind, name: string): string {
  return kind === "migration" ? nameKey(name) : `${namePrefix(kind)}${nameKey(name)}`;
}

function namePrefix(kind: WorkspaceKind): string {
  return kind === "migration" ? "" : `${SERVICE_WORKSPACES[kind].productType.toUpperCase()}:`;
}

/** The row of any kind; routes go through requireWorkspace, which checks the kind. */
export function findWorkspaceRow(db: Kysely<Database>, id: string): Promise<WorkspaceRow | undefined> {
  return db.selectFrom("projects").selectAll().where("id", "=", id).executeTakeFirst();
}

/**
 * Holds the workspace's row lock until the transaction ends, so transactions that take it first go one
 * at a time. A no-op update locks on both engines (SQLite serialises every write transaction anyway,
 * and its dialect has no FOR UPDATE); on PostgreSQL, under read committed, each later statement of the
 * transaction that waited sees what the other committed.
 */
export async function lockWorkspaceRow(trx: Kysely<Database>, id: string) {
  await trx.updateTable("projects").set((eb) => ({ updated_at: eb.ref("updated_at") })).where("id", "=", id).execute();
}

export function kindOfRow(row: Pick<WorkspaceRow, "product_type">): WorkspaceKind | undefined {
  return workspaceOfProductType(row.product_type)?.kind;
}

export type NewWorkspace = {
  /** The id the create form chose (madeIdSchema; createOnce); none: one is drawn. */
  id?: string | undefined;
  companyId: string;
  applicationId: string;
  name: string;
  description: string | null;
  sourceType: (typeof SOURCE_TYPES)[number];
  userId: string;
  isDefault?: boolean;
};

/**
 * Inserts the workspace at its kind's initial status, its creator's read and write access, and its
 * own empty data dictionary, in `trx` (the caller's transaction: a kind adds its own rows in it).
 * The caller checks the application. A taken name is a DuplicateNameError on `name`.
 */
export async function insertWorkspace(trx: Kysely<Database>, kind: WorkspaceKind, input: NewWorkspace, now = new Date()): Promise<string> {
  const id = input.id ?? randomUUID();
  const at = now.toISOString();
  const key = workspaceNameKey(kind, input.name);
  await assertNameFree(trx, kind, input.companyId, key);
  await withNameConstraint(kind, () =>
    trx
      .insertInto("projects")
      .values({
        id,
        company_id: input.companyId,
        application_id: input.applicationId,
        name: input.name,
        name_key: key,
        name_sort: naturalSortKey(input.name),
        description: input.description,
        source_type: input.sourceType,
        status: SERVICE_WORKSPACES[kind].initialStatus,
        lock_job_id: null,
        current_backup_name: null,
        upload_type: null,
        flat_file_parameters: null,
        source_dictionary_id: null,
        mapping_project_id: null,
        version: 1,
        created_at: at,
        updated_at: at,
        updated_by: input.userId,
        created_by: input.userId,
        product_type: SERVICE_WORKSPACES[kind].productType,
        is_default: toFlag(input.isDefault ?? false),
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
  // The request's audit entry, written by this transaction, names the workspace it made.
  auditWorkspace(id);
  return id;
}

/**
 * Creates the workspace `input` describes with `create` (its kind's create, in the transaction given), once per
 * create form (madeIdSchema): sent again, the form is answered the workspace it made, as its first sending was, if
 * that workspace is of this kind, in the same company, made by the same user from the same values (name,
 * application, source type, description) and has not moved on; else refused (sentAgain). Two sendings at once
 * make one (makeOnce).
 */
export function createOnce(
  db: Kysely<Database>,
  kind: WorkspaceKind,
  input: Omit<NewWorkspace, "sourceType" | "isDefault"> & { sourceType?: NewWorkspace["sourceType"] },
  create: (trx: Kysely<Database>) => Promise<string>,
): Promise<string> {
  const { id } = input;
  if (!id) return inTransaction(db, create);
  return makeOnce(
    db,
    () => findWorkspaceRow(db, id),
    (made) =>
      sentAgain(made, {
        mine: made.product_type === SERVICE_WORKSPACES[kind].productType && made.company_id === input.companyId && made.created_by === input.userId,
        same:
          made.name === input.name &&
          made.application_id === input.applicationId &&
          (input.sourceType === undefined || made.source_type === input.sourceType) &&
          (made.description ?? null) === (input.description ?? null),
        what: `the ${SERVICE_WORKSPACES[kind].noun} ${made.name}`,
      }),
    create,
  );
}

export type WorkspaceChanges = {
  name?: string;
  description?: string | null;
  status?: ProjectStatus;
  uploadType?: (typeof UPLOAD_TYPES)[number];
  flatFileParameters?: FlatFileParameters;
  sourceDictionaryId?: string | null;
  isDefault?: boolean;
  /** The mapping project whose value maps the scripts join; null: none. */
  mappingProjectId?: string | null;
};

/**
 * Writes `changes` as `write.userId`'s if the workspace is still at `write.expectedVersion`, else
 * ConflictError (staleWorkspace) and nothing written; `alsoInTransaction` writes a kind's own rows
 * (a configuration's schemes) in the same transaction, after the row. Answers the new version.
 * The caller has checked the rules against the row it read at that version (a status transition,
 * say): the version check keeps that read true.
 */
export async function updateWorkspace(
  db: Kysely<Database>,
  kind: WorkspaceKind,
  row: Pick<WorkspaceRow, "id" | "company_id">,
  write: VersionedWrite,
  changes: WorkspaceChanges,
  alsoInTransaction?: (trx: Kysely<Database>) => Promise<void>,
): Promise<number> {
  return inTransaction(db, async (trx) => {
    const key = changes.name !== undefined ? workspaceNameKey(kind, changes.name) : undefined;
    if (key !== undefined) await assertNameFree(trx, kind, row.company_id, key, row.id);
    const result = await withNameConstraint(kind, () =>
      trx
        .updateTable("projects")
        .set({
          ...(changes.name !== undefined ? { name: changes.name, name_key: key, name_sort: naturalSortKey(changes.name) } : {}),
          ...(changes.description !== undefined ? { description: changes.description } : {}),
          ...(changes.status !== undefined ? { status: changes.status } : {}),
          ...(changes.uploadType !== undefined ? { upload_type: changes.uploadType } : {}),
          ...(changes.flatFileParameters !== undefined ? { flat_file_parameters: JSON.stringify(changes.flatFileParameters) } : {}),
          ...(changes.sourceDictionaryId !== undefined ? { source_dictionary_id: changes.sourceDictionaryId } : {}),
          ...(changes.isDefault !== undefined ? { is_default: toFlag(changes.isDefault) } : {}),
          ...(changes.mappingProjectId !== undefined ? { mapping_project_id: changes.mappingProjectId } : {}),
          ...nextVersion(write.userId, write.now ?? new Date()),
        })
        .where("id", "=", row.id)
        .where("product_type", "=", SERVICE_WORKSPACES[kind].productType)
        .where("version", "=", write.expectedVersion)
        // The lock is checked by the route; this keeps a job that took it meanwhile safe too.
        .where("is_locked", "=", 0)
        .executeTakeFirst(),
    );
    if (result.numUpdatedRows !== 1n) throw await staleWorkspace(trx, kind, row.id, write.userId);
    await alsoInTransaction?.(trx);
    return write.expectedVersion + 1;
  });
}

export type WorkspaceSearch = {
  companyId: string;
  name?: string | undefined;
  status: readonly ProjectStatus[];
  applicationId?: string | undefined;
  page: number;
  pageSize: (typeof PAGE_SIZES)[number] | number;
  sort: (typeof PROJECT_SORTS)[number];
};

/** Who searches: admins see every workspace of the company; others only those they may read. */
export type WorkspaceReader = { userId: string; seesAll: boolean };

/** Each sort's columns, then id. By name in natural order ("Project 2" before "Project 10"), ties by the name as written: migration 0026's index. */
const SORT_COLUMNS = {
  name: ["p.name_sort", "p.name"],
  status: ["p.status"],
  application: ["a.name_sort"],
  updatedAt: ["p.updated_at"],
} as const;

/** The columns a workspace is read with (both kinds' responses are built from them). */
export const workspaceColumns = [
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
  "p.mapping_project_id",
  "p.created_at",
  "p.updated_at",
  "p.version",
  "p.is_default",
] as const;

export function selectWorkspaces(db: Kysely<Database>, kind: WorkspaceKind) {
  return db
    .selectFrom("projects as p")
    .innerJoin("applications as a", "a.id", "p.application_id")
    .select(workspaceColumns)
    .where("p.product_type", "=", SERVICE_WORKSPACES[kind].productType);
}

export type WorkspaceListRow = Awaited<ReturnType<ReturnType<typeof selectWorkspaces>["executeTakeFirstOrThrow"]>>;

/**
 * One page of the company's workspaces of `kind` the reader may read: filtered, sorted and counted in
 * SQL. The list is the data API's hottest read, so its two queries are compiled once per shape
 * (compiledByShape): the filters present, the sort and whether the reader sees all decide the SQL;
 * the company, the reader, the kind and the filters' values are its named parameters. Each item, made
 * from its row by `toItems`, says whether the reader may write it (canWrite), read in the same query.
 */
export async function searchWorkspaces<Item>(
  db: Kysely<Database>,
  kind: WorkspaceKind,
  search: WorkspaceSearch,
  reader: WorkspaceReader,
  toItems: (rows: readonly WorkspaceListRow[]) => Item[] | Promise<Item[]>,
) {
  const contains = search.name?.trim().toLowerCase();
  // A status filter is a set: repeated values are one, which also keeps the number of shapes bounded.
  const statuses = [...new Set(search.status)];
  const shape: SearchShape = {
    seesAll: reader.seesAll,
    name: Boolean(contains),
    statuses: statuses.length,
    application: Boolean(search.applicationId),
    sort: search.sort,
  };
  const filters: Record<string, unknown> = { productType: SERVICE_WORKSPACES[kind].productType, companyId: search.companyId };
  if (!reader.seesAll) filters.userId = reader.userId;
  // name_key holds the kind's prefix: the pattern starts with it, so the prefix itself never matches.
  if (contains) filters.nameLike = `${namePrefix(kind)}%${escapeLike(contains)}%`;
  statuses.forEach((status, i) => (filters[`status${i}`] = status));
  if (search.applicationId) filters.applicationId = search.applicationId;

  const rows = await workspacePage(db, shape, { ...filters, limit: search.pageSize, offset: (search.page - 1) * search.pageSize });
  const total = await totalOf(rows.length, search, async () => (await workspaceCount(db, shape, filters))[0]!);
  const items = (await toItems(rows)).map((item, i) => ({ ...item, canWrite: Number(rows[i]!.can_write) === 1 }));
  return { items, total, page: search.page, pageSize: search.pageSize };
}

/** What decides the search's SQL text; everything else is a parameter. */
type SearchShape = { seesAll: boolean; name: boolean; statuses: number; application: boolean; sort: WorkspaceSearch["sort"] };

/** The workspaces a search matches, from its shape; values by name through `param`. */
function searchBase(db: Kysely<Database>, shape: SearchShape, param: (name: string) => any) {
  let base = db
    .selectFrom("projects as p")
    .innerJoin("applications as a", "a.id", "p.application_id")
    .where("p.product_type", "=", param("productType"));
  if (!shape.seesAll) {
    base = base.innerJoin("project_users as pu", (join) =>
      join.onRef("pu.project_id", "=", "p.id").on("pu.user_id", "=", param("userId")).on("pu.can_read", "=", sql.lit(1)),
    );
  }
  base = base.where("p.company_id", "=", param("companyId"));
  if (shape.name) base = base.where(sql<boolean>`p.name_key like ${param("nameLike")} escape '\\'`);
  if (shape.statuses) base = base.where("p.status", "in", Array.from({ length: shape.statuses }, (_, i) => param(`status${i}`)));
  if (shape.application) base = base.where("p.application_id", "=", param("applicationId"));
  return base;
}

const workspacePage = compiledByShape((db: Kysely<Database>, shape: SearchShape, param) => {
  const { key, direction } = sortOf<keyof typeof SORT_COLUMNS>(shape.sort);
  let page = searchBase(db, shape, param)
    .select(workspaceColumns)
    // Whether the reader may write each row, from the access list searchBase joined (requireWorkspace's rule).
    .select(shape.seesAll ? sql<number>`1`.as("can_write") : sql<number>`pu.can_write`.as("can_write"));
  for (const column of SORT_COLUMNS[key]) page = page.orderBy(column, direction);
  return page
    .orderBy("p.id", direction)
    .limit(param("limit"))
    .offset(param("offset"));
});

const workspaceCount = compiledByShape((db: Kysely<Database>, shape: SearchShape, param) =>
  searchBase(db, shape, param).select((eb) => eb.fn.countAll<number | string>().as("n")),
);

async function assertNameFree(db: Kysely<Database>, kind: WorkspaceKind, companyId: string, key: string, exceptId?: string) {
  let query = db.selectFrom("projects").select("id").where("company_id", "=", companyId).where("name_key", "=", key);
  if (exceptId) query = query.where("id", "!=", exceptId);
  if (await query.executeTakeFirst()) throw new DuplicateNameError("name", duplicateNameMessage(kind));
}

/** The constraint decides when two writers race past the check above. */
async function withNameConstraint<T>(kind: WorkspaceKind, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw new DuplicateNameError("name", duplicateNameMessage(kind));
    throw err;
  }
}
