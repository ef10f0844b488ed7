/** The legacy table the load benchmark uses: 7 typed columns, and a CSV of it written as it is generated. */
import { once } from "node:events";
import fs from "node:fs";
import ExcelJS from "exceljs";

/** As the dictionary says it (contracts' ColumnInput), and as `psql \copy`'s anchor table declares it. */
export const LEGACY_COLUMNS = [
  { name: "Id", type: "int", sql: "integer NOT NULL", isKey: true, nullable: false, length: null, precision: null, scale: null },
  { name: "Code", type: "nvarchar", sql: "varchar(12)", isKey: false, nullable: true, length: 12, precision: null, scale: null },
  { name: "Name", type: "nvarchar", sql: "varchar(40)", isKey: false, nullable: true, length: 40, precision: null, scale: null },
  { name: "Amount", type: "decimal", sql: "numeric(12,2)", isKey: false, nullable: true, length: null, precision: 12, scale: 2 },
  { name: "Born", type: "date", sql: "date", isKey: false, nullable: true, length: null, precision: null, scale: null },
  { name: "Visits", type: "int", sql: "integer", isKey: false, nullable: true, length: null, precision: null, scale: null },
  { name: "Note", type: "nvarchar", sql: "varchar(80)", isKey: false, nullable: true, length: 80, precision: null, scale: null },
] as const;

/** A CSV with a header and rows of about 56 bytes until `maxBytes`; answers its row count. */
export async function legacyCsv(file: string, maxBytes: number): Promise<number> {
  const out = fs.createWriteStream(file, { highWaterMark: 1024 * 1024 });
  let bytes = 0;
  let rows = 0;
  const write = async (text: string) => {
    bytes += text.length;
    if (!out.write(text)) await once(out, "drain");
  };
  await write(`${LEGACY_COLUMNS.map((c) => c.name).join(",")}\n`);
  let chunk: string[] = [];
  while (bytes < maxBytes) {
    rows++;
    const day = String((rows % 28) + 1).padStart(2, "0");
    chunk.push(
      `${rows},${String(rows % 1000000).padStart(8, "0")},Customer ${rows % 50000},${(rows % 100000) / 100},19${50 + (rows % 50)}-0${(rows % 9) + 1}-${day},${rows % 97},note ${rows % 13}\n`,
    );
    if (chunk.length === 10000) {
      const text = chunk.join("");
      chunk = [];
      await write(text);
    }
  }
  if (chunk.length) await write(chunk.join(""));
  out.end();
  await once(out, "finish");
  return rows;
}

/**
 * The same rows as an .xlsx written as Excel writes one (shared strings; the code as text, its
 * leading zeros kept; the birth date a date cell), streamed to disk; answers its row count.
 */
export async function legacyXlsx(file: string, rows: number): Promise<number> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: true });
  const sheet = workbook.addWorksheet("Legacy");
  sheet.addRow(LEGACY_COLUMNS.map((c) => c.name)).commit();
  for (let row = 1; row <= rows; row++) {
    const born = new Date(Date.UTC(1950 + (row % 50), row % 9, (row % 28) + 1));
    const line = sheet.addRow([
      row,
      String(row % 1000000).padStart(8, "0"),
      `Customer ${row % 50000}`,
      (row % 100000) / 100,
      born,
      row % 97,
      `note ${row % 13}`,
    ]);
    line.getCell(5).numFmt = "yyyy-mm-dd";
    line.commit();
  }
  sheet.commit();
  await workbook.commit();
  return rows;
}
