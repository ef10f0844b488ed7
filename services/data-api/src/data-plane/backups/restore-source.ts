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
import { createTableStatement, dateOrderStatement, postgresType, quoteIdentifier, type DdlColumn, type DdlTable } from "../postgres-ddl.ts";
import { readDelimitedBatches } from "../flat-file/read-delimited.ts";
import { cellProblem } from "../flat-file/values.ts";
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

/** A value PostgreSQL refused: its row as a person counts them (the header row being row 1), its column, the value; null when unknown. */
type Refused = { row: number | null; column: DdlColumn | null; value: string | null };
const UNKNOWN: Refused = { row: null, column: null, value: null };

/**
 * PostgreSQL's refusal of an input's row, as the user reads it: the table, the row, the column and
 * why, in the words a flat-file load gives a rejected value (cellProblem), never PostgreSQL's own.
 * A refusal of the input's shape (class 42, e.g. a column the table lacks) keeps PostgreSQL's words,
 * still said as the input's problem; anything else (the server, the connection) is passed on as it is.
 */
async function problemOf(table: DdlTable, err: unknown, refused: (e: PostgresRefusal) => Promise<Refused> | Refused, dateOrder?: DateOrder): Promise<unknown> {
  const e = err as Partial<PostgresRefusal>;
  if (typeof e?.code !== "string") return err;
  if (e.code.startsWith("42")) return new RestoreInputProblem(`Table "${table.name}": ${e.message}. Nothing was restored.`);
  if (!/^(22|23)/.test(e.code)) return err;
  const { row, column, value } = await refused(e as PostgresRefusal);
  const where = [`Table "${table.name}"`, row === null ? null : `row ${row}`, column ? `column ${column.name}` : null].filter(Boolean).join(", ");
  return new RestoreInputProblem(`${where}: ${reasonOf(e.code, e.message ?? "", column, value, dateOrder)}. Nothing was restored.`);
}

type PostgresRefusal = { code: string; message: string; where?: string; column?: string };

function reasonOf(code: string, message: string, column: DdlColumn | null, value: string | null, dateOrder?: DateOrder): string {
  if (code === "22P04") {
    if (message.startsWith("extra data")) return "more values than the header names";
    if (message.startsWith("missing data")) return "fewer values than the header names";
    if (message.startsWith("unterminated")) return "a quoted value that never ends";
  }
  if (!column) return "a value that does not fit its column";
  if (code === "23502" || value === null) return "a value is required";
  if (code === "22001" && column.length != null) return `longer than ${column.length} characters`;
  const shown = JSON.stringify(value.length > VALUE_SHOWN ? `${value.slice(0, VALUE_SHOWN)}…` : value);
  return `${(value !== "" && cellProblem(column, value, dateOrder)) || `not a value of its type, ${column.type}`} (${shown})`;
}

/** A key made once the rows are in, refused as its value is in more than one row (PostgreSQL's detail gives it: `Key ("Id")=(1) is duplicated.`). */
function duplicateKeyProblem(table: DdlTable, err: unknown): unknown {
  const e = err as { code?: string; detail?: string };
  if (e?.code !== "23505") return err;
  const key = table.columns.filter((c) => c.isKey).map((c) => c.name);
  const value = /=\((.*)\) is duplicated/s.exec(e.detail ?? "")?.[1];
  return new RestoreInputProblem(
    `Table "${table.name}": more than one row has the key ${key.join(", ")}${value === undefined ? "" : ` = ${value}`}, and a key names one row. Nothing was restored.`,
  );
}

/** A refused value is shown cut to this many characters. */
const VALUE_SHOWN = 40;

/**
 * The row, as a person counts rows (the header row being row 1), of the line a COPY's refusal names:
 * PostgreSQL counts lines of the text, and a quoted value may hold line breaks, so such a row spans
 * several lines. Worked out only once COPY has refused, by reading the input again from its start, as
 * a load reads a file's records (read-delimited.ts), up to that line: a restore that succeeds reads its
 * input once, as it comes. Null when the input cannot be read again that far.
 */
async function rowOfLine(csv: AsyncIterable<Buffer>, line: number): Promise<number | null> {
  // Read as Latin-1: quotes, commas and line breaks are the same bytes in UTF-8, and only they count here.
  const texts = (async function* () {
    for await (const chunk of csv) yield chunk.toString("latin1");
  })();
  let last = 0;
  try {
    for await (const records of readDelimitedBatches(texts, { delimiter: ",", quote: '"' })) {
      for (const record of records) {
        last++;
        if (record.line === undefined) for (const cell of record.cells) for (let i = cell.indexOf("\n"); i >= 0; i = cell.indexOf("\n", i + 1)) last++;
        if (last >= line) return record.row;
      }
    }
  } catch {
    // Read again, the input fails before that line (its damage is named where it is read first): the row is not known.
  }
  return null;
}

/** What COPY's context says of a refused value: `COPY t, line 3, column c: "value"`. */
function copyContext(where: string | undefined): { line: number | null; column: string | null; value: string | null } {
  const m = /COPY [^,]+, line (\d+)(?:, column ([^:]+)(?:: "(.*)")?)?/s.exec(where ?? "");
  return { line: m ? Number(m[1]) : null, column: m?.[2] ?? null, value: m?.[3] ?? null };
}

/**
 * The first row of the input (in its order) with a known column's value that does not fit it, as
 * cellProblem reads it, once the cast of the staged rows has refused one (its error names no row).
 * The staged rows keep no order, and numbering them as they are staged would slow every restore
 * (measured: a staging COPY of 52 MB, 0.82 s numbered against 0.66 s): so only now, back at the
 * savepoint before the cast, is the input read again from its start into a table that numbers its
 * rows, and read in that order. No row when none is found: PostgreSQL refused what the product's own
 * check lets through.
 */
async function firstMisfit(
  client: pg.ClientBase,
  csv: AsyncIterable<Buffer>,
  staged: string[],
  known: { column: DdlColumn; staged: string }[],
  dateOrder: DateOrder | undefined,
  signal: AbortSignal | undefined,
): Promise<Refused> {
  await client.query("ROLLBACK TO SAVEPOINT dt_restore_insert");
  const numbered = `${quoteIdentifier(NEW_SCHEMA)}.${quoteIdentifier("dt_restore_numbered")}`;
  await client.query(`CREATE UNLOGGED TABLE ${numbered} (dt_row bigint GENERATED ALWAYS AS IDENTITY, ${staged.map((c) => `${c} text`).join(", ")})`);
  const copy = client.query(copyFrom(`COPY ${numbered} (${staged.join(", ")}) FROM STDIN WITH (FORMAT csv, HEADER true)`));
  await pipeline(Readable.from(csv), copy, { signal });
  await client.query(`DECLARE dt_restore_misfit NO SCROLL CURSOR FOR SELECT dt_row, ${known.map((k) => k.staged).join(", ")} FROM ${numbered} ORDER BY dt_row`);
  try {
    for (;;) {
      const { rows } = await client.query<Record<string, string | null>>("FETCH 5000 FROM dt_restore_misfit");
      if (rows.length === 0) return UNKNOWN;
      for (const r of rows) {
        for (const k of known) {
          const value = r[k.staged] ?? null;
          // NULL is refused only by a required column; an empty string (quoted) is text, never NULL, and only text takes it.
          const misfit =
            value === null
              ? !k.column.nullable || k.column.isKey
              : value === ""
                ? k.column.type !== "nvarchar"
                : cellProblem(k.column, value, dateOrder) !== null;
          if (misfit) return { row: Number(r.dt_row) + 1, column: k.column, value };
        }
      }
    }
  } finally {
    await client.query("CLOSE dt_restore_misfit").catch(() => undefined);
  }
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
        const twice = matched.find((c, i) => c && matched.indexOf(c) !== i);
        if (twice) throw new RestoreInputProblem(`Table "${table.name}": its header names column ${twice.name} more than once. Nothing was restored.`);
        for (const [i, c] of input.columns.entries()) if (!matched[i]) outcome.leftOutColumns.push({ table: table.name, column: c.name });
        for (const c of table.columns) if (!matched.includes(c)) outcome.emptyColumns.push({ table: table.name, column: c.name });
        const target = `${q(NEW_SCHEMA)}.${q(table.name)}`;
        const counted = countingBytes((bytes) => (done += bytes));
        const stopReporting = reportEverySecond(options.onProgress && (() => options.onProgress!(done)));
        const staged = input.columns.map((_, i) => `c${i}`);
        const known = matched.flatMap((c, i) => (c ? [{ column: c, staged: staged[i]! }] : []));
        let inserting = false;
        try {
          if (matched.every(Boolean)) {
            const copy = client.query(copyFrom(`COPY ${target} (${matched.map((c) => q(c!.name)).join(", ")}) FROM STDIN WITH (FORMAT csv, HEADER true)`));
            await pipeline(Readable.from(input.csv), counted, copy, { signal: options.signal });
            outcome.tables.push({ table: table.name, rows: Number((copy as unknown as { rowCount?: number }).rowCount ?? 0) });
          } else {
            // Columns the dictionary lacks: the input staged as text, then its known columns cast into the table.
            const staging = `${q(NEW_SCHEMA)}.${q("dt_restore_staging")}`;
            await client.query(`CREATE UNLOGGED TABLE ${staging} (${staged.map((c) => `${c} text`).join(", ")})`);
            const copy = client.query(copyFrom(`COPY ${staging} FROM STDIN WITH (FORMAT csv, HEADER true)`));
            await pipeline(Readable.from(input.csv), counted, copy, { signal: options.signal });
            await client.query("SAVEPOINT dt_restore_insert");
            inserting = true;
            const { rowCount } = await client.query(
              `INSERT INTO ${target} (${known.map((k) => q(k.column.name)).join(", ")}) SELECT ${known.map((k) => `${k.staged}::${postgresType(k.column)}`).join(", ")} FROM ${staging}`,
            );
            await client.query(`DROP TABLE ${staging}`);
            outcome.tables.push({ table: table.name, rows: rowCount ?? 0 });
          }
        } catch (err) {
          throw await problemOf(
            table,
            err,
            async (e) => {
              // The cast of a staged value says no row: the input is read again, numbered, for the first row that does not fit.
              if (inserting) return firstMisfit(client, input.csv, staged, known, options.dateOrder, options.signal).catch(() => UNKNOWN);
              const at = copyContext(e.where);
              const column = (e.column ?? at.column) === null ? null : (columnOf.get((e.column ?? at.column)!.toLowerCase()) ?? null);
              return { row: at.line === null ? null : await rowOfLine(input.csv, at.line), column, value: at.value };
            },
            options.dateOrder,
          );
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
          throw duplicateKeyProblem(table, err);
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
