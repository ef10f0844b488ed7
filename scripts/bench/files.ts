/** The dictionary files the bench uploads, written to disk as they are generated (never whole in memory). */
import fs from "node:fs";
import { once } from "node:events";
import ExcelJS from "exceljs";

const HEADER = ["table", "column", "type", "length", "precision", "scale", "nullable", "key", "description"];

/** A legacy schema's row: 40 columns a table, the first a key, every third an amount. */
function row(i: number): string[] {
  const t = Math.floor(i / 40);
  const c = i % 40;
  if (c === 0) return [`Table_${t}`, `Id_${t}`, "uniqueidentifier", "", "", "", "no", "yes", `Primary key of table ${t}`];
  if (c % 3 === 0) return [`Table_${t}`, `Amount_${c}`, "decimal", "", "18", "2", "yes", "no", "An amount with two decimals"];
  return [`Table_${t}`, `Column_${c}`, "nvarchar", "200", "", "", "yes", "no", `A text column of table ${t}`];
}

async function writeLines(file: string, lines: Iterable<string>) {
  const out = fs.createWriteStream(file);
  for (const line of lines) if (!out.write(line)) await once(out, "drain");
  out.end();
  await once(out, "finish");
}

/** A valid dictionary CSV of at most `maxBytes`; answers its row count. */
export async function dictionaryCsv(file: string, maxBytes: number): Promise<number> {
  let rows = 0;
  await writeLines(
    file,
    (function* () {
      const header = `${HEADER.join(",")}\n`;
      let size = header.length;
      yield header;
      for (;;) {
        const line = `${row(rows).join(",")}\n`;
        if (size + line.length > maxBytes) return;
        size += line.length;
        rows++;
        yield line;
      }
    })(),
  );
  return rows;
}

/** A CSV of `rows` copies of one column: every row after the first is a duplicate, so a problem. */
export async function duplicateRowsCsv(file: string, rows: number): Promise<void> {
  await writeLines(
    file,
    (function* () {
      yield "table,column,type\n";
      for (let i = 0; i < rows; i++) yield "T1,C1,int\n";
    })(),
  );
}

/** A valid dictionary workbook of `rows` rows, written by ExcelJS's streaming writer. */
export async function dictionaryXlsx(file: string, rows: number): Promise<void> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
  const sheet = workbook.addWorksheet("Dictionary");
  sheet.addRow(HEADER).commit();
  for (let i = 0; i < rows; i++) sheet.addRow(row(i)).commit();
  sheet.commit();
  await workbook.commit();
}
