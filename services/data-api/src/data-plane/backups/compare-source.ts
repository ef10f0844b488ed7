/**
 * A comparison of earlier data (a backup's tables) with the project's current source (issue 10), in
 * SQL, as the project's runner, in one transaction that changes nothing: each earlier table COPYed
 * into a temporary table, then compared with its current table. By the dictionary's key: one FULL
 * JOIN counts the rows added, removed and changed and how many rows each column changed in; samples
 * (up to 20 of each kind) come from small LIMIT queries. Without a key, rows are compared whole, as
 * multisets (a duplicated row counts per copy), so no row is "changed".
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { TableComparisonResult } from "../../../../../contracts/backups.ts";
import { COMPARISON_SAMPLE_ROWS } from "../../../../../contracts/values/backups.ts";
import { asProjectOwner } from "../project-databases.ts";
import { dictionaryTypeName, quoteIdentifier as q, type DdlTable } from "../postgres-ddl.ts";
import type { DataPlane } from "../servers.ts";
import { countingBytes, reportEverySecond } from "./progress-ticker.ts";
import { RestoreInputProblem, type TableInput } from "./table-input.ts";

type Column = { name: string; type: string | null };
type Value = string | null;

/** The columns of a relation as the catalog has them (name, format_type). */
async function columnsOf(client: pg.ClientBase, relation: string): Promise<Column[]> {
  const { rows } = await client.query<Column>(
    `select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped order by attnum`,
    [relation],
  );
  return rows;
}

/** Compares one table: `earlier` and `current` are relations; `columns` the compared ones (same name on both sides); `asText`: those whose types differ. */
export async function compareTables(
  client: pg.ClientBase,
  spec: {
    table: string;
    earlier: string;
    current: string;
    columns: string[];
    asText?: ReadonlySet<string>;
    key: string[] | null;
    sampleSize?: number;
    columnChanges?: TableComparisonResult["columnChanges"];
  },
): Promise<TableComparisonResult> {
  const limit = spec.sampleSize ?? COMPARISON_SAMPLE_ROWS;
  const col = (side: "e" | "c", name: string) => `${side}.${q(name)}${spec.asText?.has(name) ? "::text" : ""}`;
  const text = (side: "e" | "c", name: string) => `${side}.${q(name)}::text`;
  const list = (side: "e" | "c", names: readonly string[]) => names.map((n) => col(side, n)).join(", ");
  const texts = (side: "e" | "c", names: readonly string[]) => names.map((n) => text(side, n)).join(", ");
  const rowsOf = async (sql: string) => (await client.query({ text: sql, rowMode: "array" })).rows as Value[][];
  const { columns, key } = spec;
  const result: TableComparisonResult = {
    table: spec.table,
    key,
    columns,
    earlierRows: 0,
    currentRows: 0,
    added: 0,
    removed: 0,
    changed: 0,
    changedColumns: [],
    columnChanges: spec.columnChanges ?? [],
    samples: { added: [], removed: [], changed: [] },
  };

  if (key && key.length) {
    const on = key.map((k) => `${col("e", k)} = ${col("c", k)}`).join(" and ");
    const others = columns.filter((c) => !key.includes(c));
    const distinct = (c: string) => `${col("e", c)} is distinct from ${col("c", c)}`;
    const rowDistinct = others.length ? `(${list("e", others)}) is distinct from (${list("c", others)})` : "false";
    const both = "e.dt_in and c.dt_in";
    const from = `(select *, true as dt_in from ${spec.earlier}) e full join (select *, true as dt_in from ${spec.current}) c on ${on}`;
    const { rows } = await client.query({
      text: `select count(e.dt_in), count(c.dt_in), count(*) filter (where e.dt_in is null), count(*) filter (where c.dt_in is null),
                    count(*) filter (where ${both} and ${rowDistinct})${others.map((c) => `, count(*) filter (where ${both} and ${distinct(c)})`).join("")}
               from ${from}`,
      rowMode: "array",
    });
    const counts = (rows[0] as string[]).map(Number);
    [result.earlierRows, result.currentRows, result.added, result.removed, result.changed] = counts as [number, number, number, number, number];
    result.changedColumns = others.map((column, i) => ({ column, rows: counts[5 + i]! })).filter((c) => c.rows > 0);
    if (result.added)
      result.samples.added = await rowsOf(
        `select ${texts("c", columns)} from ${spec.current} c where not exists (select from ${spec.earlier} e where ${on}) order by ${key.map((k) => `c.${q(k)}`).join(", ")} limit ${limit}`,
      );
    if (result.removed)
      result.samples.removed = await rowsOf(
        `select ${texts("e", columns)} from ${spec.earlier} e where not exists (select from ${spec.current} c where ${on}) order by ${key.map((k) => `e.${q(k)}`).join(", ")} limit ${limit}`,
      );
    if (result.changed) {
      const rows = await rowsOf(
        `select ${texts("c", key)}, ${texts("e", others)}, ${texts("c", others)} from ${spec.earlier} e join ${spec.current} c on ${on}
          where ${rowDistinct} order by ${key.map((k) => `c.${q(k)}`).join(", ")} limit ${limit}`,
      );
      result.samples.changed = rows.map((row) => {
        const earlier = row.slice(key.length, key.length + others.length);
        const current = row.slice(key.length + others.length);
        return {
          key: row.slice(0, key.length),
          changes: others.flatMap((column, i) => (earlier[i] !== current[i] ? [{ column, earlier: earlier[i]!, current: current[i]! }] : [])),
        };
      });
    }
    return result;
  }

  // No key: whole rows, as multisets.
  const rowText = (side: "e" | "c") => `row(${texts(side, columns)})::text`;
  const { rows } = await client.query({
    text: `with e as (select ${rowText("e")} as r, count(*) as n from ${spec.earlier} e group by 1),
                c as (select ${rowText("c")} as r, count(*) as n from ${spec.current} c group by 1)
           select coalesce(sum(e.n), 0), coalesce(sum(c.n), 0),
                  coalesce(sum(greatest(coalesce(c.n, 0) - coalesce(e.n, 0), 0)), 0), coalesce(sum(greatest(coalesce(e.n, 0) - coalesce(c.n, 0), 0)), 0)
             from e full join c using (r)`,
    rowMode: "array",
  });
  [result.earlierRows, result.currentRows, result.added, result.removed] = (rows[0] as string[]).map(Number) as [number, number, number, number];
  const except = (a: "e" | "c", b: "e" | "c") =>
    rowsOf(
      `select * from (select ${texts(a, columns)} from ${a === "e" ? spec.earlier : spec.current} ${a} except all select ${texts(b, columns)} from ${b === "e" ? spec.earlier : spec.current} ${b}) s limit ${limit}`,
    );
  if (result.added) result.samples.added = await except("c", "e");
  if (result.removed) result.samples.removed = await except("e", "c");
  return result;
}

/** How far a comparison is: the CSV bytes of the earlier tables read (COPYed into temporary tables), and of those compared since. */
export type ComparisonWork = { bytesRead: number; bytesCompared: number };

/**
 * What comparing a table costs beside reading it: its FULL JOIN of a million keyed rows took about three
 * times its COPY (6 s to 2 s; whole rows without a key, ten times), so a table's bytes count once read
 * and three times more once compared, and the bar does not stand at its end while the largest table compares.
 */
const COMPARE_TO_READ = 3;

/** The fraction of a comparison done, `totalBytes` being the CSV bytes of all the earlier tables. */
export function comparedFraction(work: ComparisonWork, totalBytes: number): number {
  return totalBytes ? (work.bytesRead + COMPARE_TO_READ * work.bytesCompared) / ((1 + COMPARE_TO_READ) * totalBytes) : 0;
}

/**
 * The earlier tables compared with the current source, per dictionary table, then the earlier tables the
 * current data lacks. `onProgress` hears the work done once a second while a table is read, and as each is compared.
 */
export async function compareSource(
  dataPlane: DataPlane,
  serverId: string,
  projectId: string,
  dictionary: readonly DdlTable[],
  earlier: AsyncIterable<TableInput>,
  options: { signal?: AbortSignal; sampleSize?: number; onProgress?: (work: ComparisonWork) => Promise<void> | void } = {},
): Promise<TableComparisonResult[]> {
  const work: ComparisonWork = { bytesRead: 0, bytesCompared: 0 };
  const report = options.onProgress && (() => options.onProgress!({ ...work }));
  /** A table compared: its bytes count as such. A report that fails is dropped (progress-ticker.ts). */
  const compared = async () => {
    work.bytesCompared = work.bytesRead;
    await Promise.resolve(report?.()).catch(() => undefined);
  };
  return asProjectOwner(dataPlane, serverId, projectId, async (client) => {
    const results = new Map<string, TableComparisonResult>();
    const byName = new Map(dictionary.map((t) => [t.name.toLowerCase(), t]));
    let index = 0;
    for await (const input of earlier) {
      options.signal?.throwIfAborted();
      const table = byName.get(input.table.toLowerCase());
      const current = table && !results.has(table.name) ? await currentRelation(client, table.name) : null;
      const currentColumns = current ? await columnsOf(client, current) : [];
      // An earlier column takes the current one's spelling (names match in any case, as the dictionary's do).
      const currentByName = new Map(currentColumns.map((c) => [c.name.toLowerCase(), c]));
      const spelled = new Set<string>();
      const earlierColumns = input.columns.map((c) => {
        const same = currentByName.get(c.name.toLowerCase());
        if (!same || spelled.has(same.name)) return c;
        spelled.add(same.name);
        return { ...c, name: same.name };
      });
      const temp = `pg_temp.${q(`dt_earlier_${index++}`)}`;
      await client.query(`create temp table ${temp} (${earlierColumns.map((c) => `${q(c.name)} ${c.type ?? "text"}`).join(", ")}) on commit drop`);
      const counted = countingBytes((bytes) => (work.bytesRead += bytes));
      const stopReporting = reportEverySecond(report);
      try {
        await pipeline(Readable.from(input.csv), counted, client.query(copyFrom(`copy ${temp} from stdin with (format csv, header true)`)), {
          signal: options.signal,
        });
      } catch (err) {
        const e = err as { code?: string; message?: string };
        if (typeof e?.code === "string" && /^(22|23)/.test(e.code)) throw new RestoreInputProblem(`Table "${input.table}" of the earlier data: ${e.message}`);
        throw err;
      } finally {
        stopReporting();
      }
      await client.query(`analyze ${temp}`);
      if (!table || !current) {
        // Not in the current data: every earlier row is removed.
        const names = earlierColumns.map((c) => c.name);
        results.set(
          `earlier:${input.table}`,
          await compareTables(client, {
            table: input.table,
            earlier: temp,
            current: `(select ${names.map((n) => `null::text as ${q(n)}`).join(", ")} where false)`,
            columns: names,
            key: null,
            sampleSize: options.sampleSize,
          }),
        );
        await compared();
        continue;
      }
      const typeOf = new Map(currentColumns.map((c) => [c.name, c.type]));
      const common = earlierColumns.filter((c) => typeOf.has(c.name));
      const asText = new Set(common.filter((c) => c.type !== typeOf.get(c.name)).map((c) => c.name));
      const typeName = (type: string | null) => (type === null ? null : dictionaryTypeName(type));
      // What changed in the table's shape, said rather than left out of the comparison without a word.
      const columnChanges = [
        ...earlierColumns.flatMap((c) =>
          !typeOf.has(c.name)
            ? [{ column: c.name, earlier: typeName(c.type), current: null }]
            : c.type !== null && c.type !== typeOf.get(c.name)
              ? [{ column: c.name, earlier: typeName(c.type), current: typeName(typeOf.get(c.name)!) }]
              : [],
        ),
        ...currentColumns.filter((c) => !common.some((e) => e.name === c.name)).map((c) => ({ column: c.name, earlier: null, current: typeName(c.type) })),
      ];
      const keyNames = table.columns.filter((c) => c.isKey).map((c) => c.name);
      const key = keyNames.length && keyNames.every((k) => common.some((c) => c.name === k)) ? keyNames : null;
      results.set(
        table.name,
        await compareTables(client, {
          table: table.name,
          earlier: temp,
          current,
          columns: common.map((c) => c.name),
          asText,
          key,
          sampleSize: options.sampleSize,
          columnChanges,
        }),
      );
      await compared();
    }
    // Dictionary tables the earlier data lacks: every current row is added.
    for (const table of dictionary) {
      if (results.has(table.name)) continue;
      const current = await currentRelation(client, table.name);
      if (!current) continue;
      const columns = (await columnsOf(client, current)).map((c) => c.name);
      const empty = `(select ${columns.map((n) => `null::text as ${q(n)}`).join(", ")} where false)`;
      results.set(
        table.name,
        await compareTables(client, {
          table: table.name,
          earlier: empty,
          current,
          columns,
          asText: new Set(columns),
          key: null,
          sampleSize: options.sampleSize,
        }),
      );
    }
    const ordered = dictionary.flatMap((t) => results.get(t.name) ?? []);
    return [...ordered, ...[...results].filter(([k]) => k.startsWith("earlier:")).map(([, v]) => v)];
  });
}

/** The current source table of that name, as a relation to query; null when it is not there. */
async function currentRelation(client: pg.ClientBase, name: string): Promise<string | null> {
  const { rows } = await client.query("select 1 from pg_class where relnamespace = 'source'::regnamespace and relname = $1 and relkind in ('r', 'p')", [name]);
  return rows.length ? `source.${q(name)}` : null;
}
