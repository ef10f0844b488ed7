/**
 * A restore of a project's source database, all or nothing (issue 10): in ONE transaction, a new
 * schema gets the dictionary's tables, each input's rows are COPYed in as the project's owner, and the
 * new schema is swapped for `source` (renames, then the old one dropped). Any error rolls it all back,
 * a killed process too (PostgreSQL ends the transaction with the connection): the source is exactly as
 * it was, and no schema is left behind. The destination is not touched.
 *
 * An administrative connection, with `SET LOCAL ROLE` to the owner for the tables: the project's roles
 * may not create schemas (project-databases.ts). Only this module's own statements run on it.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { databaseNameOf, rolesOf } from "../project-databases.ts";
import { createTableStatement, dateOrderStatement, postgresType, quoteIdentifier, type DdlTable } from "../postgres-ddl.ts";
import type { DataPlane } from "../servers.ts";
import type { DateOrder } from "../../../../../contracts/values/flat-files.ts";
import { countingBytes, reportEverySecond } from "./progress-ticker.ts";
import { RestoreInputProblem, type TableInput } from "./table-input.ts";

export type RestoreOutcome = {
  tables: { table: string; rows: number }[];
  /** Dictionary tables no input had: restored empty. */
  emptyTables: string[];
  /** Input tables the dictionary lacks: left out. */
  leftOutTables: string[];
  /** Input columns the dictionary's table lacks: left out. */
  leftOutColumns: { table: string; column: string }[];
  /** Columns of a restored table the input lacks (a backup from before the dictionary added or renamed them): restored empty. */
  emptyColumns: { table: string; column: string }[];
};

const NEW_SCHEMA = "source_restore";
const OLD_SCHEMA = "source_replaced";

/**
 * PostgreSQL's refusal of a value, as the user reads it: the table, the reason, where. COPY's "line" is
 * the table's CSV record, its header row being 1; the product numbers a file's rows that way everywhere
 * (a load's preview and rejected rows, "on row N" of a file it cannot read) and says "row", so this does
 * too, and says how it counts: "line 3 of its data" read as the third row of data, where it was the second.
 */
function problemOf(table: string, err: unknown): unknown {
  const e = err as { code?: string; message?: string; where?: string };
  if (typeof e?.code !== "string" || !/^(22|23|42)/.test(e.code)) return err;
  const row = /line (\d+)/.exec(e.where ?? "")?.[1];
  return new RestoreInputProblem(`Table "${table}": ${e.message}${row ? ` (row ${row}, the header row being row 1)` : ""}. Nothing was restored.`);
}

/** Dependent objects named in the refusal, at most. */
const DEPENDENTS_NAMED = 5;

/**
 * The swap drops the old `source` schema with CASCADE, which would also drop, without a word, what
 * others built on its tables outside it: views (a SQL credential with Write may make them in
 * `destination`) and foreign keys of other tables. The restore is refused instead, naming them,
 * before anything is read; the user drops or changes them, then restores again.
 */
async function refuseDependents(client: pg.ClientBase) {
  const { rows } = await client.query<{ name: string }>(
    `select distinct format('%I.%I', dn.nspname, dc.relname) as name
       from pg_depend d
       join pg_class sc on sc.oid = d.refobjid and d.refclassid = 'pg_class'::regclass
       join pg_namespace sn on sn.oid = sc.relnamespace
       left join pg_rewrite r on d.classid = 'pg_rewrite'::regclass and r.oid = d.objid
       left join pg_constraint k on d.classid = 'pg_constraint'::regclass and k.oid = d.objid
       join pg_class dc on dc.oid = coalesce(r.ev_class, k.conrelid)
       join pg_namespace dn on dn.oid = dc.relnamespace
      where sn.nspname = 'source' and dn.nspname <> 'source'
      order by 1`,
  );
  if (rows.length === 0) return;
  const named = rows.slice(0, DEPENDENTS_NAMED).map((r) => r.name);
  const more = rows.length > named.length ? ` and ${rows.length - named.length} more` : "";
  throw new RestoreInputProblem(
    `The restore replaces the source tables, and ${rows.length === 1 ? "this object depends" : "these objects depend"} on them: ${named.join(", ")}${more}. Drop ${rows.length === 1 ? "it" : "them"} or make ${rows.length === 1 ? "it" : "them"} read other tables, then restore again. Nothing was restored.`,
  );
}

export async function restoreSource(
  dataPlane: DataPlane,
  serverId: string,
  projectId: string,
  dictionary: readonly DdlTable[],
  inputs: AsyncIterable<TableInput>,
  options: {
    signal?: AbortSignal;
    onProgress?: (bytesDone: number) => Promise<void> | void;
    beforeCommit?: () => Promise<void>;
    /** The workspace's date order: how a date the input holds as text (a backup from before the dictionary made it a date) is read. */
    dateOrder?: DateOrder;
  } = {},
): Promise<RestoreOutcome> {
  const roles = rolesOf(projectId);
  const q = quoteIdentifier;
  const byName = new Map(dictionary.map((t) => [t.name.toLowerCase(), t]));
  const outcome: RestoreOutcome = { tables: [], emptyTables: [], leftOutTables: [], leftOutColumns: [], emptyColumns: [] };
  let done = 0;
  return dataPlane.withAdmin(serverId, databaseNameOf(projectId), async (client: pg.ClientBase) => {
    await client.query("BEGIN");
    try {
      await client.query(dateOrderStatement(options.dateOrder));
      await refuseDependents(client);
      await client.query(`DROP SCHEMA IF EXISTS ${q(NEW_SCHEMA)} CASCADE`);
      await client.query(`CREATE SCHEMA ${q(NEW_SCHEMA)} AUTHORIZATION ${q(roles.owner)}`);
      await client.query(`SET LOCAL ROLE ${q(roles.owner)}`);
      // Keys are added once the rows are in: one index build per table, rather than one insert per row into it.
      for (const table of dictionary) {
        const columns = table.columns.map((c) => ({ ...c, isKey: false, nullable: c.nullable && !c.isKey }));
        await client.query(createTableStatement(NEW_SCHEMA, { ...table, columns }));
      }
      const restored = new Set<string>();
      for await (const input of inputs) {
        options.signal?.throwIfAborted();
        const table = byName.get(input.table.toLowerCase());
        if (!table || restored.has(table.name)) {
          outcome.leftOutTables.push(input.table);
          for await (const _ of input.csv); // read past it (a checksum still checked)
          continue;
        }
        restored.add(table.name);
        const columnOf = new Map(table.columns.map((c) => [c.name.toLowerCase(), c]));
        const matched = input.columns.map((c) => columnOf.get(c.name.toLowerCase()) ?? null);
        for (const [i, c] of input.columns.entries()) if (!matched[i]) outcome.leftOutColumns.push({ table: table.name, column: c.name });
        for (const c of table.columns) if (!matched.includes(c)) outcome.emptyColumns.push({ table: table.name, column: c.name });
        const target = `${q(NEW_SCHEMA)}.${q(table.name)}`;
        const counted = countingBytes((bytes) => (done += bytes));
        const stopReporting = reportEverySecond(options.onProgress && (() => options.onProgress!(done)));
        try {
          if (matched.every(Boolean)) {
            const copy = client.query(copyFrom(`COPY ${target} (${matched.map((c) => q(c!.name)).join(", ")}) FROM STDIN WITH (FORMAT csv, HEADER true)`));
            await pipeline(Readable.from(input.csv), counted, copy, { signal: options.signal });
            outcome.tables.push({ table: table.name, rows: Number((copy as unknown as { rowCount?: number }).rowCount ?? 0) });
          } else {
            // Columns the dictionary lacks: the input staged as text, then its known columns cast into the table.
            const staging = `${q(NEW_SCHEMA)}.${q("dt_restore_staging")}`;
            const staged = input.columns.map((_, i) => `c${i}`);
            await client.query(`CREATE UNLOGGED TABLE ${staging} (${staged.map((c) => `${c} text`).join(", ")})`);
            const copy = client.query(copyFrom(`COPY ${staging} FROM STDIN WITH (FORMAT csv, HEADER true)`));
            await pipeline(Readable.from(input.csv), counted, copy, { signal: options.signal });
            const known = matched.flatMap((c, i) => (c ? [{ column: c, staged: staged[i]! }] : []));
            const { rowCount } = await client.query(
              `INSERT INTO ${target} (${known.map((k) => q(k.column.name)).join(", ")}) SELECT ${known.map((k) => `${k.staged}::${postgresType(k.column)}`).join(", ")} FROM ${staging}`,
            );
            await client.query(`DROP TABLE ${staging}`);
            outcome.tables.push({ table: table.name, rows: rowCount ?? 0 });
          }
        } catch (err) {
          throw problemOf(table.name, err);
        } finally {
          stopReporting();
        }
      }
      outcome.emptyTables = dictionary.filter((t) => !restored.has(t.name)).map((t) => t.name);
      for (const table of dictionary) {
        const key = table.columns.filter((c) => c.isKey).map((c) => q(c.name));
        if (!key.length) continue;
        try {
          await client.query(`ALTER TABLE ${q(NEW_SCHEMA)}.${q(table.name)} ADD PRIMARY KEY (${key.join(", ")})`);
        } catch (err) {
          throw problemOf(table.name, err);
        }
      }
      await client.query("RESET ROLE");
      await client.query(`GRANT USAGE ON SCHEMA ${q(NEW_SCHEMA)} TO ${q(roles.reader)}`);
      await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${q(NEW_SCHEMA)} TO ${q(roles.reader)}`);
      await client.query(`ALTER DEFAULT PRIVILEGES FOR ROLE ${q(roles.owner)} IN SCHEMA ${q(NEW_SCHEMA)} GRANT SELECT ON TABLES TO ${q(roles.reader)}`);
      await client.query(`ALTER SCHEMA source RENAME TO ${q(OLD_SCHEMA)}`);
      await client.query(`ALTER SCHEMA ${q(NEW_SCHEMA)} RENAME TO source`);
      await client.query(`DROP SCHEMA ${q(OLD_SCHEMA)} CASCADE`);
      options.signal?.throwIfAborted();
      await options.beforeCommit?.();
      await client.query("COMMIT");
      await Promise.resolve(options.onProgress?.(done)).catch(() => undefined);
      return outcome;
    } catch (err) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    }
  });
}
