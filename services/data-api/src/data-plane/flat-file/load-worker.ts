/**
 * The worker thread of a flat-file load (load-in-worker.ts starts it): reads the file as a stream,
 * checks each row against the table's columns (values.ts), COPYs the rows that fit into a staging
 * table, rejects duplicate keys in SQL, and moves the rows into the table, all in one transaction on
 * a connection of its own logged in as the project's runner. Rejected rows go to the data API's
 * thread in batches, each acknowledged before the next, so memory stays flat whatever the file.
 * With "Load nothing", any rejected row rolls everything back: the table stays as it was.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parentPort, workerData } from "node:worker_threads";
import { acknowledgedPost } from "../../worker-entry.ts";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { postgresType, quoteIdentifier as q, type DdlColumn } from "../postgres-ddl.ts";
import { DelimitedFormatError } from "./read-delimited.ts";
import { FlatFileProblem, readFlatFile } from "./read-flat-file.ts";
import type { LoadOutcome, LoadRequest, LoadWorkerMessage, Rejection } from "./load-messages.ts";
import { cellProblem, copyValue } from "./values.ts";

const REJECTIONS_PER_BATCH = 1000;
/** Rows per chunk handed to COPY. */
const ROWS_PER_CHUNK = 500;
/** A value shown beside its reason is cut to this many characters (the row's cells keep it whole). */
const VALUE_SHOWN = 200;
const PROGRESS_EVERY_MS = 250;
/** PostgreSQL's unique_violation: a key the table (or the file) already has. */
const UNIQUE_VIOLATION = "23505";

const port = parentPort!;
const request = workerData as LoadRequest;
const post = acknowledgedPost<LoadWorkerMessage>(port);

async function run(): Promise<LoadOutcome> {
  const { table } = request;
  const { dateOrder } = request.parameters;
  const columns = table.columns;
  const columnList = columns.map((c) => q(c.name)).join(", ");
  const client = new pg.Client({ connectionString: request.connectionUrl, application_name: "data-transformation flat-file load" });
  await client.connect();
  const counts = { read: 0, rejected: 0 };
  let pending: Rejection[] = [];
  const reject = async (rejection: Rejection) => {
    counts.rejected++;
    pending.push({ ...rejection, value: rejection.value === null ? null : rejection.value.slice(0, VALUE_SHOWN) });
    if (pending.length >= REJECTIONS_PER_BATCH) await flush();
  };
  const flush = async () => {
    if (pending.length === 0) return;
    const rows = pending;
    pending = [];
    await post({ kind: "rejected", rows });
  };

  /**
   * One pass over the file: each row checked, the rows that fit COPYed into `into` (with their row
   * number first when `withLine`). Rejected rows are reported as found.
   */
  async function copyFile(into: string, withLine: boolean): Promise<number> {
    let lastProgress = 0;
    const reading = await readFlatFile(request.filePath, request.parameters, table, (bytes) => {
      const now = Date.now();
      if (now - lastProgress < PROGRESS_EVERY_MS) return;
      lastProgress = now;
      port.postMessage({ kind: "progress", bytes } satisfies LoadWorkerMessage);
    });
    // Which table column each of the file's columns fills: by header name (any case), or by position.
    let positions: (DdlColumn | undefined)[] | undefined = request.parameters.hasHeaderRow ? undefined : [...columns];
    let copied = 0;
    let sources: number[] | undefined;
    async function* copyChunks(): AsyncGenerator<string> {
      let chunk: string[] = [];
      for await (const record of reading.records) {
        if (!positions) {
          positions = mapHeader(record.cells, columns, table.name);
          await post({ kind: "header", cells: record.cells });
          continue;
        }
        // Blank lines (a file's last line, say) are not rows.
        if (record.cells.every((c) => c === "")) continue;
        counts.read++;
        const problem = record.problem
          ? { column: null, value: null, reason: record.problem }
          : rowProblem(record.cells, positions, request.parameters.hasHeaderRow);
        if (problem) {
          await reject({ line: record.row, ...problem, cells: record.cells });
          continue;
        }
        // The cell of each table column (a column the file lacks is empty): checked, then written for COPY.
        sources ??= columns.map((column) => positions!.indexOf(column));
        let line = withLine ? String(record.row) : "";
        let rejected = false;
        for (let c = 0; c < columns.length; c++) {
          const column = columns[c]!;
          const at = sources[c]!;
          const cell = at < 0 ? "" : record.cells[at]!;
          const why = cellProblem(column, cell, dateOrder);
          if (why) {
            await reject({ line: record.row, column: column.name, value: cell, reason: why, cells: record.cells });
            rejected = true;
            break;
          }
          line += c === 0 && !withLine ? copyValue(column, cell, dateOrder) : `\t${copyValue(column, cell, dateOrder)}`;
        }
        if (rejected) continue;
        chunk.push(`${line}\n`);
        copied++;
        if (chunk.length >= ROWS_PER_CHUNK) {
          yield chunk.join("");
          chunk = [];
        }
      }
      if (chunk.length) yield chunk.join("");
      if (!positions) throw new FlatFileProblem("The file is empty");
    }
    await pipeline(Readable.from(copyChunks()), client.query(copyFrom(`COPY ${into} (${withLine ? "dt_line, " : ""}${columnList}) FROM STDIN`)));
    return copied;
  }

  const target = `source.${q(table.name)}`;
  /**
   * The end of a pass: with "Load nothing" and a rejected row, everything rolls back; else `move`
   * puts the rows in the table (if the pass did not already) and the transaction commits.
   */
  const settle = async (move: () => Promise<number>): Promise<LoadOutcome> => {
    await flush();
    if (counts.rejected > 0 && request.onRejected === "loadNothing") {
      await client.query("ROLLBACK");
      const rows = counts.rejected === 1 ? "1 row was rejected" : `${counts.rejected.toLocaleString("en-US")} rows were rejected`;
      return {
        status: "Refused",
        rowsRead: counts.read,
        rowsLoaded: 0,
        rowsRejected: counts.rejected,
        message: `${rows}, so nothing was loaded (“Load nothing”)`,
      };
    }
    const loaded = await move();
    await client.query("COMMIT");
    return { status: "Loaded", rowsRead: counts.read, rowsLoaded: loaded, rowsRejected: counts.rejected, message: null };
  };

  try {
    await client.query("BEGIN");
    await client.query("SET LOCAL search_path = source");
    // The direct path, as fast as COPY itself: the rows go straight into the table. Only a duplicate
    // key stops it (within the file, or with Append against the table's rows): then everything of
    // this pass is rolled back and the staged path below finds and rejects the duplicates.
    await client.query("SAVEPOINT direct");
    try {
      if (request.mode === "replace") await client.query(`TRUNCATE ${target}`);
      const copied = await copyFile(target, false);
      return await settle(async () => copied);
    } catch (err) {
      if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err;
      await client.query("ROLLBACK TO SAVEPOINT direct");
      await post({ kind: "reset" });
      counts.read = 0;
      counts.rejected = 0;
      pending = [];
    }

    const staging = columns.map((c) => `${q(c.name)} ${postgresType(c)}`).join(", ");
    await client.query(`CREATE TEMP TABLE dt_load_rows (dt_line bigint NOT NULL, ${staging}) ON COMMIT DROP`);
    await copyFile("dt_load_rows", true);
    await rejectDuplicateKeys(client, columns, request.mode === "append", table.name, reject);
    return await settle(async () => {
      if (request.mode === "replace") await client.query(`TRUNCATE ${target}`);
      const inserted = await client.query(`INSERT INTO ${target} (${columnList}) SELECT ${columnList} FROM dt_load_rows ORDER BY dt_line`);
      return inserted.rowCount ?? 0;
    });
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    if (err instanceof FlatFileProblem) return failed(err.message);
    if (err instanceof DelimitedFormatError) return failed(`The file could not be read: ${err.message}`);
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }

  function failed(message: string): LoadOutcome {
    return { status: "Failed", rowsRead: counts.read, rowsLoaded: 0, rowsRejected: counts.rejected, message: `${message}. Nothing was loaded.` };
  }
}

/** The table column of each header cell; refuses a header naming a column twice or one the table lacks. */
function mapHeader(header: string[], columns: readonly DdlColumn[], tableName: string): (DdlColumn | undefined)[] {
  const byName = new Map(columns.map((c) => [c.name.toLowerCase(), c]));
  const seen = new Set<string>();
  const unknown: string[] = [];
  const mapped = header.map((cell) => {
    const name = cell.trim().toLowerCase();
    if (seen.has(name)) throw new FlatFileProblem(`The header names the column '${cell.trim()}' twice`);
    seen.add(name);
    const column = byName.get(name);
    if (!column) unknown.push(cell.trim() || "(a column without a name)");
    return column;
  });
  if (unknown.length) {
    throw new FlatFileProblem(
      `The file has ${unknown.length === 1 ? "a column" : "columns"} the table '${tableName}' lacks: ${unknown.join(", ")}. Add ${unknown.length === 1 ? "it" : "them"} to the project's data dictionary, or leave ${unknown.length === 1 ? "it" : "them"} out of the file`,
    );
  }
  return mapped;
}

/** A row whose number of values is not the file's: rejected as a whole. */
function rowProblem(cells: string[], positions: (DdlColumn | undefined)[], hasHeader: boolean): { column: null; value: null; reason: string } | undefined {
  if (cells.length === positions.length) return undefined;
  const what = hasHeader ? `the header has ${positions.length}` : `the table has ${positions.length} columns`;
  return { column: null, value: null, reason: `${cells.length} values where ${what}` };
}

/**
 * Rows whose key another row of the file has (all but the first), and with Append rows whose key
 * the table already holds: rejected with the key, and taken out of the staging table.
 */
async function rejectDuplicateKeys(
  client: pg.Client,
  columns: readonly DdlColumn[],
  append: boolean,
  tableName: string,
  reject: (r: Rejection) => Promise<void>,
) {
  const keyColumns = columns.filter((c) => c.isKey);
  if (keyColumns.length === 0) return;
  const keys = keyColumns.map((c) => q(c.name));
  const keyList = keys.join(", ");
  await client.query(
    `CREATE TEMP TABLE dt_rejected_keys ON COMMIT DROP AS
       SELECT dt_line, first_line FROM (SELECT dt_line, min(dt_line) OVER (PARTITION BY ${keyList}) AS first_line FROM dt_load_rows) d WHERE dt_line <> first_line`,
  );
  if (append) {
    const match = keys.map((k) => `t.${k} = r.${k}`).join(" AND ");
    await client.query(
      `INSERT INTO dt_rejected_keys (dt_line, first_line)
         SELECT r.dt_line, NULL FROM dt_load_rows r
          WHERE EXISTS (SELECT 1 FROM source.${q(tableName)} t WHERE ${match})
            AND NOT EXISTS (SELECT 1 FROM dt_rejected_keys k WHERE k.dt_line = r.dt_line)`,
    );
  }
  const keyNames = keyColumns.map((c) => c.name).join(", ");
  const keyValue = keys.map((k) => `coalesce(r.${k}::text, '')`).join(` || ', ' || `);
  const cells = columns.map((c) => `coalesce(r.${q(c.name)}::text, '')`).join(", ");
  let after = 0;
  for (;;) {
    const { rows } = await client.query<{ line: string; first_line: string | null; value: string; cells: string[] }>(
      `SELECT k.dt_line AS line, k.first_line, ${keyValue} AS value, ARRAY[${cells}] AS cells
         FROM dt_rejected_keys k JOIN dt_load_rows r ON r.dt_line = k.dt_line
        WHERE k.dt_line > $1 ORDER BY k.dt_line LIMIT ${REJECTIONS_PER_BATCH}`,
      [after],
    );
    for (const row of rows) {
      const reason = row.first_line === null ? "a row with this key is already in the table" : `the same key as row ${row.first_line}`;
      await reject({ line: Number(row.line), column: keyNames, value: row.value, reason, cells: row.cells });
    }
    if (rows.length < REJECTIONS_PER_BATCH) break;
    after = Number(rows[rows.length - 1]!.line);
  }
  await client.query("DELETE FROM dt_load_rows r USING dt_rejected_keys k WHERE r.dt_line = k.dt_line");
}

run().then(
  (outcome) => port.postMessage({ kind: "end", outcome } satisfies LoadWorkerMessage),
  (err: unknown) => port.postMessage({ kind: "crash", message: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies LoadWorkerMessage),
);
