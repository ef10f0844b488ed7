/**
 * The worker thread of a flat-file load (load-in-worker.ts starts it): reads the file as a stream,
 * checks each row against the table's columns (values.ts), COPYs the rows that fit into a staging
 * table, rejects duplicate keys in SQL, and moves the rows into the table, all in one transaction on
 * a connection of its own logged in as the project's runner. Rejected rows go to the data API's
 * thread in batches, each acknowledged before the next, so memory stays flat whatever the file.
 * With "Load nothing", any rejected row rolls everything back: the table stays as it was. A Replace
 * that would leave a table without a row (a file without rows, or whose every row was rejected) rolls
 * everything back too: a Replace never empties a table by accident.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { parentPort, workerData } from "node:worker_threads";
import { acknowledgedPost } from "../../worker-entry.ts";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { postgresType, quoteIdentifier as q, type DdlColumn } from "../postgres-ddl.ts";
import { arrivalOf } from "./arriving-file.ts";
import { headerProblem, matchColumns, rowWidthProblem } from "./column-match.ts";
import { DelimitedFormatError, unreadableFileMessage } from "./read-delimited.ts";
import { FlatFileProblem, isBlankRecord, readFlatFile } from "./read-flat-file.ts";
import { everyRowRejectedMessage, noRowsMessage, ReplaceWouldEmptyTable } from "./flat-file-problem.ts";
import type { FileCounts, LoadFile, LoadRequest, LoadResult, LoadWorkerMessage, Rejection } from "./load-messages.ts";
import { cellProblem, copyOptions, copyValue, joinedAsIs, rowReason, writtenAsIs } from "./values.ts";

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

async function run(): Promise<LoadResult> {
  const { dateOrder } = request.parameters;
  const client = new pg.Client({ connectionString: request.connectionUrl, application_name: "data-transformation flat-file load" });
  await client.connect();
  // Started while the job's earlier steps run (its backup): connected, it waits for its turn.
  await post({ kind: "ready" });
  const counts: FileCounts[] = request.files.map(() => ({ rowsRead: 0, rowsLoaded: 0, rowsRejected: 0 }));
  // Shared with the data API's thread: read there when this worker never answers.
  const rowsReadSoFar = request.rowsRead ? new Float64Array(request.rowsRead) : new Float64Array(request.files.length);
  /** The file being read: rejected rows and progress are its. */
  let current = 0;
  let pending: Rejection[] = [];
  const reject = async (rejection: Rejection) => {
    counts[current]!.rowsRejected++;
    pending.push({ ...rejection, value: rejection.value === null ? null : rejection.value.slice(0, VALUE_SHOWN) });
    if (pending.length >= REJECTIONS_PER_BATCH) await flush();
  };
  const flush = async () => {
    if (pending.length === 0) return;
    const rows = pending;
    pending = [];
    await post({ kind: "rejected", file: current, rows });
  };
  const rejectedSoFar = () => counts.reduce((sum, c) => sum + c.rowsRejected, 0);
  /**
   * A Replace that put no row in its table would leave it empty: refused, and the transaction rolled
   * back. With "Load nothing", rows all rejected refuse the load already, and say how many.
   */
  const refuseEmptying = (file: LoadFile, loaded: number) => {
    if (request.mode !== "replace" || loaded > 0) return;
    const { rowsRead, rowsRejected } = counts[current]!;
    if (rowsRead === 0) throw new ReplaceWouldEmptyTable(noRowsMessage(file.fileName, file.table.name));
    if (request.onRejected !== "loadNothing") throw new ReplaceWouldEmptyTable(everyRowRejectedMessage(file.fileName, file.table.name, rowsRejected));
  };

  /** One file into its table, inside the load's transaction: answers the rows put in the table. */
  async function loadFile(file: LoadFile): Promise<number> {
    const { table } = file;
    const columns = table.columns;
    const columnList = columns.map((c) => q(c.name)).join(", ");
    const fileCounts = counts[current]!;

    /**
     * One pass over the file: each row checked, the rows that fit COPYed into `into` (with their row
     * number first when `withLine`). Rejected rows are reported as found.
     */
    async function copyFile(into: string, withLine: boolean): Promise<number> {
      let lastProgress = 0;
      const reading = await readFlatFile(
        file.filePath,
        request.parameters,
        table,
        (bytes) => {
          const now = Date.now();
          if (now - lastProgress < (request.progressEveryMs ?? PROGRESS_EVERY_MS)) return;
          lastProgress = now;
          port.postMessage({ kind: "progress", file: current, bytes, rows: fileCounts.rowsRead } satisfies LoadWorkerMessage);
        },
        file.arriving && arrivalOf(file.arriving),
      );
      // Which table column each of the file's columns fills: by header name (any case), or by position.
      let positions: (DdlColumn | undefined)[] | undefined = request.parameters.hasHeaderRow ? undefined : [...columns];
      let copied = 0;
      let sources: number[] | undefined;
      let inOrder = false;
      // COPY reads the rows with the file's own delimiter, so that a plain line goes as it is (values.ts copyOptions).
      const delimiter = reading.delimiter.length === 1 ? reading.delimiter : "\t";
      async function* copyChunks(): AsyncGenerator<string> {
        let chunk: string[] = [];
        // In batches: a promise per row would cost more than the checks (read-delimited.ts).
        for await (const batch of reading.batches) {
          for (const record of batch) {
            if (!positions) {
              positions = mapHeader(record.cells, columns, table.name);
              await post({ kind: "header", file: current, cells: record.cells });
              continue;
            }
            // Blank lines (a file's last line, say) are not rows.
            if (isBlankRecord(record)) continue;
            fileCounts.rowsRead++;
            const problem = record.problem
              ? { column: null, value: null, reason: record.problem }
              : rowProblem(record.cells, positions, request.parameters.hasHeaderRow);
            if (problem) {
              await reject({ line: record.row, ...problem, cells: record.cells });
              continue;
            }
            // The cell of each table column (a column the file lacks is empty): checked, then written for COPY.
            if (!sources) {
              sources = columns.map((column) => positions!.indexOf(column));
              inOrder = sources.length === positions.length && sources.every((at, c) => at === c);
            }
            // The table's columns in order, each cell one COPY takes as written: a plain line
            // (read-delimited.ts) is its own COPY text, other records' cells joined may be. Most rows
            // of most files, and the load's fastest path.
            let asIs = inOrder && (record.line === undefined || !record.line.includes("\\"));
            // The first cell that does not fit rejects the row; the others that do not are named in its reason.
            let rejected: Rejection | undefined;
            const others: string[] = [];
            for (let c = 0; c < columns.length; c++) {
              const column = columns[c]!;
              const at = sources[c]!;
              const cell = at < 0 ? "" : record.cells[at]!;
              const why = cellProblem(column, cell, dateOrder);
              if (why) {
                if (rejected) others.push(`${column.name}: ${why}`);
                else rejected = { line: record.row, column: column.name, value: cell, reason: why, cells: record.cells };
                continue;
              }
              if (asIs && !writtenAsIs(column, cell)) asIs = false;
            }
            if (rejected) {
              await reject({ ...rejected, reason: rowReason(rejected.reason, others) });
              continue;
            }
            let line = asIs ? (record.line ?? joinedAsIs(record.cells, delimiter)) : undefined;
            if (line === undefined) {
              line = "";
              for (let c = 0; c < columns.length; c++) {
                const at = sources[c]!;
                const value = copyValue(columns[c]!, at < 0 ? "" : record.cells[at]!, dateOrder, delimiter);
                line += c === 0 ? value : `${delimiter}${value}`;
              }
            }
            chunk.push(withLine ? `${record.row}${delimiter}${line}\n` : `${line}\n`);
            copied++;
            if (chunk.length >= ROWS_PER_CHUNK) {
              yield chunk.join("");
              chunk = [];
            }
          }
          rowsReadSoFar[current] = fileCounts.rowsRead;
        }
        if (chunk.length) yield chunk.join("");
        if (!positions) throw new FlatFileProblem("The file is empty");
      }
      // Two chunks ahead of COPY, not a stream's sixteen: text waiting to be sent is what the young
      // generation copies at each collection (the 1,000,000-row workbook's load: 6 s, was 9).
      await pipeline(Readable.from(copyChunks(), { highWaterMark: 2 }), client.query(copyFrom(`COPY ${into} (${withLine ? "dt_line, " : ""}${columnList}) FROM STDIN WITH (${copyOptions(delimiter)})`)));
      return copied;
    }

    const target = `source.${q(table.name)}`;
    // The direct path, as fast as COPY itself: the rows go straight into the table. Only a duplicate
    // key stops it (within the file, or with Append against the table's rows): then everything of
    // this file is rolled back and the staged path below finds and rejects the duplicates.
    await client.query("SAVEPOINT direct");
    try {
      if (request.mode === "replace") await client.query(`TRUNCATE ${target}`);
      const copied = await copyFile(target, false);
      refuseEmptying(file, copied);
      await client.query("RELEASE SAVEPOINT direct");
      return copied;
    } catch (err) {
      if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err;
      await client.query("ROLLBACK TO SAVEPOINT direct");
      pending = [];
      await post({ kind: "reset", file: current });
      fileCounts.rowsRead = 0;
      fileCounts.rowsRejected = 0;
      rowsReadSoFar[current] = 0;
    }

    const staging = columns.map((c) => `${q(c.name)} ${postgresType(c)}`).join(", ");
    await client.query(`CREATE TEMP TABLE dt_load_rows (dt_line bigint NOT NULL, ${staging})`);
    await copyFile("dt_load_rows", true);
    await rejectDuplicateKeys(client, columns, request.mode === "append", table.name, reject);
    let inserted = 0;
    // With "Load nothing" and a rejected row, the transaction rolls back at the end: no need to move rows.
    if (!(request.onRejected === "loadNothing" && rejectedSoFar() > 0)) {
      if (request.mode === "replace") await client.query(`TRUNCATE ${target}`);
      inserted = (await client.query(`INSERT INTO ${target} (${columnList}) SELECT ${columnList} FROM dt_load_rows ORDER BY dt_line`)).rowCount ?? 0;
    }
    refuseEmptying(file, inserted);
    await client.query("DROP TABLE dt_load_rows");
    await client.query("DROP TABLE IF EXISTS dt_rejected_keys");
    return inserted;
  }

  try {
    await client.query("BEGIN");
    await client.query("SET LOCAL search_path = source");
    for (const [i, file] of request.files.entries()) {
      current = i;
      counts[i]!.rowsLoaded = await loadFile(file);
      await flush();
      port.postMessage({ kind: "file-read", file: i } satisfies LoadWorkerMessage);
    }
    // With "Load nothing", any rejected row of any file rolls everything back: every table stays as it was.
    const rejected = rejectedSoFar();
    if (rejected > 0 && request.onRejected === "loadNothing") {
      await client.query("ROLLBACK");
      const rows = rejected === 1 ? "1 row was rejected" : `${rejected.toLocaleString("en-US")} rows were rejected`;
      return { status: "Refused", message: `${rows}, so nothing was loaded (“Load nothing”)`, files: counts.map((c) => ({ ...c, rowsLoaded: 0 })) };
    }
    await post({ kind: "commit" });
    await client.query("COMMIT");
    return { status: "Loaded", message: null, files: counts };
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    if (err instanceof ReplaceWouldEmptyTable) {
      // Its rejected rows are listed, like those of a load "Load nothing" refused: they say why none was loaded.
      await flush();
      return { status: "Refused", message: err.message, files: counts.map((c) => ({ ...c, rowsLoaded: 0 })) };
    }
    if (err instanceof FlatFileProblem) return await failed(err.message);
    if (err instanceof DelimitedFormatError) return await failed(unreadableFileMessage(err));
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }

  async function failed(message: string): Promise<LoadResult> {
    // The rows rejected before it stopped are listed, as they are counted.
    await flush();
    // With several files, the message names the one that could not be read.
    const which = request.files.length > 1 ? `${request.files[current]!.fileName}: ` : "";
    return { status: "Failed", message: `${which}${message}. Nothing was loaded.`, files: counts.map((c) => ({ ...c, rowsLoaded: 0 })) };
  }
}

/** The table column of each header cell; refuses a header naming a column twice or one the table lacks. */
function mapHeader(header: string[], columns: readonly DdlColumn[], tableName: string): (DdlColumn | undefined)[] {
  const match = matchColumns(header, columns, header.length);
  const problem = headerProblem(match, tableName);
  if (problem) throw new FlatFileProblem(problem);
  return match.positions;
}

/** A row whose number of values is not the file's: rejected as a whole. */
function rowProblem(cells: string[], positions: (DdlColumn | undefined)[], hasHeader: boolean): { column: null; value: null; reason: string } | undefined {
  const reason = rowWidthProblem(cells.length, positions.length, hasHeader ? "header" : "table");
  return reason === null ? undefined : { column: null, value: null, reason };
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
  // One query read through a cursor a batch at a time: the temporary tables have no index, so a query per
  // batch (WHERE dt_line > last … LIMIT) joined and sorted them whole each time, and an Append of 3,000,000
  // rows whose keys were all in the table sat at "99 %" for hours, 1.5 s a batch of 1,000.
  await client.query(
    `DECLARE dt_rejected NO SCROLL CURSOR FOR
       SELECT k.dt_line AS line, k.first_line, ${keyValue} AS value, ARRAY[${cells}] AS cells
         FROM dt_rejected_keys k JOIN dt_load_rows r ON r.dt_line = k.dt_line
        ORDER BY k.dt_line`,
  );
  for (;;) {
    const { rows } = await client.query<{ line: string; first_line: string | null; value: string; cells: string[] }>(`FETCH ${REJECTIONS_PER_BATCH} FROM dt_rejected`);
    for (const row of rows) {
      const reason = row.first_line === null ? "a row with this key is already in the table" : `the same key as row ${row.first_line}`;
      await reject({ line: Number(row.line), column: keyNames, value: row.value, reason, cells: row.cells });
    }
    if (rows.length < REJECTIONS_PER_BATCH) break;
  }
  await client.query("CLOSE dt_rejected");
  await client.query("DELETE FROM dt_load_rows r USING dt_rejected_keys k WHERE r.dt_line = k.dt_line");
}

run().then(
  (result) => port.postMessage({ kind: "end", result } satisfies LoadWorkerMessage),
  (err: unknown) => port.postMessage({ kind: "crash", message: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies LoadWorkerMessage),
);
