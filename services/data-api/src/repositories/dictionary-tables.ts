import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Column, ColumnInput, ColumnType, Table, TableInput, TableSummary } from "../../../../contracts/dictionary.ts";
import { ApiProblem, DuplicateNameError, NotFoundError, validationProblem } from "../api-problem.ts";
import type { Database } from "../db/schema.ts";
import type { DictionaryColumnsTable } from "../db/schema-dictionaries.ts";
import { escapeLike, inTransaction, isUniqueViolation, nameKey, toFlag, totalOf } from "./db-helpers.ts";
import { bumpVersion, type VersionedWrite } from "./dictionary-version.ts";
import { claimForTypeChange, mapProblemForType, sameColumnType } from "./value-maps.ts";

/**
 * Tables and columns of a dictionary (master or a project's copy). Every write runs in one
 * transaction that starts with the dictionary's compare-and-bump (bumpVersion): a stale version
 * changes nothing, and every successful write moves the version and updated_at on.
 */

export const TABLE_NOT_FOUND_MESSAGE = "Table not found.";
export const DUPLICATE_TABLE_MESSAGE = "A table with this name already exists in this dictionary";

/** Adds a table (with its columns) after the last one; answers its id and the new version. */
export async function createTable(db: Kysely<Database>, dictionaryId: string, input: TableInput, write: VersionedWrite) {
  assertUniqueColumnNames(input.columns);
  return inTransaction(db, async (trx) => {
    const version = await bumpVersion(trx, dictionaryId, write);
    await assertTableNameFree(trx, dictionaryId, input.name);
    const last = await trx
      .selectFrom("dictionary_tables")
      .select((eb) => eb.fn.max("position").as("position"))
      .where("dictionary_id", "=", dictionaryId)
      .executeTakeFirst();
    const tableId = randomUUID();
    await withTableNameConstraint(() =>
      trx
        .insertInto("dictionary_tables")
        .values({
          id: tableId,
          dictionary_id: dictionaryId,
          name: input.name,
          name_key: nameKey(input.name),
          description: input.description,
          position: Number(last?.position ?? 0) + 1,
        })
        .execute(),
    );
    await writeColumns(trx, tableId, input.columns, write);
    return { tableId, version };
  });
}

/**
 * Replaces a table's name, description and columns (in the given order). A column named by its id, or
 * whose name stays (any case), keeps its id, so links to it survive; the others are added or removed.
 */
export async function updateTable(db: Kysely<Database>, dictionaryId: string, tableId: string, input: TableInput, write: VersionedWrite) {
  assertUniqueColumnNames(input.columns);
  return inTransaction(db, async (trx) => {
    const version = await bumpVersion(trx, dictionaryId, write);
    await requireTable(trx, dictionaryId, tableId);
    await assertTableNameFree(trx, dictionaryId, input.name, tableId);
    await withTableNameConstraint(() =>
      trx
        .updateTable("dictionary_tables")
        .set({ name: input.name, name_key: nameKey(input.name), description: input.description })
        .where("id", "=", tableId)
        .execute(),
    );
    await writeColumns(trx, tableId, input.columns, write);
    return { version };
  });
}

/** Removes a table and its columns; the tables after it keep their relative order. */
export async function deleteTable(db: Kysely<Database>, dictionaryId: string, tableId: string, write: VersionedWrite) {
  return inTransaction(db, async (trx) => {
    const version = await bumpVersion(trx, dictionaryId, write);
    await requireTable(trx, dictionaryId, tableId);
    await trx.deleteFrom("dictionary_tables").where("id", "=", tableId).execute();
    return { version };
  });
}

/**
 * Replaces every table of `toDictionaryId` with copies of those of `fromDictionaryId` (new ids, same
 * order): a project taking a master dictionary. Based on the target's expected version.
 */
export async function copyTables(db: Kysely<Database>, fromDictionaryId: string, toDictionaryId: string, write: VersionedWrite) {
  return inTransaction(db, async (trx) => {
    const version = await bumpVersion(trx, toDictionaryId, write);
    const tables = await readTables(trx, fromDictionaryId);
    await trx.deleteFrom("dictionary_tables").where("dictionary_id", "=", toDictionaryId).execute();
    for (const table of tables) {
      const tableId = randomUUID();
      await trx
        .insertInto("dictionary_tables")
        .values({
          id: tableId,
          dictionary_id: toDictionaryId,
          name: table.name,
          name_key: nameKey(table.name),
          description: table.description,
          position: table.order,
        })
        .execute();
      await insertColumns(trx, tableId, table.columns);
    }
    return { version };
  });
}

/** One table of a file, as a bulk upload describes it: its columns replace the table's. */
export type DesiredTable = { name: string; columns: ColumnInput[] };

/** Who writes a table's columns, and when: the maps of columns whose type changes record it (claimForTypeChange). */
export type ColumnsWriter = Pick<VersionedWrite, "userId" | "now">;

/**
 * Writes tables by name (any case): an existing table gets the given columns (ids kept by name, its
 * own name and description kept); a new one is appended. Tables not given are left alone. Runs in
 * the caller's transaction, which has bumped the version (a bulk upload's apply).
 */
export async function upsertTables(trx: Kysely<Database>, dictionaryId: string, tables: readonly DesiredTable[], writer: ColumnsWriter) {
  const existing = await trx.selectFrom("dictionary_tables").select(["id", "name_key", "position"]).where("dictionary_id", "=", dictionaryId).execute();
  const byKey = new Map(existing.map((t) => [t.name_key, t.id]));
  let position = existing.reduce((max, t) => Math.max(max, Number(t.position)), 0);
  for (const table of tables) {
    assertUniqueColumnNames(table.columns);
    let tableId = byKey.get(nameKey(table.name));
    if (!tableId) {
      tableId = randomUUID();
      position += 1;
      await trx
        .insertInto("dictionary_tables")
        .values({ id: tableId, dictionary_id: dictionaryId, name: table.name, name_key: nameKey(table.name), description: null, position })
        .execute();
      byKey.set(nameKey(table.name), tableId);
    }
    await writeColumns(trx, tableId, table.columns, writer, table.name);
  }
}

/** How many tables a batch of tablesInBatches holds (with their columns): a few hundred KB at most. */
export const TABLES_PER_BATCH = 200;

/**
 * Every table of the dictionary in order, each with its columns in order, `batch` tables at a time
 * (keyset on position and id, two queries a batch): the whole dictionary's answer streams these, and
 * never holds more than one batch.
 */
export async function* tablesInBatches(db: Kysely<Database>, dictionaryId: string, batch = TABLES_PER_BATCH): AsyncGenerator<Table[]> {
  let after: { position: number; id: string } | undefined;
  for (;;) {
    const last = after;
    const tables = await db
      .selectFrom("dictionary_tables")
      .select(["id", "name", "description", "position"])
      .where("dictionary_id", "=", dictionaryId)
      .$if(last !== undefined, (q) =>
        q.where((eb) => eb.or([eb("position", ">", last!.position), eb.and([eb("position", "=", last!.position), eb("id", ">", last!.id)])])),
      )
      .orderBy("position")
      .orderBy("id")
      .limit(batch)
      .execute();
    if (tables.length === 0) return;
    const columns = await columnsOf(db, tables);
    yield tables.map((t) => ({ id: t.id, name: t.name, description: t.description, order: Number(t.position), columns: columns.get(t.id) ?? [] }));
    if (tables.length < batch) return;
    const end = tables[tables.length - 1]!;
    after = { position: end.position, id: end.id };
  }
}

/** Every table of the dictionary in order, each with its columns: for work that needs them all at once (a database's DDL). */
export async function readTables(db: Kysely<Database>, dictionaryId: string): Promise<Table[]> {
  const all: Table[] = [];
  for await (const tables of tablesInBatches(db, dictionaryId)) all.push(...tables);
  return all;
}

/**
 * The dictionary's tables named (any case) in `names`, each with its columns, by name key: a check of
 * what a request names (a flat file's column widths) reads those tables, not the whole dictionary.
 * `TABLES_PER_BATCH` names a query.
 */
export async function tablesNamed(db: Kysely<Database>, dictionaryId: string, names: readonly string[]): Promise<Map<string, Table>> {
  const keys = [...new Set(names.map(nameKey))];
  const found = new Map<string, Table>();
  for (let start = 0; start < keys.length; start += TABLES_PER_BATCH) {
    const tables = await db
      .selectFrom("dictionary_tables")
      .select(["id", "name", "name_key", "description", "position"])
      .where("dictionary_id", "=", dictionaryId)
      .where("name_key", "in", keys.slice(start, start + TABLES_PER_BATCH))
      .execute();
    if (tables.length === 0) continue;
    const columns = await columnsOf(db, tables);
    for (const t of tables)
      found.set(t.name_key, { id: t.id, name: t.name, description: t.description, order: Number(t.position), columns: columns.get(t.id) ?? [] });
  }
  return found;
}

/** The columns of some tables, in order, by table id: one query. */
async function columnsOf(db: Kysely<Database>, tables: readonly { id: string }[]): Promise<Map<string, Column[]>> {
  const rows = await db
    .selectFrom("dictionary_columns")
    .selectAll()
    .where(
      "table_id",
      "in",
      tables.map((t) => t.id),
    )
    .orderBy("position")
    .orderBy("id")
    .execute();
  const byTable = new Map<string, Column[]>(tables.map((t) => [t.id, []]));
  for (const row of rows) byTable.get(row.table_id)?.push(toColumn(row));
  return byTable;
}

export async function getTable(db: Kysely<Database>, dictionaryId: string, tableId: string): Promise<Table | undefined> {
  const table = await db
    .selectFrom("dictionary_tables")
    .select(["id", "name", "description", "position"])
    .where("id", "=", tableId)
    .where("dictionary_id", "=", dictionaryId)
    .executeTakeFirst();
  if (!table) return undefined;
  const columns = await columnsOf(db, [table]);
  return { id: table.id, name: table.name, description: table.description, order: Number(table.position), columns: columns.get(table.id) ?? [] };
}

export type TablesQuery = { name?: string | undefined; page: number; pageSize: number; columns?: "none" | "all" };

/** A page of the dictionary's tables (name contains `name`, any case), in order, with column counts. */
export async function listTables(db: Kysely<Database>, dictionaryId: string, query: TablesQuery) {
  let base = db.selectFrom("dictionary_tables as t").where("t.dictionary_id", "=", dictionaryId);
  const contains = query.name?.trim().toLowerCase();
  if (contains) base = base.where(sql<boolean>`${sql.ref("t.name_key")} like ${`%${escapeLike(contains)}%`} escape '\\'`);
  const rows = await base
    .select((eb) => [
      "t.id",
      "t.name",
      "t.description",
      "t.position",
      eb.selectFrom("dictionary_columns as c").select(eb.fn.countAll<number | string>().as("n")).whereRef("c.table_id", "=", "t.id").as("column_count"),
    ])
    .orderBy("t.position")
    .orderBy("t.id")
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  const total = await totalOf(rows.length, query, () => base.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow());
  const items: (TableSummary & { columns?: Column[] })[] = rows.map((r) => ({
    id: r.id,
    name: r.name,
    description: r.description,
    order: Number(r.position),
    columnCount: Number(r.column_count ?? 0),
  }));
  if (query.columns === "all" && items.length) {
    const columns = await columnsOf(db, items);
    for (const item of items) item.columns = columns.get(item.id) ?? [];
  }
  return { items, total, page: query.page, pageSize: query.pageSize };
}

/**
 * Makes the table's columns exactly `columns`, in order, keeping the ids of names that stay. `fromFile`:
 * the table's name when a bulk update's file gives the columns (a refusal names the table, as no field
 * of a form is there to show it at).
 */
async function writeColumns(trx: Kysely<Database>, tableId: string, columns: readonly ColumnInput[], writer: ColumnsWriter, fromFile?: string) {
  const existing = await trx.selectFrom("dictionary_columns").selectAll().where("table_id", "=", tableId).execute();
  const matched = matchColumns(existing, columns);
  await assertMapsFitTypes(trx, columns, matched, writer, fromFile);
  const kept = new Set([...matched.values()].map((c) => c.id));
  const gone = existing.filter((c) => !kept.has(c.id)).map((c) => c.id);
  if (gone.length > 0) await trx.deleteFrom("dictionary_columns").where("id", "in", gone).execute();
  // Renamed columns first take a name no column has (their id): a swap of two names, or a name another
  // renamed column leaves, would otherwise meet the unique name for a moment.
  const renamed = new Set([...matched].filter(([column, row]) => nameKey(column.name) !== row.name_key).map(([, row]) => row));
  for (const row of renamed)
    await trx
      .updateTable("dictionary_columns")
      .set({ name_key: `renaming:${row.id}` })
      .where("id", "=", row.id)
      .execute();
  const added: DictionaryColumnsTable[] = [];
  for (const [index, column] of columns.entries()) {
    const values = columnValues(column, index + 1);
    const current = matched.get(column);
    if (!current) added.push({ id: randomUUID(), table_id: tableId, ...values });
    // Only what differs is written: a bulk update mostly repeats what is there.
    else if (renamed.has(current) || differs(current, values)) await trx.updateTable("dictionary_columns").set(values).where("id", "=", current.id).execute();
  }
  await insertRows(trx, added);
}

/**
 * A column whose type, length, precision or scale changes keeps its value map (a mapping project's):
 * a change its default value or a target no longer fits is refused at the column's type (400), as
 * the map's own page refuses such a value, rather than left for a translation to write it anyway.
 */
async function assertMapsFitTypes(
  trx: Kysely<Database>,
  columns: readonly ColumnInput[],
  matched: ReadonlyMap<ColumnInput, DictionaryColumnsTable>,
  writer: ColumnsWriter,
  fromFile: string | undefined,
) {
  const changed = columns.flatMap((column, index) => {
    const row = matched.get(column);
    const after = columnValues(column, index + 1);
    return row && !sameColumnType(row, after) ? [{ index, column, row, after }] : [];
  });
  if (changed.length === 0) return;
  // One statement for the table (most dictionaries have no maps at all: a bulk update's thousands of columns ask nothing
  // more), which moves the maps' versions on before they are read: a write to a map checked against the type before
  // (another tab's, or an import's previewed before) is refused as stale rather than left to add a value the type does not fit.
  const ids = changed.map(({ row }) => row.id);
  const mapped = await claimForTypeChange(trx, ids, writer);
  for (const { index, column, row, after } of changed) {
    if (!mapped.has(row.id)) continue;
    const ddl = { name: column.name, type: column.type, length: after.length, precision: after.precision, scale: after.scale, nullable: true, isKey: false };
    const problem = await mapProblemForType(trx, row.id, ddl);
    if (problem && fromFile !== undefined) throw new ApiProblem(400, "validation_failed", `${fromFile}.${column.name}: ${problem}`);
    if (problem) throw validationProblem({ [`columns.${index}.type`]: [`${column.name}: ${problem}`] });
  }
}

/**
 * Which of the table's columns each input column is: the one whose id it names (a column renamed in
 * the table's form keeps its id, its links and, in the workspace's databases, its values), else the one
 * of its name (any case). An id of no column of this table names nothing.
 */
function matchColumns(existing: readonly DictionaryColumnsTable[], columns: readonly ColumnInput[]): Map<ColumnInput, DictionaryColumnsTable> {
  const byId = new Map(existing.map((c) => [c.id, c]));
  const byKey = new Map(existing.map((c) => [c.name_key, c]));
  const matched = new Map<ColumnInput, DictionaryColumnsTable>();
  const claimed = new Set<DictionaryColumnsTable>();
  const claim = (column: ColumnInput, row: DictionaryColumnsTable | undefined) => {
    if (!row || claimed.has(row) || matched.has(column)) return;
    matched.set(column, row);
    claimed.add(row);
  };
  for (const column of columns) claim(column, column.id === undefined ? undefined : byId.get(column.id));
  for (const column of columns) claim(column, byKey.get(nameKey(column.name)));
  return matched;
}

function differs(row: DictionaryColumnsTable, values: ReturnType<typeof columnValues>) {
  return (Object.keys(values) as (keyof typeof values)[]).some(
    (k) => (k === "nullable" || k === "is_key" || k === "position" ? Number(row[k]) : row[k]) !== values[k],
  );
}

async function insertColumns(trx: Kysely<Database>, tableId: string, columns: readonly (ColumnInput | Column)[]) {
  await insertRows(
    trx,
    columns.map((c, i) => ({ id: randomUUID(), table_id: tableId, ...columnValues(c, i + 1) })),
  );
}

// Bounded batches: SQLite allows a limited number of bound parameters per statement.
const INSERT_BATCH = 200;

async function insertRows(trx: Kysely<Database>, rows: DictionaryColumnsTable[]) {
  for (let i = 0; i < rows.length; i += INSERT_BATCH) {
    await trx
      .insertInto("dictionary_columns")
      .values(rows.slice(i, i + INSERT_BATCH))
      .execute();
  }
}

function columnValues(c: ColumnInput | Column, position: number) {
  return {
    name: c.name,
    name_key: nameKey(c.name),
    type: c.type,
    length: c.length ?? null,
    precision: c.precision ?? null,
    scale: c.scale ?? null,
    nullable: toFlag(c.nullable),
    is_key: toFlag(c.isKey),
    description: c.description ?? null,
    position,
  };
}

function toColumn(row: DictionaryColumnsTable): Column {
  return {
    id: row.id,
    name: row.name,
    type: row.type as ColumnType,
    length: row.length,
    precision: row.precision,
    scale: row.scale,
    nullable: Number(row.nullable) === 1,
    isKey: Number(row.is_key) === 1,
    description: row.description,
    order: Number(row.position),
  };
}

async function requireTable(trx: Kysely<Database>, dictionaryId: string, tableId: string) {
  const found = await trx.selectFrom("dictionary_tables").select("id").where("id", "=", tableId).where("dictionary_id", "=", dictionaryId).executeTakeFirst();
  if (!found) throw new NotFoundError(TABLE_NOT_FOUND_MESSAGE);
}

async function assertTableNameFree(trx: Kysely<Database>, dictionaryId: string, name: string, exceptTableId?: string) {
  let query = trx.selectFrom("dictionary_tables").select("id").where("dictionary_id", "=", dictionaryId).where("name_key", "=", nameKey(name));
  if (exceptTableId) query = query.where("id", "!=", exceptTableId);
  if (await query.executeTakeFirst()) throw new DuplicateNameError("name", DUPLICATE_TABLE_MESSAGE);
}

/** The constraint is the authority when two writers race past the check above. */
async function withTableNameConstraint<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw new DuplicateNameError("name", DUPLICATE_TABLE_MESSAGE);
    throw err;
  }
}

/** The request schema already refuses duplicates; this keeps callers that skip it honest. */
function assertUniqueColumnNames(columns: readonly ColumnInput[]) {
  const seen = new Set<string>();
  for (const [index, column] of columns.entries()) {
    const key = nameKey(column.name);
    if (seen.has(key)) {
      const message = `Duplicate column ${column.name}`;
      throw new ApiProblem(400, "validation_failed", message, { [`columns.${index}.name`]: [message] });
    }
    seen.add(key);
  }
}
