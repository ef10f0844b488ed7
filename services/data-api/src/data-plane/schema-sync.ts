/**
 * A workspace's databases following its dictionary (issue 9 §2, decision 017). One mechanism for
 * every kind of edit: each schema's catalog is compared with the dictionary and the difference
 * becomes DDL (add or drop a table or a column, rename a table the dictionary renamed — it keeps its
 * id —, change a type, a column's NOT NULL, the key). Before anything runs, what it would lose is
 * measured in SQL, one scan per table: values in dropped columns, rows in dropped tables, values a
 * new type would round (losses: applied once confirmed), and values a new type cannot hold, nulls in
 * a column made required, rows without a value for a new required column, duplicates of a new key
 * (blockers: never applied, since the DDL would fail or invent values).
 *
 * Only tables the project's owner role owns are the dictionary's: in `destination`, tables that
 * scripts or SQL users make (owned by their logins) are left alone. All of it runs on the
 * project's runner as its owner role, in one transaction over both schemas: all or nothing.
 */
import type pg from "pg";
import { ApiProblem } from "../api-problem.ts";
import { DATA_LOSS_CODE, SCHEMA_CHANGE_REFUSED_CODE, formatColumnType } from "../../../../contracts/dictionary.ts";
import { PROJECT_DATABASE_KINDS, type ProjectDatabaseKind } from "../../../../contracts/values/configurations.ts";
import { DATE_ORDER_FORMS, type DateOrder } from "../../../../contracts/values/flat-files.ts";
import { asProjectOwner, rolesOf } from "./project-databases.ts";
import {
  catalogType,
  columnDefinition,
  createTableStatement,
  dateOrderStatement,
  postgresType,
  quoteIdentifier as q,
  type DdlColumn,
  type DdlTable,
} from "./postgres-ddl.ts";
import type { DataPlane } from "./servers.ts";

export type CatalogColumn = { name: string; type: string; notNull: boolean };
export type CatalogTable = { name: string; columns: CatalogColumn[]; key: string[]; keyConstraint: string | null };

/** A table of the dictionary as the edit leaves it, with the name it had before when the edit renamed it. */
/** A column of the dictionary as the edit leaves it, with the name it had before when the edit renamed it (columns keep their ids). */
export type WantedColumn = DdlColumn & { formerName?: string | undefined };
export type WantedTable = DdlTable & { formerName?: string | undefined; columns: readonly WantedColumn[] };

/** A column of a table both have. `current`: its name in the catalog (what measuring reads); `name`: the dictionary's. */
type ColumnChange =
  | { kind: "add"; column: DdlColumn }
  | { kind: "drop"; current: string }
  | { kind: "rename"; current: string; name: string }
  | { kind: "type"; current: string; from: string; column: DdlColumn }
  | { kind: "notNull"; current: string; name: string; notNull: boolean };

export type TableChange =
  | { kind: "create"; table: DdlTable }
  | { kind: "drop"; current: string }
  | { kind: "alter"; current: string; name: string; columns: ColumnChange[]; key: { drop: string | null; add: string[] } | null };

const lower = (name: string) => name.toLowerCase();
const notNullOf = (column: DdlColumn) => !column.nullable || column.isKey;

/** The changes that make `catalog` (one schema) match `wanted`: drops first, then changes, then new tables. */
export function planSchemaChanges(catalog: readonly CatalogTable[], allWanted: readonly WantedTable[]): TableChange[] {
  // A table without columns is a draft of the dictionary (the wizard's SetupAddColumnsIncomplete):
  // the databases get it with its first column.
  const wanted = allWanted.filter((t) => t.columns.length > 0);
  const matched = matchByName(catalog, wanted);
  const claimed = new Set(matched.values());
  const drops: TableChange[] = catalog.filter((t) => !claimed.has(t)).map((t) => ({ kind: "drop", current: t.name }));
  const alters: TableChange[] = [];
  const creates: TableChange[] = [];
  for (const table of wanted) {
    const current = matched.get(table);
    if (!current) {
      creates.push({ kind: "create", table });
      continue;
    }
    const change = alterOf(current, table);
    if (change.name !== change.current || change.columns.length > 0 || change.key) alters.push(change);
  }
  return [...drops, ...alters, ...creates];
}

/**
 * Which of the catalog's tables (or a table's columns) each of the dictionary's is, by name in any case.
 * A renamed one's rows (values) are under the name it had: claimed by that first, so that nothing new
 * under its old name takes them. Each of the catalog's is claimed once; one left out is dropped.
 */
function matchByName<W extends { name: string; formerName?: string | undefined }, C extends { name: string }>(
  catalog: readonly C[],
  wanted: readonly W[],
): Map<W, C> {
  const byName = new Map(catalog.map((c) => [lower(c.name), c]));
  const matched = new Map<W, C>();
  const claimed = new Set<C>();
  for (const nameOf of [(w: W) => w.formerName, (w: W) => w.name])
    for (const w of wanted) {
      const name = nameOf(w);
      const found = name === undefined ? undefined : byName.get(lower(name));
      if (!found || claimed.has(found) || matched.has(w)) continue;
      matched.set(w, found);
      claimed.add(found);
    }
  return matched;
}

function alterOf(current: CatalogTable, table: WantedTable): Extract<TableChange, { kind: "alter" }> {
  const matched = matchByName(current.columns, table.columns);
  const kept = new Set<string>();
  const columns: ColumnChange[] = [];
  for (const column of table.columns) {
    const found = matched.get(column);
    if (!found) {
      columns.push({ kind: "add", column });
      continue;
    }
    kept.add(lower(found.name));
    if (found.name !== column.name) columns.push({ kind: "rename", current: found.name, name: column.name });
    if (found.type !== catalogType(column)) columns.push({ kind: "type", current: found.name, from: found.type, column });
    if (found.notNull !== notNullOf(column)) columns.push({ kind: "notNull", current: found.name, name: column.name, notNull: notNullOf(column) });
  }
  for (const column of current.columns) if (!kept.has(lower(column.name))) columns.push({ kind: "drop", current: column.name });
  const wantedKey = table.columns.filter((c) => c.isKey).map((c) => c.name);
  const sameKey = wantedKey.length === current.key.length && wantedKey.every((name, i) => lower(name) === lower(current.key[i]!));
  return { kind: "alter", current: current.name, name: table.name, columns, key: sameKey ? null : { drop: current.keyConstraint, add: wantedKey } };
}

/** What a change would lose (applied once confirmed) and what it cannot do (never applied). */
export type SchemaReport = { statements: string[]; losses: string[]; blockers: string[] };

/**
 * One count over a table and what it means when it is not zero (or, with nonNullOf, a type change's count of values).
 * `examples`: a condition whose first values (`examples.of`) the finding quotes, read only when the count is not zero.
 */
type Probe = {
  sql: string;
  says?: (n: number, where: string, examples: readonly string[]) => { loss: string } | { blocker: string };
  nonNullOf?: string;
  examples?: { of: string; where: string };
};

/** Values a finding quotes, at most, each cut to its first characters. */
const EXAMPLES_QUOTED = 3;
const EXAMPLE_CHARS = 40;
const quoted = (examples: readonly string[]) =>
  examples.length === 0
    ? ""
    : `, such as ${examples.map((e) => JSON.stringify(e.length > EXAMPLE_CHARS ? `${e.slice(0, EXAMPLE_CHARS)}…` : e)).join(examples.length === 2 ? " and " : ", ")}`;

/**
 * The function telling whether a text is a valid input of a type, (text, type name) → boolean: PostgreSQL's
 * own pg_input_is_valid from PostgreSQL 16; before it, INPUT_CHECK_FALLBACK, made for the session.
 */
export type ServerAbilities = { inputCheck: string };

/** pg_input_is_valid for a server older than PostgreSQL 16: the cast tried, its data exception caught (a subtransaction per value). */
const INPUT_CHECK_FALLBACK = "pg_temp.dt_input_is_valid";
const INPUT_CHECK_FALLBACK_DDL = `CREATE OR REPLACE FUNCTION ${INPUT_CHECK_FALLBACK}(value text, type text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('SELECT %L::%s', value, type);
  RETURN true;
EXCEPTION WHEN data_exception THEN
  RETURN false;
END $$`;

const count = (n: number) => n.toLocaleString("en-US");
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;
const values = (n: number) => plural(n, "value", "values");

const NUMBER_TYPES = /^(smallint|integer|bigint|real|double precision|numeric(\(\d+,\d+\))?)$/;
const TEXT_TYPES = /^(text|character varying(\(\d+\))?)$/;
const DATE_TYPES = new Set(["date", "time", "datetime"]);
const WHOLE_RANGES: Record<string, [string, string]> = { integer: ["-2147483648", "2147483647"], bigint: ["-9223372036854775808", "9223372036854775807"] };

/**
 * The probes of a type change: values a narrower type cannot hold (blockers) or would round
 * (losses). Text to another type is probed with PostgreSQL's own input check (pg_input_is_valid, or
 * the same made for the session before PostgreSQL 16): the values that would not convert, counted and
 * quoted. Conversions not listed here (a date to text…) have no probe: the DDL casts, and a value that
 * does not convert fails it with PostgreSQL's message.
 */
function typeProbes(table: string, change: Extract<ColumnChange, { kind: "type" }>, server: ServerAbilities | null, dateOrder: DateOrder): Probe[] {
  const col = q(change.current);
  const name = `${change.column.name} of ${table}`;
  const { from, column } = change;
  const target = postgresType(column);
  const numeric = NUMBER_TYPES.test(from);
  const fromScale = /^numeric\(\d+,(\d+)\)$/.exec(from)?.[1];
  const probes: Probe[] = [];
  if (column.type !== "nvarchar" && TEXT_TYPES.test(from) && server) {
    // Text to a number, a date, a uuid: the values the cast would refuse, counted and quoted, rather
    // than PostgreSQL's refusal of the first one it meets (which names neither the column nor how many).
    // Dates are read in the workspace's date order (followDictionary sets it), as its loads read them.
    const refused = `${col} is not null and not ${server.inputCheck}(${col}::text, '${target}')`;
    const order = DATE_TYPES.has(column.type) ? ` (dates read as ${DATE_ORDER_FORMS[dateOrder]}, as the loads read them)` : "";
    probes.push({
      sql: `count(*) filter (where ${refused})`,
      examples: { of: `${col}::text`, where: refused },
      says: (n, where, examples) => ({
        blocker: `Changing ${name} to ${formatColumnType(column)} would not convert ${values(n)} ${where}${quoted(examples)}${order}: correct them and load again, or keep the type`,
      }),
    });
    if (column.type === "decimal") {
      const scale = column.scale ?? 0;
      probes.push({
        sql: `count(*) filter (where case when ${server.inputCheck}(${col}::text, 'numeric') then ${col}::numeric <> round(${col}::numeric, ${scale}) end)`,
        says: (n, where) => ({ loss: `Changing ${name} to ${plural(scale, "decimal", "decimals")} rounds ${values(n)} ${where}` }),
      });
    }
  } else if (column.type === "nvarchar" && column.length != null) {
    const text = from === "text" || from.startsWith("character varying");
    probes.push({
      sql: `count(*) filter (where char_length(${col}::text) > ${column.length})`,
      says: (n, where) => ({
        blocker: `${text ? "Narrowing" : "Changing"} ${name} to ${plural(column.length!, "character", "characters")} would cut ${values(n)} ${where}`,
      }),
    });
  } else if (WHOLE_RANGES[target] && numeric) {
    const [min, max] = WHOLE_RANGES[target]!;
    if (!(target === "bigint" && /^(smallint|integer)$/.test(from)) && from !== target) {
      probes.push({
        sql: `count(*) filter (where round(${col}::numeric) < ${min} or round(${col}::numeric) > ${max})`,
        says: (n, where) => ({ blocker: `Changing ${name} to ${column.type} would not fit ${values(n)} ${where}: they are out of its range` }),
      });
    }
    if (/^(real|double precision|numeric)/.test(from)) {
      probes.push({
        sql: `count(*) filter (where ${col}::numeric <> trunc(${col}::numeric))`,
        says: (n, where) => ({ loss: `Changing ${name} to ${column.type} rounds ${values(n)} to whole numbers ${where}` }),
      });
    }
  } else if (column.type === "decimal" && numeric) {
    const precision = column.precision ?? 18;
    const scale = column.scale ?? 0;
    probes.push({
      sql: `count(*) filter (where abs(round(${col}::numeric, ${scale})) >= power(10::numeric, ${precision - scale}))`,
      says: (n, where) => ({
        blocker: `Changing ${name} to decimal(${precision},${scale}) would not fit ${values(n)} ${where}: they have more than ${plural(precision - scale, "digit", "digits")} before the decimal point`,
      }),
    });
    if (/^(real|double precision)$/.test(from) || (fromScale !== undefined && Number(fromScale) > scale)) {
      probes.push({
        sql: `count(*) filter (where ${col}::numeric <> round(${col}::numeric, ${scale}))`,
        says: (n, where) => ({ loss: `Changing ${name} to ${plural(scale, "decimal", "decimals")} rounds ${values(n)} ${where}` }),
      });
    }
  } else if (column.type === "float" && /^(bigint|numeric)/.test(from)) {
    probes.push({
      sql: `count(*) filter (where ${col}::double precision::numeric <> ${col}::numeric)`,
      says: (n, where) => ({ loss: `Changing ${name} to float changes ${values(n)} ${where} (a float keeps about 15 significant digits)` }),
    });
  } else if (column.type === "date" && from.startsWith("timestamp")) {
    probes.push({
      sql: `count(*) filter (where ${col}::time <> '00:00')`,
      says: (n, where) => ({ loss: `Changing ${name} to date drops the time of day of ${values(n)} ${where}` }),
    });
  } else if (column.type === "time" && from.startsWith("timestamp")) {
    probes.push({ sql: `count(${col})`, says: (n, where) => ({ loss: `Changing ${name} to time drops the date of ${values(n)} ${where}` }) });
  }
  return probes;
}

/**
 * Compares one schema's catalog with the dictionary, measures what the changes would lose and
 * answers the DDL. Reads only: nothing is changed here.
 */
export async function compareSchema(
  client: pg.ClientBase,
  kind: ProjectDatabaseKind,
  owner: string,
  wanted: readonly WantedTable[],
  server: ServerAbilities | null = null,
  dateOrder: DateOrder = "YMD",
): Promise<SchemaReport> {
  const catalog = await readCatalog(client, kind, owner);
  const changes = planSchemaChanges(catalog, wanted);
  const where = `in the ${kind} database`;
  const report: SchemaReport = { statements: [], losses: [], blockers: [] };
  const schema = q(kind);
  for (const change of changes) {
    if (change.kind === "create") {
      report.statements.push(createTableStatement(kind, change.table));
      continue;
    }
    const from = `${schema}.${q(change.current)}`;
    if (change.kind === "drop") {
      for (const { probe, n } of await countOf(client, from, [
        { sql: "count(*)", says: (n, where) => ({ loss: `Dropping table ${change.current} deletes ${plural(n, "row", "rows")} ${where}` }) },
      ])) {
        addFinding(report, probe, n, where);
      }
      report.statements.push(`DROP TABLE ${from}`);
      continue;
    }
    const table = change.name;
    // Counted before any DDL, so by the catalog's names, in one scan of the table.
    const probes: Probe[] = [];
    for (const column of change.columns) {
      if (column.kind === "drop") {
        probes.push({
          sql: `count(${q(column.current)})`,
          says: (n, where) => ({ loss: `Dropping column ${column.current} of ${table} deletes ${values(n)} ${where}` }),
        });
      } else if (column.kind === "type") {
        probes.push({ sql: `count(${q(column.current)})`, nonNullOf: column.current }, ...typeProbes(table, column, server, dateOrder));
      } else if (column.kind === "notNull" && column.notNull) {
        probes.push({
          sql: `count(*) filter (where ${q(column.current)} is null)`,
          says: (n, where) => ({ blocker: `Making ${column.name} of ${table} required fails: ${plural(n, "row has", "rows have")} no value in it ${where}` }),
        });
      } else if (column.kind === "add" && notNullOf(column.column)) {
        probes.push({
          sql: "count(*)",
          says: (n, where) => ({
            blocker: `The new required column ${column.column.name} of ${table} would have no value in its ${plural(n, "row", "rows")} ${where}: add it as optional, load its values, then make it required`,
          }),
        });
      }
    }
    // Each type change's non-null count decides its USING clause (alterStatements).
    const nonNull = new Map<string, number>();
    for (const { probe, n } of await countOf(client, from, probes)) {
      if (probe.nonNullOf !== undefined) nonNull.set(probe.nonNullOf, n);
      else addFinding(report, probe, n, where, n > 0 && probe.examples ? await examplesOf(client, from, probe.examples) : []);
    }
    if (change.key && change.key.add.length > 0) {
      const currentNames = new Map(change.columns.filter((c) => c.kind === "rename").map((c) => [lower(c.name), c.current]));
      const existing = new Set((catalog.find((t) => t.name === change.current)?.columns ?? []).map((c) => lower(c.name)));
      const keyColumns = change.key.add.map((name) => currentNames.get(lower(name)) ?? name);
      if (keyColumns.every((name) => existing.has(lower(name)))) {
        const list = keyColumns.map(q).join(", ");
        const { rows } = await client.query<{ n: string }>(`select count(*) as n from (select 1 from ${from} group by ${list} having count(*) > 1) d`);
        const n = Number(rows[0]!.n);
        if (n > 0)
          report.blockers.push(
            `Making ${change.key.add.join(", ")} the key of ${table} fails: ${plural(n, "value appears", "values appear")} more than once ${where}`,
          );
      }
    }
    report.statements.push(...alterStatements(kind, change, nonNull));
  }
  return report;
}

async function countOf(client: pg.ClientBase, from: string, probes: readonly Probe[]): Promise<{ probe: Probe; n: number }[]> {
  if (probes.length === 0) return [];
  const { rows } = await client.query({ text: `select ${probes.map((p) => p.sql).join(", ")} from ${from}`, rowMode: "array" });
  const counts = rows[0] as (string | number)[];
  return probes.map((probe, i) => ({ probe, n: Number(counts[i]) }));
}

/** The first few distinct values a finding quotes. */
async function examplesOf(client: pg.ClientBase, from: string, examples: NonNullable<Probe["examples"]>): Promise<string[]> {
  const { rows } = await client.query<{ v: string }>(
    `select v from (select distinct ${examples.of} as v from ${from} where ${examples.where}) d order by v limit ${EXAMPLES_QUOTED}`,
  );
  return rows.map((r) => r.v);
}

function addFinding(report: SchemaReport, probe: Probe, n: number, where: string, examples: readonly string[] = []) {
  const said = n > 0 ? probe.says?.(n, where, examples) : undefined;
  if (!said) return;
  if ("blocker" in said) report.blockers.push(said.blocker);
  else report.losses.push(said.loss);
}

/** The DDL of one table's changes, in an order where each statement finds what it names. */
function alterStatements(kind: ProjectDatabaseKind, change: Extract<TableChange, { kind: "alter" }>, nonNull: ReadonlyMap<string, number>): string[] {
  const statements: string[] = [];
  let table = `${q(kind)}.${q(change.current)}`;
  const alter = (what: string) => statements.push(`ALTER TABLE ${table} ${what}`);
  // The key first: dropping one of its columns would drop it anyway, and a renamed key column keeps it.
  if (change.key?.drop) alter(`DROP CONSTRAINT ${q(change.key.drop)}`);
  if (change.name !== change.current) {
    alter(`RENAME TO ${q(change.name)}`);
    table = `${q(kind)}.${q(change.name)}`;
  }
  // Drops before renames: a column may take the name of one the same edit removes.
  for (const c of change.columns) if (c.kind === "drop") alter(`DROP COLUMN ${q(c.current)}`);
  const nameOf = new Map<string, string>();
  const renames = change.columns.filter((c) => c.kind === "rename");
  // Names swapped between columns (or one taking the name another leaves) go by a name of their own first.
  const leaving = new Set(renames.map((c) => lower(c.current)));
  const viaSpare = renames.some((c) => lower(c.name) !== lower(c.current) && leaving.has(lower(c.name)));
  // (A name no dictionary column can have: identifiers hold no "~".)
  const spare = (i: number) => `~renaming~${i}`;
  if (viaSpare) renames.forEach((c, i) => alter(`RENAME COLUMN ${q(c.current)} TO ${q(spare(i))}`));
  renames.forEach((c, i) => {
    alter(`RENAME COLUMN ${q(viaSpare ? spare(i) : c.current)} TO ${q(c.name)}`);
    nameOf.set(c.current, c.name);
  });
  for (const c of change.columns) {
    if (c.kind !== "type") continue;
    const col = q(nameOf.get(c.current) ?? c.current);
    const type = postgresType(c.column);
    // An empty column takes any type; text types take the assignment cast, which refuses a value too
    // long rather than cutting it (an explicit ::varchar(n) would cut it).
    if ((nonNull.get(c.current) ?? 1) === 0) alter(`ALTER COLUMN ${col} TYPE ${type} USING NULL`);
    else if (c.column.type === "nvarchar") alter(`ALTER COLUMN ${col} TYPE ${type}`);
    else alter(`ALTER COLUMN ${col} TYPE ${type} USING ${col}::${type}`);
  }
  for (const c of change.columns) if (c.kind === "notNull") alter(`ALTER COLUMN ${q(c.name)} ${c.notNull ? "SET" : "DROP"} NOT NULL`);
  for (const c of change.columns) if (c.kind === "add") alter(`ADD COLUMN ${columnDefinition(c.column)}`);
  if (change.key && change.key.add.length > 0) alter(`ADD PRIMARY KEY (${change.key.add.map(q).join(", ")})`);
  return statements;
}

/** The tables of one schema that the project's owner role owns (the dictionary's), with their columns and key. */
async function readCatalog(client: pg.ClientBase, kind: ProjectDatabaseKind, owner: string): Promise<CatalogTable[]> {
  const { rows } = await client.query<{ table_name: string; column_name: string; type: string; not_null: boolean }>(
    `select c.relname as table_name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null
       from pg_class c join pg_attribute a on a.attrelid = c.oid
      where c.relnamespace = $1::regnamespace and c.relkind in ('r', 'p') and c.relowner = $2::regrole
        and a.attnum > 0 and not a.attisdropped
      order by c.relname, a.attnum`,
    [kind, owner],
  );
  const { rows: keys } = await client.query<{ table_name: string; constraint_name: string; columns: string[] }>(
    `select c.relname as table_name, con.conname as constraint_name,
            array(select a.attname from unnest(con.conkey) with ordinality k(attnum, n) join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum order by k.n)::text[] as columns
       from pg_constraint con join pg_class c on c.oid = con.conrelid
      where con.contype = 'p' and c.relnamespace = $1::regnamespace and c.relowner = $2::regrole`,
    [kind, owner],
  );
  const tables = new Map<string, CatalogTable>();
  for (const row of rows) {
    let table = tables.get(row.table_name);
    if (!table) tables.set(row.table_name, (table = { name: row.table_name, columns: [], key: [], keyConstraint: null }));
    table.columns.push({ name: row.column_name, type: row.type, notNull: row.not_null });
  }
  for (const key of keys) {
    const table = tables.get(key.table_name);
    if (table) Object.assign(table, { key: key.columns, keyConstraint: key.constraint_name });
  }
  return [...tables.values()];
}

export const DATA_LOSS_MESSAGE =
  "This change deletes data from the databases, so nothing was changed. Send it again with confirmDataLoss=true to apply it and delete:";
export const SCHEMA_CHANGE_REFUSED_MESSAGE = "The databases cannot follow this change, so nothing was changed:";

/** What a confirmation cannot lift (the DDL would fail or invent values), then what it can. */
export function refuseUnlessConfirmed(report: SchemaReport, confirmDataLoss: boolean) {
  if (report.blockers.length > 0) throw new ApiProblem(409, SCHEMA_CHANGE_REFUSED_CODE, SCHEMA_CHANGE_REFUSED_MESSAGE, undefined, report.blockers);
  if (report.losses.length > 0 && !confirmDataLoss) throw new ApiProblem(409, DATA_LOSS_CODE, DATA_LOSS_MESSAGE, undefined, report.losses);
}

/** The input check of the server `client` is on: made for the session (in pg_temp, by a role with TEMP) when the server has none (before PostgreSQL 16). */
async function serverAbilities(client: pg.ClientBase): Promise<ServerAbilities> {
  const { rows } = await client.query<{ v: number }>("select current_setting('server_version_num')::int as v");
  if (rows[0]!.v >= 160000) return { inputCheck: "pg_input_is_valid" };
  await client.query(INPUT_CHECK_FALLBACK_DDL);
  return { inputCheck: INPUT_CHECK_FALLBACK };
}

/**
 * Compares both schemas of the project's database with `wanted` as its owner role; with `apply`,
 * refuses what would lose data unless confirmed (refuseUnlessConfirmed) and runs the DDL, all in one
 * transaction. Answers the report of both schemas.
 */
export async function followDictionary(
  dataPlane: DataPlane,
  serverId: string,
  projectId: string,
  wanted: readonly WantedTable[],
  options: { apply: boolean; confirmDataLoss: boolean; dateOrder?: DateOrder },
): Promise<SchemaReport> {
  const { owner } = rolesOf(projectId);
  const dateOrder = options.dateOrder ?? "YMD";
  return asProjectOwner(dataPlane, serverId, projectId, async (client) => {
    // As the runner, which may make what the session keeps (the owner role may not).
    const server = await serverAbilities(client);
    // As the owner role itself, so new tables are the owner's and get its default grants (reader, writer).
    await client.query(`SET LOCAL ROLE ${q(owner)}`);
    await client.query(dateOrderStatement(dateOrder));
    const report: SchemaReport = { statements: [], losses: [], blockers: [] };
    for (const kind of PROJECT_DATABASE_KINDS) {
      const one = await compareSchema(client, kind, owner, wanted, server, dateOrder);
      report.statements.push(...one.statements);
      report.losses.push(...one.losses);
      report.blockers.push(...one.blockers);
    }
    if (!options.apply) return report;
    refuseUnlessConfirmed(report, options.confirmDataLoss);
    for (const statement of report.statements) await client.query(statement);
    return report;
  });
}
