import { randomUUID } from "node:crypto";
import type { ExpressionBuilder, Kysely } from "kysely";
import type { DictionarySort, DictionarySummary } from "../../../../contracts/dictionary.ts";
import { ConflictError, DuplicateNameError } from "../api-problem.ts";
import type { Database } from "../db/schema.ts";
import { inTransaction, isUniqueViolation, makeOnce, nameKey, nameKeyContains, naturalSortKey, sentAgain, sortOf, totalOf } from "./db-helpers.ts";
import { bumpVersion, type VersionedWrite } from "./dictionary-version.ts";

// One entry point for every dictionary write and read, master or project copy.
export { bumpVersion, type VersionedWrite } from "./dictionary-version.ts";
export {
  copyTables,
  createTable,
  deleteTable,
  getTable,
  listTables,
  readTables,
  tablesInBatches,
  updateTable,
  upsertTables,
  type DesiredTable,
  type TablesQuery,
} from "./dictionary-tables.ts";

/**
 * Data dictionaries, master and project copies alike: everything here takes a dictionary id, so a
 * project's own dictionary (project_id set) uses the same functions as a master one (project_id null).
 * Table and column writes are in dictionary-tables.ts; both bump the version through `bumpVersion`.
 */

export const DUPLICATE_DICTIONARY_MESSAGE = "A data dictionary with this name already exists for this application";

/** The identity of a dictionary: enough to check access before reading or writing it. */
export type DictionaryRef = {
  id: string;
  companyId: string;
  applicationId: string;
  projectId: string | null;
  version: number;
};

export async function findDictionaryRef(db: Kysely<Database>, id: string): Promise<DictionaryRef | undefined> {
  return db.selectFrom("dictionaries").select(refColumns).where("id", "=", id).executeTakeFirst();
}

/** A project's own dictionary, if it has one yet. */
export async function findProjectDictionaryRef(db: Kysely<Database>, projectId: string): Promise<DictionaryRef | undefined> {
  return db.selectFrom("dictionaries").select(refColumns).where("project_id", "=", projectId).executeTakeFirst();
}

const refColumns = ["id", "company_id as companyId", "application_id as applicationId", "project_id as projectId", "version"] as const;

export type NewDictionary = {
  /** The id the create form chose (madeIdSchema; createMasterDictionary); none: one is drawn. */
  id?: string | undefined;
  companyId: string;
  applicationId: string;
  /** null: a master dictionary of the application; a project id: that project's own copy. */
  projectId: string | null;
  name: string;
  description: string | null;
  userId: string;
};

/**
 * Inserts an empty dictionary at version 1 and answers its id. A master name already used in the
 * application (any case) is a DuplicateNameError on `name`; a second copy for a project a ConflictError.
 * The caller checks that the application belongs to `companyId`.
 */
export async function createDictionary(db: Kysely<Database>, input: NewDictionary, now = new Date()): Promise<string> {
  const id = input.id ?? randomUUID();
  const key = nameKey(input.name);
  if (input.projectId === null && (await masterNameTaken(db, input.companyId, input.applicationId, key))) {
    throw new DuplicateNameError("name", DUPLICATE_DICTIONARY_MESSAGE);
  }
  const at = now.toISOString();
  try {
    // A transaction even for one statement: the request's audit entry commits with it (audit-writes.ts).
    await inTransaction(db, (trx) =>
      trx
        .insertInto("dictionaries")
        .values({
          id,
          company_id: input.companyId,
          application_id: input.applicationId,
          project_id: input.projectId,
          name: input.name,
          name_key: key,
          name_sort: naturalSortKey(input.name),
          description: input.description,
          version: 1,
          created_at: at,
          updated_at: at,
          updated_by: input.userId,
        })
        .execute(),
    );
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    if (input.projectId !== null) throw new ConflictError("This project already has a data dictionary.");
    throw new DuplicateNameError("name", DUPLICATE_DICTIONARY_MESSAGE);
  }
  return id;
}

/**
 * A master dictionary (createDictionary), once per create form (madeIdSchema): sent again, the form is answered the
 * dictionary it made, as its first sending was, if that is a master dictionary of the same company, made by the same
 * user (its only writer while at version 1) from the same values (application, name, description) and has not moved
 * on; else refused (sentAgain). Two sendings at once make one (makeOnce).
 */
export function createMasterDictionary(db: Kysely<Database>, input: Omit<NewDictionary, "projectId">): Promise<string> {
  const { id } = input;
  const create = (trx: Kysely<Database>) => createDictionary(trx, { ...input, projectId: null });
  if (!id) return create(db);
  return makeOnce(
    db,
    () => db.selectFrom("dictionaries").selectAll().where("id", "=", id).executeTakeFirst(),
    (made) =>
      sentAgain(made, {
        mine: made.project_id === null && made.company_id === input.companyId && made.updated_by === input.userId,
        same: made.application_id === input.applicationId && made.name === input.name && (made.description ?? null) === (input.description ?? null),
        what: `the data dictionary ${made.name}`,
      }),
    create,
  );
}

/** The dictionary's name, version and counts, without its tables. */
export async function getDictionarySummary(db: Kysely<Database>, id: string): Promise<DictionarySummary | undefined> {
  const summary = await selectSummaries(db).where("d.id", "=", id).executeTakeFirst();
  return summary && toSummary(summary);
}

export type DictionarySearch = {
  companyId: string;
  applicationId?: string | undefined;
  name?: string | undefined;
  sort: DictionarySort;
  page: number;
  pageSize: number;
};

/**
 * Each sort's columns, in order: the last ones break ties, so consecutive pages never overlap or skip.
 * A name sorts in natural order ("Paging 2" before "Paging 10"), ties by the name as written.
 */
const SORT_COLUMNS = {
  name: ["d.name_sort", "d.name", "a.name_sort"],
  application: ["a.name_sort", "d.name_sort", "d.name"],
  updatedAt: ["d.updated_at", "d.name_sort", "d.name"],
} as const;

/**
 * One page of a company's master dictionaries (never project copies), optionally of one
 * application, with their table and column counts: filtered, sorted, counted and paginated in SQL.
 */
export async function searchDictionaries(db: Kysely<Database>, search: DictionarySearch): Promise<{ items: DictionarySummary[]; total: number; page: number; pageSize: number }> {
  let rows = selectSummaries(db).where("d.company_id", "=", search.companyId).where("d.project_id", "is", null);
  let count = db
    .selectFrom("dictionaries as d")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("d.company_id", "=", search.companyId)
    .where("d.project_id", "is", null);
  if (search.applicationId) {
    rows = rows.where("d.application_id", "=", search.applicationId);
    count = count.where("d.application_id", "=", search.applicationId);
  }
  const nameFilter = nameKeyContains("d.name_key", search.name);
  if (nameFilter) {
    rows = rows.where(nameFilter);
    count = count.where(nameFilter);
  }
  const { key, direction } = sortOf<keyof typeof SORT_COLUMNS>(search.sort);
  for (const column of SORT_COLUMNS[key]) rows = rows.orderBy(column, direction);
  const items = await rows
    .orderBy("d.id", direction)
    .limit(search.pageSize)
    .offset((search.page - 1) * search.pageSize)
    .execute();
  const total = await totalOf(items.length, search, () => count.executeTakeFirstOrThrow());
  return { items: items.map(toSummary), total, page: search.page, pageSize: search.pageSize };
}

export type DictionaryUpdate = VersionedWrite & { name: string; description: string | null };

/** Renames and re-describes the dictionary, based on `expectedVersion`; answers the new version. */
export async function updateDictionary(db: Kysely<Database>, id: string, update: DictionaryUpdate): Promise<number> {
  return inTransaction(db, async (trx) => {
    const version = await bumpVersion(trx, id, update);
    const ref = await trx.selectFrom("dictionaries").select(["company_id", "application_id", "project_id"]).where("id", "=", id).executeTakeFirstOrThrow();
    const key = nameKey(update.name);
    if (ref.project_id === null && (await masterNameTaken(trx, ref.company_id, ref.application_id, key, id))) {
      throw new DuplicateNameError("name", DUPLICATE_DICTIONARY_MESSAGE);
    }
    await trx
      .updateTable("dictionaries")
      .set({ name: update.name, name_key: key, name_sort: naturalSortKey(update.name), description: update.description })
      .where("id", "=", id)
      .execute();
    return version;
  });
}

/** Counts for a project's wizard: a table without columns blocks it (SetupAddColumnsIncomplete). */
export async function dictionaryStats(db: Kysely<Database>, id: string) {
  const row = await db
    .selectFrom("dictionaries as d")
    .select((eb) => [
      "d.version",
      tableCount(eb).as("table_count"),
      columnCount(eb).as("column_count"),
      eb
        .selectFrom("dictionary_tables as t")
        .select(eb.fn.countAll<number | string>().as("n"))
        .whereRef("t.dictionary_id", "=", "d.id")
        .where((w) => w.not(w.exists(w.selectFrom("dictionary_columns as c").select("c.id").whereRef("c.table_id", "=", "t.id"))))
        .as("empty_table_count"),
    ])
    .where("d.id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    version: row.version,
    tableCount: Number(row.table_count ?? 0),
    columnCount: Number(row.column_count ?? 0),
    emptyTableCount: Number(row.empty_table_count ?? 0),
  };
}

async function masterNameTaken(db: Kysely<Database>, companyId: string, applicationId: string, key: string, exceptId?: string) {
  let query = db
    .selectFrom("dictionaries")
    .select("id")
    .where("company_id", "=", companyId)
    .where("application_id", "=", applicationId)
    .where("project_id", "is", null)
    .where("name_key", "=", key);
  if (exceptId) query = query.where("id", "!=", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

type DictionaryEb = ExpressionBuilder<Database & { d: Database["dictionaries"] }, "d">;

// Counted in SQL per row, so a list is one query however many dictionaries it holds.
function tableCount(eb: DictionaryEb) {
  return eb.selectFrom("dictionary_tables as t").select(eb.fn.countAll<number | string>().as("n")).whereRef("t.dictionary_id", "=", "d.id");
}

function columnCount(eb: DictionaryEb) {
  return eb
    .selectFrom("dictionary_columns as c")
    .innerJoin("dictionary_tables as t", "t.id", "c.table_id")
    .select(eb.fn.countAll<number | string>().as("n"))
    .whereRef("t.dictionary_id", "=", "d.id");
}

function selectSummaries(db: Kysely<Database>) {
  return db
    .selectFrom("dictionaries as d")
    .innerJoin("applications as a", "a.id", "d.application_id")
    .select((eb) => [
      "d.id",
      "d.company_id",
      "d.application_id",
      "a.name as application_name",
      "d.name",
      "d.description",
      "d.updated_at",
      "d.version",
      tableCount(eb).as("table_count"),
      columnCount(eb).as("column_count"),
    ]);
}

type SummaryRow = {
  id: string;
  company_id: string;
  application_id: string;
  application_name: string;
  name: string;
  description: string | null;
  updated_at: string;
  version: number;
  table_count: number | string | null;
  column_count: number | string | null;
};

function toSummary(row: SummaryRow): DictionarySummary {
  return {
    id: row.id,
    companyId: row.company_id,
    applicationId: row.application_id,
    applicationName: row.application_name,
    name: row.name,
    description: row.description,
    tableCount: Number(row.table_count ?? 0),
    columnCount: Number(row.column_count ?? 0),
    updatedAt: row.updated_at,
    version: Number(row.version),
  };
}
