import { randomUUID } from "node:crypto";
import { PostgresAdapter, sql, type Kysely, type SqlBool } from "kysely";
import type { MappingColumn, MappingTable, ValueMapEntry, ValueMapImport } from "../../../../contracts/mappings.ts";
import type { ColumnType } from "../../../../contracts/dictionary.ts";
import { quotedValue, type UnmappedRule } from "../../../../contracts/values/mappings.ts";
import { formatColumnType } from "../../../../contracts/values/column-type.ts";
import { ApiProblem, NotFoundError, validationProblem } from "../api-problem.ts";
import { cellProblem } from "../data-plane/flat-file/values.ts";
import type { DdlColumn } from "../data-plane/postgres-ddl.ts";
import type { Database } from "../db/schema.ts";
import { escapeLike, inTransaction, toFlag, totalOf } from "./db-helpers.ts";
import { staleSave } from "./stale-saves.ts";

/**
 * Value maps of translation mapping projects (issue 12; migration 0015). A map belongs to a column of
 * the mapping project's own dictionary (its file data structure) and goes with it. Every write to a
 * column's settings or values claims its version, so a write based on a stale read changes nothing.
 */

export const COLUMN_NOT_FOUND_MESSAGE = "Column not found.";
export const TABLE_NOT_FOUND_MESSAGE = "Table not found.";
export const IMPORT_GONE_MESSAGE = "This import was applied or discarded already.";
/**
 * What a stale map write's refusal names: a map's version also moves when its column's type changes
 * (claimForTypeChange), and a write checked against a type the column no longer has is stale too.
 */
const mapOrType = (column: { name: string }) => `the map of ${column.name} or its column's type`;

/**
 * The refusal of a write based on a map version that moved on: `userId`'s own other tab, or someone
 * else. No "reload": the portal's page shows the map as it is now and keeps what was typed, which a
 * reload would throw away; what to do next is the page's to say.
 */
export const staleMap = (db: Kysely<Database>, column: { id: string; name: string }, userId: string): Promise<ApiProblem> =>
  staleSave(db, { table: "value_map_columns", key: "column_id", id: column.id }, userId, mapOrType(column));

type ColumnRow = {
  id: string;
  name: string;
  type: string;
  length: number | null;
  precision: number | null;
  scale: number | null;
  table_id: string;
  table_name: string;
  translate: number | null;
  unmapped_rule: string | null;
  default_value: string | null;
  version: number | null;
  distinct_count: number | string | null;
  mapped_count: number | string | null;
};

/** The columns of the dictionary's tables with their maps' settings and counts. */
function columnsQuery(db: Kysely<Database>, dictionaryId: string) {
  return db
    .selectFrom("dictionary_columns as c")
    .innerJoin("dictionary_tables as t", "t.id", "c.table_id")
    .leftJoin("value_map_columns as m", "m.column_id", "c.id")
    .select((eb) => [
      "c.id",
      "c.name",
      "c.type",
      "c.length",
      "c.precision",
      "c.scale",
      "t.id as table_id",
      "t.name as table_name",
      "m.translate",
      "m.unmapped_rule",
      "m.default_value",
      "m.version",
      eb.selectFrom("value_map_values as v").select(eb.fn.countAll<number>().as("n")).whereRef("v.column_id", "=", "c.id").as("distinct_count"),
      eb
        .selectFrom("value_map_values as v")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("v.column_id", "=", "c.id")
        .where("v.target_value", "is not", null)
        .as("mapped_count"),
    ])
    .where("t.dictionary_id", "=", dictionaryId);
}

const orNumber = (value: number | string | null) => (value === null ? null : Number(value));

type ColumnTypeOf = { type: string; length: number | string | null; precision: number | string | null; scale: number | string | null };
/** Whether two columns have the same type, length, precision and scale: what a value map's targets are checked against. */
export const sameColumnType = (a: ColumnTypeOf, b: ColumnTypeOf) =>
  a.type === b.type && orNumber(a.length) === orNumber(b.length) && orNumber(a.precision) === orNumber(b.precision) && orNumber(a.scale) === orNumber(b.scale);

function toColumn(row: ColumnRow): MappingColumn {
  return {
    id: row.id,
    name: row.name,
    type: row.type as ColumnType,
    length: orNumber(row.length),
    precision: orNumber(row.precision),
    scale: orNumber(row.scale),
    translate: Number(row.translate ?? 0) === 1,
    unmappedRule: (row.unmapped_rule ?? "Keep") as UnmappedRule,
    defaultValue: row.default_value,
    distinctCount: Number(row.distinct_count ?? 0),
    mappedCount: Number(row.mapped_count ?? 0),
    // A column whose map was never written is at version 0.
    version: Number(row.version ?? 0),
  };
}

/** The dictionary's columns whose value maps hold values, with their tables' names and their counts. */
export async function columnsWithValues(db: Kysely<Database>, dictionaryId: string): Promise<(MappingColumn & { tableName: string })[]> {
  const rows = (await columnsQuery(db, dictionaryId)
    .where((eb) => eb.exists(eb.selectFrom("value_map_values as v").select("v.column_id").whereRef("v.column_id", "=", "c.id")))
    .orderBy("t.name")
    .orderBy("c.position")
    .execute()) as ColumnRow[];
  return rows.map((row) => ({ ...toColumn(row), tableName: row.table_name }));
}

/** A table of the dictionary with its columns in the file's order, or undefined. */
export async function findMappingTable(db: Kysely<Database>, dictionaryId: string, tableId: string): Promise<MappingTable | undefined> {
  const rows = (await columnsQuery(db, dictionaryId).where("t.id", "=", tableId).orderBy("c.position").execute()) as ColumnRow[];
  if (rows.length > 0) return { id: tableId, name: rows[0]!.table_name, columns: rows.map(toColumn) };
  const table = await db
    .selectFrom("dictionary_tables")
    .select(["id", "name"])
    .where("id", "=", tableId)
    .where("dictionary_id", "=", dictionaryId)
    .executeTakeFirst();
  return table && { id: table.id, name: table.name, columns: [] };
}

/** A column with its map, and its type as a value's check needs it (a target must fit the column). */
export type MappingColumnRef = { column: MappingColumn; tableId: string; tableName: string; ddl: DdlColumn };

/** A column of the dictionary with its map's settings, or undefined (another dictionary's answers undefined too). */
export async function findMappingColumn(db: Kysely<Database>, dictionaryId: string, columnId: string): Promise<MappingColumnRef | undefined> {
  const row = (await columnsQuery(db, dictionaryId).where("c.id", "=", columnId).executeTakeFirst()) as ColumnRow | undefined;
  if (!row) return undefined;
  const column = toColumn(row);
  const ddl: DdlColumn = {
    name: row.name,
    type: row.type as DdlColumn["type"],
    length: column.length,
    precision: orNumber(row.precision),
    scale: orNumber(row.scale),
    // A target is a value: never empty (an empty target unmaps), whatever the column allows.
    nullable: true,
    isKey: false,
  };
  return { column, tableId: row.table_id, tableName: row.table_name, ddl };
}

/** The translated columns of a table, for samples and translations. */
export async function translatedColumns(db: Kysely<Database>, dictionaryId: string, tableId: string): Promise<MappingColumn[]> {
  const table = await findMappingTable(db, dictionaryId, tableId);
  return table?.columns.filter((c) => c.translate) ?? [];
}

type Writer = { projectId: string; userId: string; now?: Date };

/** Why `target` cannot be a value of the column, or null: a map's editor, its import and its apply say it alike. */
export function targetProblem(ref: MappingColumnRef, target: string): string | null {
  const problem = cellProblem(ref.ddl, target);
  return problem && `The target value "${target.slice(0, 60)}" for ${ref.column.name}: ${problem}`;
}

/**
 * The column's dictionary and its type as they are now, read in a map write's `trx` before it claims the map's
 * version. On PostgreSQL it holds the dictionary's row FOR SHARE until the write ends: a table save, which moves the
 * dictionary's version first, waits for the write, and the write for a save under way, whose type it then reads. So
 * a map never written (no settings row for claimForTypeChange to move) is not written with a target checked against
 * a type that a save is changing meanwhile, and every map write takes its locks after the dictionary's, as a table
 * save does. SQLite runs writes one at a time.
 */
async function columnTypeNow(trx: Kysely<Database>, columnId: string) {
  const postgres = trx.getExecutor().adapter instanceof PostgresAdapter;
  return trx
    .selectFrom("dictionary_columns as c")
    .innerJoin("dictionary_tables as t", "t.id", "c.table_id")
    .innerJoin("dictionaries as d", "d.id", "t.dictionary_id")
    .select(["d.id as dictionary_id", "c.type", "c.length", "c.precision", "c.scale"])
    .where("c.id", "=", columnId)
    .$if(postgres, (q) => q.modifyEnd(sql`for share of d`))
    .executeTakeFirst();
}

/**
 * Moves the column's map from `expectedVersion` to the next, creating its settings row at version 1
 * when it has none (version 0); a stale version is a ConflictError and nothing is written.
 */
async function claimVersion(trx: Kysely<Database>, ref: MappingColumnRef, expectedVersion: number, writer: Writer): Promise<number> {
  const now = await columnTypeNow(trx, ref.column.id);
  if (!now) throw new NotFoundError(COLUMN_NOT_FOUND_MESSAGE);
  // Checked against a type the column no longer has (changed since the write read it, before this lock): stale, as
  // a map whose version the type change moved is; the dictionary's row says who changed it.
  if (!sameColumnType(now, ref.ddl)) {
    throw await staleSave(trx, { table: "dictionaries", key: "id", id: now.dictionary_id }, writer.userId, mapOrType(ref.column));
  }
  const at = (writer.now ?? new Date()).toISOString();
  if (expectedVersion === 0) {
    const inserted = await trx
      .insertInto("value_map_columns")
      .values({
        column_id: ref.column.id,
        project_id: writer.projectId,
        translate: 0,
        unmapped_rule: "Keep",
        default_value: null,
        version: 1,
        updated_at: at,
        updated_by: writer.userId,
      })
      .onConflict((oc) => oc.column("column_id").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) throw await staleMap(trx, ref.column, writer.userId);
    return 1;
  }
  const updated = await trx
    .updateTable("value_map_columns")
    .set({ version: sql`version + 1`, updated_at: at, updated_by: writer.userId })
    .where("column_id", "=", ref.column.id)
    .where("version", "=", expectedVersion)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) throw await staleMap(trx, ref.column, writer.userId);
  return expectedVersion + 1;
}

/**
 * Moves the maps of `columnIds` (those that have one) to their next version for a change of their
 * columns' types, in the table's save `trx`, answering the ids of the columns that have a map. A write
 * to one of these maps based on an earlier version (its values checked against the type before, or an
 * import previewed before) is then refused as stale; on PostgreSQL a write under way holds its map's
 * row, so this waits for it to end, and the map read after it holds its values.
 */
export async function claimForTypeChange(trx: Kysely<Database>, columnIds: readonly string[], writer: Pick<Writer, "userId" | "now">): Promise<Set<string>> {
  const claimed = await trx
    .updateTable("value_map_columns")
    .set({ version: sql`version + 1`, updated_at: (writer.now ?? new Date()).toISOString(), updated_by: writer.userId })
    .where("column_id", "in", columnIds)
    .returning("column_id")
    .execute();
  return new Set(claimed.map((r) => r.column_id));
}

/** How many of a map's values mapProblemForType reads at a time. */
export const MAP_CHECK_PAGE = 1_000;

/**
 * Why the column's value map would no longer fit it with the type `ddl` (a type, length, precision or
 * scale change of the file data structure's column), or null: its default value, then its targets,
 * checked as a target typed on the map is (cellProblem). A column of a dictionary with no maps has none.
 */
export async function mapProblemForType(db: Kysely<Database>, columnId: string, ddl: DdlColumn): Promise<string | null> {
  const type = formatColumnType(ddl);
  const settings = await db.selectFrom("value_map_columns").select("default_value").where("column_id", "=", columnId).executeTakeFirst();
  const defaultValue = settings?.default_value ?? null;
  const defaultProblem = defaultValue === null ? null : cellProblem(ddl, defaultValue);
  if (defaultProblem) {
    return `The default value ${quotedValue(defaultValue!)} of the column's value map does not fit ${type}: ${defaultProblem}. Change it on the value map first, or keep the type.`;
  }
  // A page of the map at a time (a map may hold hundreds of thousands of values), every page read: the refusal counts them.
  let count = 0;
  let first: { source: string; target: string; problem: string } | undefined;
  for (let after: string | null = null; ;) {
    const rows = await valuesAfter(db, columnId, after, MAP_CHECK_PAGE);
    for (const { source_value: source, target_value: target } of rows) {
      const problem = target === null ? null : cellProblem(ddl, target);
      if (!problem) continue;
      count += 1;
      first ??= { source, target: target!, problem };
    }
    if (rows.length < MAP_CHECK_PAGE) break;
    after = rows[rows.length - 1]!.source_value;
  }
  if (!first) return null;
  const example = `${quotedValue(first.source)} → ${quotedValue(first.target)}: ${first.problem}`;
  return count === 1
    ? `A target value of the column's value map does not fit ${type}: ${example}. Change it on the value map first, or keep the type.`
    : `${count.toLocaleString("en-US")} target values of the column's value map do not fit ${type}, e.g. ${example}. Change them on the value map first, or keep the type.`;
}

export type ColumnSettings = { translate: boolean; unmappedRule: UnmappedRule; defaultValue: string | null };

export async function saveColumnSettings(db: Kysely<Database>, ref: MappingColumnRef, expectedVersion: number, settings: ColumnSettings, writer: Writer) {
  return inTransaction(db, async (trx) => {
    await claimVersion(trx, ref, expectedVersion, writer);
    await trx
      .updateTable("value_map_columns")
      .set({ translate: toFlag(settings.translate), unmapped_rule: settings.unmappedRule, default_value: settings.defaultValue })
      .where("column_id", "=", ref.column.id)
      .execute();
  });
}

export type ValuesQuery = { page: number; pageSize: number; search?: string | undefined; unmapped: boolean };

/** A page of the column's values: unmapped first, then by source value; `search` finds either side (any case). */
export async function listValues(db: Kysely<Database>, columnId: string, query: ValuesQuery) {
  let base = db.selectFrom("value_map_values").where("column_id", "=", columnId);
  if (query.unmapped) base = base.where("target_value", "is", null);
  if (query.search) {
    const pattern = `%${escapeLike(query.search.toLowerCase())}%`;
    base = base.where((eb) =>
      eb.or([eb(sql`lower(source_value)`, "like", sql`${pattern} escape '\\'`), eb(sql`lower(target_value)`, "like", sql`${pattern} escape '\\'`)]),
    );
  }
  const rows = await base
    .select(["source_value", "target_value", "sample_count"])
    .orderBy(sql`case when target_value is null then 0 else 1 end`)
    .orderBy("source_value")
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize)
    .execute();
  const total = await totalOf(rows.length, query, () => base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow());
  const items: ValueMapEntry[] = rows.map((r) => ({ sourceValue: r.source_value, targetValue: r.target_value, count: Number(r.sample_count) }));
  return { items, total, page: query.page, pageSize: query.pageSize };
}

/** Saves pairs (a null target unmaps the value), adding the source values not known yet; all or none. */
export async function saveValues(
  db: Kysely<Database>,
  ref: MappingColumnRef,
  expectedVersion: number,
  values: readonly { sourceValue: string; targetValue: string | null }[],
  writer: Writer,
) {
  return inTransaction(db, async (trx) => {
    const version = await claimVersion(trx, ref, expectedVersion, writer);
    const at = (writer.now ?? new Date()).toISOString();
    for (let i = 0; i < values.length; i += BATCH) {
      await trx
        .insertInto("value_map_values")
        .values(
          values.slice(i, i + BATCH).map((v) => ({
            column_id: ref.column.id,
            source_value: v.sourceValue,
            target_value: v.targetValue,
            sample_count: 0,
            updated_at: at,
            updated_by: writer.userId,
          })),
        )
        .onConflict((oc) =>
          oc.columns(["column_id", "source_value"]).doUpdateSet((eb) => ({
            target_value: eb.ref("excluded.target_value"),
            updated_at: eb.ref("excluded.updated_at"),
            updated_by: eb.ref("excluded.updated_by"),
          })),
        )
        .execute();
    }
    return version;
  });
}

/** Why "Add" refuses a source value the map holds: it would change a pair the user did not see. */
function valueExistsMessage(sourceValue: string, targetValue: string | null): string {
  const value = quotedValue(sourceValue);
  return targetValue === null
    ? `${value} is already in the list, unmapped: give its target there`
    : `${value} is already mapped (to ${targetValue}): change it in the list`;
}

/**
 * Adds a source value with its target, refusing one the map holds already (409 at `sourceValue`,
 * nothing written) rather than overwriting its pair as saveValues does. The claimed version keeps
 * another write from adding it between the check and the insert.
 */
export async function addValue(
  db: Kysely<Database>,
  ref: MappingColumnRef,
  expectedVersion: number,
  value: { sourceValue: string; targetValue: string | null },
  writer: Writer,
) {
  return inTransaction(db, async (trx) => {
    await claimVersion(trx, ref, expectedVersion, writer);
    const existing = await trx
      .selectFrom("value_map_values")
      .select("target_value")
      .where("column_id", "=", ref.column.id)
      .where("source_value", "=", value.sourceValue)
      .executeTakeFirst();
    if (existing) {
      const message = valueExistsMessage(value.sourceValue, existing.target_value);
      throw new ApiProblem(409, "value_exists", message, { sourceValue: [message] });
    }
    await trx
      .insertInto("value_map_values")
      .values({
        column_id: ref.column.id,
        source_value: value.sourceValue,
        target_value: value.targetValue,
        sample_count: 0,
        updated_at: (writer.now ?? new Date()).toISOString(),
        updated_by: writer.userId,
      })
      .execute();
  });
}

// Bounded batches: SQLite allows a limited number of bound parameters per statement.
const BATCH = 150;

/**
 * Values a sample held, with how often: new ones are added unmapped, known ones only count up; no
 * pair a user made is touched. Runs in the caller's transaction; the caller claimed the version.
 */
export async function addSampleValues(trx: Kysely<Database>, columnId: string, counts: ReadonlyMap<string, number>, writer: Writer) {
  const at = (writer.now ?? new Date()).toISOString();
  const entries = [...counts];
  for (let i = 0; i < entries.length; i += BATCH) {
    await trx
      .insertInto("value_map_values")
      .values(
        entries
          .slice(i, i + BATCH)
          .map(([value, n]) => ({ column_id: columnId, source_value: value, target_value: null, sample_count: n, updated_at: at, updated_by: writer.userId })),
      )
      .onConflict((oc) =>
        oc
          .columns(["column_id", "source_value"])
          .doUpdateSet((eb) => ({ sample_count: sql`${eb.ref("value_map_values.sample_count")} + ${eb.ref("excluded.sample_count")}` })),
      )
      .execute();
  }
}

/** Claims the column's version for a sample's values (addSampleValues), in `trx`. */
export const claimForSample = claimVersion;

/** The column's values by source value, a page at a time after `after` (keyset): an export streams them. */
export function valuesAfter(db: Kysely<Database>, columnId: string, after: string | null, limit: number) {
  let query = db.selectFrom("value_map_values").select(["source_value", "target_value"]).where("column_id", "=", columnId);
  if (after !== null) query = query.where("source_value", ">", after);
  return query.orderBy("source_value").limit(limit).execute();
}

/* ---------- Imports: staged, previewed in SQL, applied on confirmation ---------- */

/** Stages an import's rows (already checked: unique source values, within the limits). Answers its id. */
export async function stageImport(
  db: Kysely<Database>,
  ref: MappingColumnRef,
  input: { fileName: string; userId: string; rows: AsyncIterable<{ line: number; sourceValue: string; targetValue: string | null }> },
  now = new Date(),
): Promise<string> {
  const id = randomUUID();
  return inTransaction(db, async (trx) => {
    await trx
      .insertInto("value_map_imports")
      .values({
        id,
        column_id: ref.column.id,
        base_version: ref.column.version,
        file_name: input.fileName,
        row_count: 0,
        created_by: input.userId,
        created_at: now.toISOString(),
      })
      .execute();
    let count = 0;
    let batch: { import_id: string; line: number; source_value: string; target_value: string | null }[] = [];
    const flush = async () => {
      if (batch.length) await trx.insertInto("value_map_import_rows").values(batch).execute();
      batch = [];
    };
    for await (const row of input.rows) {
      batch.push({ import_id: id, line: row.line, source_value: row.sourceValue, target_value: row.targetValue });
      count++;
      if (batch.length === BATCH) await flush();
    }
    await flush();
    await trx.updateTable("value_map_imports").set({ row_count: count }).where("id", "=", id).execute();
    return id;
  });
}

const SAMPLE = 20;

const text = (value: string) => sql<string>`cast(${value} as text)`;

/** What applying the import would do, counted in SQL: values added, changed, left as they are; with up to 20 of each kind. */
export async function importPreview(db: Kysely<Database>, columnId: string, importId: string): Promise<ValueMapImport | undefined> {
  const header = await db.selectFrom("value_map_imports").selectAll().where("id", "=", importId).where("column_id", "=", columnId).executeTakeFirst();
  if (!header) return undefined;
  const joined = db
    .selectFrom("value_map_import_rows as r")
    .leftJoin("value_map_values as v", (join) => join.onRef("v.source_value", "=", "r.source_value").on("v.column_id", "=", columnId))
    .where("r.import_id", "=", importId);
  // A NULL-safe "differs": both null is the same, one null is a change. Parenthesised as a whole: Kysely
  // joins `where`s with a bare "and", which binds tighter than these "or"s, so without them every
  // waiting import's changed rows (of any column) joined this preview's list of changes.
  const differs = sql<SqlBool>`((v.target_value is null and r.target_value is not null) or (v.target_value is not null and r.target_value is null) or v.target_value <> r.target_value)`;
  const counts = await joined
    .select((eb) => [
      eb.fn.sum<number>(sql`case when v.source_value is null then 1 else 0 end`).as("adds"),
      eb.fn.sum<number>(sql`case when v.source_value is not null and ${differs} then 1 else 0 end`).as("changes"),
    ])
    .executeTakeFirstOrThrow();
  const adds = await joined.select(["r.source_value", "r.target_value"]).where("v.source_value", "is", null).orderBy("r.line").limit(SAMPLE).execute();
  const changes = await joined
    .select(["r.source_value", "r.target_value", "v.target_value as current"])
    .where("v.source_value", "is not", null)
    .where(differs)
    .orderBy("r.line")
    .limit(SAMPLE)
    .execute();
  const added = Number(counts.adds ?? 0);
  const changed = Number(counts.changes ?? 0);
  return {
    id: header.id,
    fileName: header.file_name,
    rowCount: Number(header.row_count),
    adds: added,
    changes: changed,
    unchanged: Number(header.row_count) - added - changed,
    sampleAdds: adds.map((r) => ({ sourceValue: r.source_value, targetValue: r.target_value })),
    sampleChanges: changes.map((r) => ({ sourceValue: r.source_value, from: r.current, to: r.target_value })),
    baseVersion: Number(header.base_version),
  };
}

/** Copies the import into the map (added and changed pairs; counts kept) and drops it; all or none. */
export async function applyImport(db: Kysely<Database>, ref: MappingColumnRef, importId: string, expectedVersion: number, writer: Writer) {
  return inTransaction(db, async (trx) => {
    await claimVersion(trx, ref, expectedVersion, writer);
    // Its targets were checked against the column's type when it was staged, which may have changed since without
    // moving the map's version (a map never written has none to move): checked again against the type now, a page at a time.
    const problem = await importTargetProblem(trx, ref, importId);
    if (problem) throw validationProblem({ file: [problem] });
    const at = (writer.now ?? new Date()).toISOString();
    await trx
      .insertInto("value_map_values")
      .columns(["column_id", "source_value", "target_value", "sample_count", "updated_at", "updated_by"])
      .expression((eb) =>
        eb
          .selectFrom("value_map_import_rows")
          .select([
            // Bound values, typed: PostgreSQL cannot infer a parameter's type in a select list.
            text(ref.column.id).as("column_id"),
            "source_value",
            "target_value",
            sql.lit(0).as("sample_count"),
            text(at).as("updated_at"),
            text(writer.userId).as("updated_by"),
          ])
          // `where` also keeps SQLite from reading ON CONFLICT as part of the SELECT.
          .where("import_id", "=", importId),
      )
      .onConflict((oc) =>
        oc.columns(["column_id", "source_value"]).doUpdateSet((eb) => ({
          target_value: eb.ref("excluded.target_value"),
          updated_at: eb.ref("excluded.updated_at"),
          updated_by: eb.ref("excluded.updated_by"),
        })),
      )
      .execute();
    await trx.deleteFrom("value_map_imports").where("id", "=", importId).execute();
  });
}

/** How many staged rows importTargetProblem reads at a time. */
export const IMPORT_CHECK_PAGE = 1_000;

/** The import's first line (by line) whose target does not fit the column's type `ref.ddl`, worded as its staging words it, or null. */
async function importTargetProblem(trx: Kysely<Database>, ref: MappingColumnRef, importId: string): Promise<string | null> {
  let first: { line: number; problem: string } | undefined;
  for (let after: string | null = null; ;) {
    const rows = await trx
      .selectFrom("value_map_import_rows")
      .select(["line", "source_value", "target_value"])
      .where("import_id", "=", importId)
      .where("target_value", "is not", null)
      .$if(after !== null, (q) => q.where("source_value", ">", after!))
      .orderBy("source_value")
      .limit(IMPORT_CHECK_PAGE)
      .execute();
    for (const row of rows) {
      const line = Number(row.line);
      if (first && first.line < line) continue;
      const problem = targetProblem(ref, row.target_value!);
      if (problem) first = { line, problem };
    }
    if (rows.length < IMPORT_CHECK_PAGE) break;
    after = rows[rows.length - 1]!.source_value;
  }
  return first ? `Line ${first.line}: ${first.problem}` : null;
}

/** Discards a staged import; false when there was none to discard (applied or discarded already). */
export async function discardImport(db: Kysely<Database>, columnId: string, importId: string): Promise<boolean> {
  const result = await db.deleteFrom("value_map_imports").where("id", "=", importId).where("column_id", "=", columnId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
