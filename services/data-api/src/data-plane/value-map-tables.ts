/**
 * A workspace's value maps as tables (issue 12): when a migration project or onboarding configuration
 * names a translation mapping project, each translated column of that mapping project is a table of
 * the workspace's database, `maps.<table>_<column>` (lower case; source_value text primary key,
 * target_value text), holding the mapped pairs. Its scripts join them:
 *
 *   update destination.employees e set grade = m.target_value from maps.employees_grade m where m.source_value = e.grade;
 *
 * Written again as every run starts, under its lock (so a run sees the maps as they are), in one
 * transaction: the schema is dropped and made anew, owned by the project's owner, readable by its
 * reader and runner. A workspace that names no mapping project has no `maps` schema.
 */
import type { Kysely } from "kysely";
import type { Database } from "../db/schema.ts";
import { valuesAfter } from "../repositories/value-maps.ts";
import { databaseNameOf, inTransaction, rolesOf } from "./project-databases.ts";
import { quoteIdentifier } from "./postgres-ddl.ts";
import type { DataPlane } from "./servers.ts";

export const MAPS_SCHEMA = "maps";
/** PostgreSQL's longest identifier. */
const NAME_MAX = 63;
const PAGE = 5_000;

/** The table of a translated column in schema `maps`: "<table>_<column>", lower case, at most 63 characters. */
export function mapTableName(table: string, column: string): string {
  return `${table}_${column}`.toLowerCase().slice(0, NAME_MAX);
}

/** The mapping project's translated columns, with their tables' names. */
export function translatedColumnsOf(db: Kysely<Database>, mappingProjectId: string) {
  return db
    .selectFrom("value_map_columns as m")
    .innerJoin("dictionary_columns as c", "c.id", "m.column_id")
    .innerJoin("dictionary_tables as t", "t.id", "c.table_id")
    .select(["m.column_id", "c.name as column_name", "t.name as table_name"])
    .where("m.project_id", "=", mappingProjectId)
    .where("m.translate", "=", 1)
    .orderBy("t.position")
    .orderBy("c.position")
    .execute();
}

/**
 * Writes schema `maps` of the workspace's database from `mappingProjectId`'s value maps (null: the
 * schema goes, the workspace names no mapping project). Answers the tables written.
 */
export async function refreshValueMapTables(
  db: Kysely<Database>,
  dataPlane: DataPlane,
  target: { serverId: string; projectId: string },
  mappingProjectId: string | null,
): Promise<string[]> {
  const q = quoteIdentifier;
  const roles = rolesOf(target.projectId);
  const columns = mappingProjectId ? await translatedColumnsOf(db, mappingProjectId) : [];
  return dataPlane.withAdmin(target.serverId, databaseNameOf(target.projectId), async (client) => {
    const drop = () => client.query(`DROP SCHEMA IF EXISTS ${q(MAPS_SCHEMA)} CASCADE`);
    // No mapping project: the drop alone, a transaction of its own, one round trip (every run of such a workspace asks it).
    if (!mappingProjectId) {
      await drop();
      return [];
    }
    return inTransaction(client, async () => {
      await drop();
      await client.query(`CREATE SCHEMA ${q(MAPS_SCHEMA)} AUTHORIZATION ${q(roles.owner)}`);
      await client.query(`SET LOCAL ROLE ${q(roles.owner)}`);
      const written: string[] = [];
      for (const column of columns) {
        const name = mapTableName(column.table_name, column.column_name);
        if (written.includes(name)) continue;
        written.push(name);
        const table = `${q(MAPS_SCHEMA)}.${q(name)}`;
        await client.query(`CREATE TABLE ${table} (source_value text PRIMARY KEY, target_value text NOT NULL)`);
        // A page of pairs at a time: neither the map nor a statement is ever the whole of it.
        let after: string | null = null;
        for (;;) {
          const rows = await valuesAfter(db, column.column_id, after, PAGE);
          const mapped = rows.filter((r) => r.target_value !== null);
          if (mapped.length) {
            await client.query(`INSERT INTO ${table} SELECT * FROM unnest($1::text[], $2::text[])`, [
              mapped.map((r) => r.source_value),
              mapped.map((r) => r.target_value),
            ]);
          }
          if (rows.length < PAGE) break;
          after = rows[rows.length - 1]!.source_value;
        }
      }
      await client.query(`GRANT USAGE ON SCHEMA ${q(MAPS_SCHEMA)} TO ${q(roles.reader)}`);
      await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${q(MAPS_SCHEMA)} TO ${q(roles.reader)}`);
      return written;
    });
  });
}
