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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function insertJsonRows(db: Kysely<any>, table: string, columns: readonly BulkColumn[], rows: readonly (readonly unknown[])[]): Promise<void> {
  if (rows.length === 0) return;
  const json = JSON.stringify(rows);
  const names = sql.join(columns.map((c) => sql.ref(c.name)));
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const values = sql.join(columns.map((c, i) => sql.raw(`(x ->> ${i})${c.type === "integer" ? "::bigint" : ""}`)));
    await sql`insert into ${sql.table(table)} (${names}) select ${values} from json_array_elements(${json}::json) as x`.execute(db);
  } else {
    // ->> answers SQL values: text, integer (true/false as 1/0) or NULL.
    const values = sql.join(columns.map((_, i) => sql.raw(`value ->> ${i}`)));
    await sql`insert into ${sql.table(table)} (${names}) select ${values} from json_each(${json})`.execute(db);
  }
}
