import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * Many rows into one table in one statement with ONE parameter: the rows as a JSON array of arrays,
 * unpacked by the database (SQLite's json_each, PostgreSQL's json_array_elements). A query builder's
 * multi-row insert makes a node per value and compiles a new statement text for every batch size:
 * for the hundreds of thousands of staged rows of a big upload that was most of the request's time
 * and garbage (long collector pauses on the event loop). This statement's text is the same for
 * every batch, so SQLite's statement cache keeps it, and building it costs one JSON.stringify.
 *
 * Column names are constants of the code (they go into the SQL as identifiers); values are data.
 */
export type BulkColumn = { name: string; type: "text" | "integer" };

/** What a NUL character of stored text becomes: U+2400 SYMBOL FOR NULL. */
export const NUL_SHOWN = "\u2400";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function insertJsonRows(db: Kysely<any>, table: string, columns: readonly BulkColumn[], rows: readonly (readonly unknown[])[]): Promise<void> {
  if (rows.length === 0) return;
  const { from, cell } = jsonRowsOf(db, rows);
  const names = sql.join(columns.map((c) => sql.ref(c.name)));
  await sql`insert into ${sql.table(table)} (${names}) select ${sql.join(columns.map(cell))} from ${from}`.execute(db);
}

/**
 * Many rows of one table changed in one statement, the same way: each JSON row holds the values of
 * `key` (which row) and then those of `columns` (what it becomes), among the rows where `scope`'s
 * column equals its value. One statement, one text whatever the count: a run's thousand step
 * results are one write rather than a thousand.
 */
export async function updateJsonRows(...args: Parameters<typeof updateJsonRowsQuery>): Promise<void> {
  const [db, , , , , rows] = args;
  if (rows.length === 0) return;
  await updateJsonRowsQuery(...args).execute(db);
}

/**
 * updateJsonRows' statement. On SQLite the JSON rows are read first, once (a materialized CTE named as
 * their source, so cell() reads them the same), and each row is then looked up by its key: joined in one
 * go, SQLite put the table's rows in scope outside and read the whole JSON again for each of them (a
 * run's 200 step results: 40,000 JSON rows read, some 30 ms). PostgreSQL plans the join itself.
 */
export function updateJsonRowsQuery(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  table: string,
  scope: { name: string; value: string },
  key: readonly BulkColumn[],
  columns: readonly BulkColumn[],
  rows: readonly (readonly unknown[])[],
) {
  const { from, cell, alias } = jsonRowsOf(db, rows);
  const set = sql.join(columns.map((c, i) => sql`${sql.ref(c.name)} = ${cell(c, key.length + i)}`));
  const matches = sql.join(
    key.map((c, i) => sql`${sql.ref(`${table}.${c.name}`)} = ${cell(c, i)}`),
    sql` and `,
  );
  const where = sql`where ${sql.ref(`${table}.${scope.name}`)} = ${scope.value} and ${matches}`;
  if (db.getExecutor().adapter instanceof PostgresAdapter) return sql`update ${sql.table(table)} set ${set} from ${from} ${where}`;
  return sql`with ${sql.raw(alias)} as materialized (select * from ${from}) update ${sql.table(table)} set ${set} from ${sql.raw(alias)} ${where}`;
}

/**
 * The rows as one JSON parameter, unpacked by the database (`from`), and the SQL value of a row's
 * i-th cell (`cell`): PostgreSQL's json_array_elements, its integers cast; SQLite's json_each, whose
 * ->> answers SQL values (text, integer with true/false as 1/0, or NULL).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function jsonRowsOf(db: Kysely<any>, rows: readonly (readonly unknown[])[]) {
  let json = JSON.stringify(rows);
  // PostgreSQL's text holds no NUL (its json ->> refuses one): a NUL that reaches storage (a rejected
  // line of a file, say) is kept as ␀, on both engines, so that it shows where it was. Looked for in
  // the JSON first: only rows that hold one pay for the second pass.
  if (json.includes("\\u0000")) json = JSON.stringify(rows, (_, value: unknown) => (typeof value === "string" ? value.replaceAll("\u0000", NUL_SHOWN) : value));
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    return {
      alias: "x",
      from: sql`json_array_elements(${json}::json) as x`,
      cell: (c: BulkColumn, i: number) => sql.raw(`(x ->> ${i})${c.type === "integer" ? "::bigint" : ""}`),
    };
  }
  return { alias: "v", from: sql`json_each(${json}) as v`, cell: (_: BulkColumn, i: number) => sql.raw(`v.value ->> ${i}`) };
}
