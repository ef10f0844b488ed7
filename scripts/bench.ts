/**
 * `npm run bench`: speed measured where it matters, never by timed tests. Each case runs a few
 * times and reports the median, on this machine, so changes can be compared run to run.
 *
 * - dictionary upload: parse and diff a CSV just under the 5 MB limit (the heaviest request of the
 *   data API so far: a consultant uploading a whole legacy schema).
 */
import { performance } from "node:perf_hooks";
import { BULK_UPLOAD_MAX_BYTES } from "../contracts/dictionary.ts";
import { diffTables } from "../services/data-api/src/dictionary-bulk/diff.ts";
import { parseDictionaryFile } from "../services/data-api/src/dictionary-bulk/parse-file.ts";

function dictionaryCsv(maxBytes: number): { bytes: Uint8Array; rows: number } {
  const lines = ["table,column,type,length,precision,scale,nullable,key,description"];
  let size = lines[0]!.length + 1;
  for (let t = 0; ; t++) {
    for (let c = 0; c < 40; c++) {
      const line =
        c === 0
          ? `Table_${t},Id_${t},uniqueidentifier,,,,no,yes,Primary key of table ${t}`
          : c % 3 === 0
            ? `Table_${t},Amount_${c},decimal,,18,2,yes,no,An amount with two decimals`
            : `Table_${t},Column_${c},nvarchar,200,,,yes,no,A text column of table ${t}`;
      if (size + line.length + 1 > maxBytes) return { bytes: new TextEncoder().encode(lines.join("\n")), rows: lines.length - 1 };
      lines.push(line);
      size += line.length + 1;
    }
  }
}

async function median(runs: number, fn: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

const { bytes, rows } = dictionaryCsv(BULK_UPLOAD_MAX_BYTES - 1024);
let tables = 0;
const parseMs = await median(5, async () => {
  const parsed = await parseDictionaryFile(bytes, "bench.csv");
  if (parsed.errors.length) throw new Error(`the benchmark file has errors: ${parsed.errors[0]?.message}`);
  tables = parsed.tables.length;
  diffTables(parsed.tables, []);
});
console.log(`dictionary upload: ${(bytes.length / 1024 / 1024).toFixed(1)} MB, ${rows} rows, ${tables} tables, parse + diff median ${parseMs.toFixed(0)} ms`);
