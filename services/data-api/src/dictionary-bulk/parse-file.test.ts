import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { NUL_MESSAGE } from "../../../../contracts/common.ts";
import { BULK_COLUMNS, BULK_UPLOAD_MAX_BYTES, COLUMN_TYPES } from "../../../../contracts/dictionary.ts";
import { ApiProblem } from "../api-problem.ts";
import { fixture } from "../testing/dictionary-fixtures.ts";
import { parseDictionaryFile } from "./parse-file.ts";
import { EMPTY_FILE_MESSAGE, FILE_TOO_LARGE_MESSAGE, TOO_MANY_ROWS_MESSAGE, WRONG_EXTENSION_MESSAGE } from "./sheet-rows.ts";

const HEADER = "table,column,type,length,precision,scale,nullable,key,description";
const bytes = (text: string) => new TextEncoder().encode(text);
const csv = (...lines: string[]) => parseDictionaryFile(bytes(lines.join("\n")), "dictionary.csv");

async function problemOf(promise: Promise<unknown>) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiProblem);
  const problem = err as ApiProblem;
  return { status: problem.statusCode, message: problem.message, fieldErrors: problem.fieldErrors };
}

async function xlsx(rows: unknown[][]): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Columns");
  for (const row of rows) sheet.addRow(row);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

describe("parseDictionaryFile", () => {
  it("reads the sample CSV into its two tables, every type, in file order", async () => {
    const parsed = await parseDictionaryFile(fixture("sample-dictionary.csv"), "sample-dictionary.csv");
    expect(parsed.errors).toEqual([]);
    expect(parsed.rowCount).toBe(10);
    expect(parsed.tables.map((t) => [t.name, t.columns.length])).toEqual([
      ["Customers", 5],
      ["Orders", 5],
    ]);
    const types = new Set(parsed.tables.flatMap((t) => t.columns.map((c) => c.type)));
    expect([...types].sort()).toEqual([...COLUMN_TYPES].sort());
    expect(parsed.tables[0]!.columns[2]).toEqual({
      name: "CreditLimit",
      type: "decimal",
      length: null,
      precision: 18,
      scale: 2,
      nullable: true,
      isKey: false,
      description: "Credit limit in the customer's currency",
    });
    expect(parsed.tables[1]!.columns[3]!.description).toBe("Kilograms, gross");
  });

  it("accepts the header in any order and case, a BOM, CRLF line ends, blank lines and missing optional columns", async () => {
    const text = "\uFEFFType,TABLE,Column,Key\r\nint,Orders,OrderId,yes\r\n\r\nnvarchar,Orders,Note,\r\n";
    const parsed = await parseDictionaryFile(bytes(text), "x.CSV");
    expect(parsed.errors).toEqual([{ row: 4, column: "length", message: "nvarchar needs a length" }]);
    const ok = await parseDictionaryFile(bytes("\uFEFFType,TABLE,Column,Key\r\nint,Orders,OrderId,yes\r\n"), "x.csv");
    expect(ok.errors).toEqual([]);
    // A key with an empty nullable is not nullable; other columns are.
    expect(ok.tables[0]!.columns[0]).toMatchObject({ name: "OrderId", isKey: true, nullable: false, length: null });
  });

  it.each([
    ["yes", true],
    ["Y", true],
    ["true", true],
    ["1", true],
    ["no", false],
    ["n", false],
    ["FALSE", false],
    ["0", false],
    ["", true],
  ])("reads nullable %j as %s", async (text, nullable) => {
    const parsed = await csv(HEADER, `T,C,int,,,,${text},no,`);
    expect(parsed.errors).toEqual([]);
    expect(parsed.tables[0]!.columns[0]!.nullable).toBe(nullable);
  });

  it("collects every row error with its row number (header = 1) and column", async () => {
    const parsed = await parseDictionaryFile(fixture("sample-dictionary-errors.csv"), "sample-dictionary-errors.csv");
    expect(parsed.rowCount).toBe(5);
    expect(parsed.errors).toEqual([
      { row: 3, column: "type", message: `Unknown type 'varchar2': use one of ${COLUMN_TYPES.join(", ")}` },
      { row: 4, column: "length", message: "nvarchar needs a length" },
      { row: 5, column: "scale", message: "Scale cannot be greater than precision" },
      { row: 6, column: "column", message: "Duplicate column 'customerid' in table 'Customers': first on row 2" },
    ]);
  });

  it("reports the other mistakes a row can hold", async () => {
    const parsed = await csv(
      HEADER,
      ",Id,int,,,,,,",
      "T,first name,int,,,,,,",
      "T,Amount,int,10,,,,,",
      "T,Price,decimal,,x,,,,",
      "T,Flag,int,,,,maybe,,",
      "T,Key,int,,,,yes,yes,",
      "T,Long,nvarchar,5000,,,,,",
      `T,Described,int,,,,,,${"d".repeat(1001)}`,
      "T,,,,,,,,",
      "T,Nul,int,,,,,,Pasted\u0000from a binary file",
      "T,ctid,int,,,,,,",
      `T,${"c".repeat(64)},int,,,,,,`,
    );
    expect(parsed.errors).toEqual([
      { row: 2, column: "table", message: "Required" },
      { row: 3, column: "column", message: "Use letters, digits and underscores, starting with a letter or underscore" },
      { row: 4, column: "length", message: "Only nvarchar takes a length" },
      { row: 5, column: "precision", message: "Precision must be a whole number" },
      { row: 6, column: "nullable", message: "'maybe' is not yes or no (also accepted: y/n, true/false, 1/0, empty)" },
      { row: 7, column: "nullable", message: "A key column cannot be nullable" },
      { row: 8, column: "length", message: "Length must be at most 4000" },
      { row: 9, column: "description", message: "At most 1000 characters" },
      { row: 10, column: "type", message: "Required" },
      { row: 10, column: "column", message: "Required" },
      { row: 11, column: "description", message: NUL_MESSAGE },
      { row: 12, column: "column", message: "ctid is a name PostgreSQL keeps for its own columns: choose another" },
      { row: 13, column: "column", message: "At most 63 characters" },
    ]);
    expect(parsed.tables.flatMap((t) => t.columns)).toEqual([]);
  });

  it("names a missing header column once per column, and reads no rows", async () => {
    const parsed = await csv("table,name,kind", "Orders,Id,int");
    expect(parsed.errors).toEqual([
      expect.objectContaining({ row: 1, column: "name", message: expect.stringContaining("Unknown column 'name'") }),
      expect.objectContaining({ row: 1, column: "kind", message: expect.stringContaining("Unknown column 'kind'") }),
      expect.objectContaining({ row: 1, column: "column", message: expect.stringContaining("no 'column' column") }),
      expect.objectContaining({ row: 1, column: "type", message: expect.stringContaining("no 'type' column") }),
    ]);
    expect(parsed.tables).toEqual([]);
  });

  it("says so once when the file has no header row", async () => {
    const parsed = await csv("Orders,Id,int", "Orders,Total,decimal");
    expect(parsed.errors).toEqual([
      { row: 1, column: null, message: `The first row must be the header row naming the columns (${BULK_COLUMNS.join(", ")}); row 1 names none of them` },
    ]);
  });

  it.each([
    ["';'", "table;column;type\nOrders;Id;int"],
    ["tabs", "table\tcolumn\ttype\nOrders\tId\tint"],
    ["'|'", "table|column|type\nOrders|Id|int"],
  ])("says the file is not comma-separated when its header is one field separated by %s", async (name, text) => {
    const parsed = await parseDictionaryFile(bytes(text), "semi.csv");
    expect(parsed.errors).toEqual([{ row: 1, column: null, message: `The file is not comma-separated: its header row is one field separated by ${name}. Save it as CSV (comma delimited)` }]);
    expect(parsed.tables).toEqual([]);
  });

  it("reports broken CSV quoting as a row error", async () => {
    const parsed = await csv(HEADER, 'Orders,"Id,int');
    expect(parsed.errors).toEqual([{ row: 2, column: null, message: expect.stringContaining("The file is not valid CSV") }]);
    expect((await csv(HEADER, "Orders,Id,int", 'Orders,Size,int,,,,,,5" screen')).errors).toEqual([
      { row: 3, column: null, message: 'The file is not valid CSV: on row 3, a field with a quote in it must be quoted, with the quote doubled ("")' },
    ]);
    expect((await csv(HEADER, 'Orders,"Id"x,int')).errors).toEqual([{ row: 2, column: null, message: expect.stringContaining("on row 2, a quote inside a quoted field must be doubled") }]);
  });

  it("reads quoted CSV fields with commas, line breaks and doubled quotes, and CR line ends", async () => {
    const parsed = await parseDictionaryFile(bytes(`${HEADER}\rOrders,Id,int,,,,,,"Key, ""primary""\r\nof the table"\rOrders,"Total",int,,,,,,\r`), "quoted.csv");
    expect(parsed.errors).toEqual([]);
    expect(parsed.rowCount).toBe(2);
    expect(parsed.tables[0]!.columns.map((c) => [c.name, c.description])).toEqual([
      ["Id", 'Key, "primary"\r\nof the table'],
      ["Total", null],
    ]);
  });

  it("reads the first worksheet of an .xlsx the same way, numbers and all", async () => {
    const file = await xlsx([
      ["Table", "Column", "Type", "Length", "Precision", "Scale", "Nullable", "Key", "Description"],
      ["Orders", "OrderId", "bigint", null, null, null, false, true, { richText: [{ text: "Primary " }, { text: "key" }] }],
      ["Orders", "Total", "DECIMAL", null, 12, 2, "yes", "no", null],
      ["Orders", "Total", "int", null, null, null, null, null, null],
      ["Orders", "Note", "nvarchar", null, null, null, null, null, null],
    ]);
    const parsed = await parseDictionaryFile(file, "dictionary.xlsx");
    expect(parsed.rowCount).toBe(4);
    expect(parsed.errors).toEqual([
      { row: 4, column: "column", message: "Duplicate column 'Total' in table 'Orders': first on row 3" },
      { row: 5, column: "length", message: "nvarchar needs a length" },
    ]);
    expect(parsed.tables[0]!.columns).toEqual([
      { name: "OrderId", type: "bigint", length: null, precision: null, scale: null, nullable: false, isKey: true, description: "Primary key" },
      { name: "Total", type: "decimal", length: null, precision: 12, scale: 2, nullable: true, isKey: false, description: null },
    ]);
  });

  it("reads the sample .xlsx", async () => {
    const parsed = await parseDictionaryFile(fixture("sample-dictionary-update.xlsx"), "sample-dictionary-update.xlsx");
    expect(parsed.errors).toEqual([]);
    expect(parsed.tables.map((t) => [t.name, t.columns.map((c) => c.name)])).toEqual([
      ["Customers", ["CustomerId", "Name", "Email", "CreditLimit", "CreatedAt"]],
      ["Products", ["ProductId", "Title"]],
    ]);
  });

  it("refuses a file that is not an .xlsx workbook", async () => {
    expect(await problemOf(parseDictionaryFile(bytes("table,column,type\nT,C,int"), "fake.xlsx"))).toEqual({
      status: 400,
      message: "'fake.xlsx' is not a valid .xlsx workbook",
      fieldErrors: { file: ["'fake.xlsx' is not a valid .xlsx workbook"] },
    });
  });

  it.each([
    ["an empty file", new Uint8Array(0), "empty.csv", 400, EMPTY_FILE_MESSAGE],
    ["a file of blank lines", bytes("\uFEFF\n \n"), "blank.csv", 400, EMPTY_FILE_MESSAGE],
    ["a file over the limit", new Uint8Array(BULK_UPLOAD_MAX_BYTES + 1), "big.csv", 413, FILE_TOO_LARGE_MESSAGE],
    ["another extension", bytes(HEADER), "dictionary.txt", 400, WRONG_EXTENSION_MESSAGE],
    ["a file that is not UTF-8", new Uint8Array([0x74, 0x61, 0x62, 0xe9, 0x0a]), "latin1.csv", 400, "The file is not UTF-8 text: save it as CSV UTF-8 (comma delimited)"],
  ])("refuses %s as a whole", async (_what, file, name, status, message) => {
    expect(await problemOf(parseDictionaryFile(file, name))).toEqual({ status, message, fieldErrors: { file: [message] } });
  });

  it("names the worksheet read when a workbook's first worksheet is not the dictionary (a cover or notes sheet)", async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("Notes").addRow(["This workbook describes the Staff table"]);
    const columns = workbook.addWorksheet("Columns");
    columns.addRow(["table", "column", "type"]);
    columns.addRow(["Staff", "StaffId", "int"]);
    const parsed = await parseDictionaryFile(new Uint8Array(await workbook.xlsx.writeBuffer()), "staff.xlsx");
    expect(parsed.errors).toEqual([
      {
        row: 1,
        column: null,
        message: `The first row must be the header row naming the columns (${BULK_COLUMNS.join(", ")}); row 1 of the worksheet 'Notes' names none of them. A dictionary file is read from its first worksheet: this workbook's are Notes, Columns`,
      },
    ]);
    // A workbook of one worksheet is said as a CSV file is.
    const one = await parseDictionaryFile(await xlsx([["Orders", "Id", "int"]]), "one.xlsx");
    expect(one.errors.map((e) => e.message)).toEqual([`The first row must be the header row naming the columns (${BULK_COLUMNS.join(", ")}); row 1 names none of them`]);
  });

  it("refuses an .xlsx whose first worksheet is empty", async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("Empty");
    const file = new Uint8Array(await workbook.xlsx.writeBuffer());
    expect((await problemOf(parseDictionaryFile(file, "empty.xlsx"))).message).toBe(EMPTY_FILE_MESSAGE);
  });

  it("refuses a CSV of more than 1,000,000 rows (5 MB of line breaks) without holding millions of rows", async () => {
    const rssBefore = process.memoryUsage().rss;
    const problem = await problemOf(parseDictionaryFile(bytes(`${HEADER}\n`.padEnd(5 * 1024 * 1024, "\n")), "blank-lines.csv"));
    expect(problem).toEqual({ status: 413, message: TOO_MANY_ROWS_MESSAGE, fieldErrors: { file: [TOO_MANY_ROWS_MESSAGE] } });
    expect(TOO_MANY_ROWS_MESSAGE).toBe("The file has more than 1,000,000 rows; a dictionary file has at most 1,000,000");
    expect((process.memoryUsage().rss - rssBefore) / (1024 * 1024)).toBeLessThan(300);
  });

  it("drops empty CSV cells beyond column 50, and refuses a value there", async () => {
    const parsed = await csv(`${HEADER}${",".repeat(60)}`, `Orders,Id,int,,,,,,${",".repeat(60)}`);
    expect(parsed.errors).toEqual([]);
    expect(parsed.tables).toEqual([{ name: "Orders", columns: [expect.objectContaining({ name: "Id" })] }]);
    expect(await problemOf(csv(HEADER, `Orders,Id,int${",".repeat(57)}note`))).toEqual({
      status: 400,
      message: "Row 2 has a value in column 60; a dictionary file has at most 50 columns",
      fieldErrors: { file: ["Row 2 has a value in column 60; a dictionary file has at most 50 columns"] },
    });
  });

  it("reads a row of five million empty cells in time linear in its length, keeping 50", async () => {
    // Against itself, not a clock (a busy machine is slower at both): a row five times as long takes
    // about five times as long; work per cell that grew with the row (a copy of the row so far, say)
    // would make it some twenty-five.
    const timed = async (cells: number) => {
      const started = performance.now();
      const parsed = await parseDictionaryFile(bytes(`${HEADER}\nOrders,Id,int${",".repeat(cells)}`), "commas.csv");
      expect(parsed).toMatchObject({ rowCount: 1, errors: [] });
      return performance.now() - started;
    };
    const short = await timed(1_000_000);
    const long = await timed(5_000_000);
    expect(long / short).toBeLessThan(12);
  });

  it("gives the event loop turns while it parses a large CSV", async () => {
    // csv-parse took some 50 µs, synchronously, for each row shorter than the header.
    let turns = 0;
    let parsing = true;
    const counting = (async () => {
      while (parsing) {
        turns++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const parsed = await parseDictionaryFile(bytes(`${HEADER}\n${"Orders,Id,int\n".repeat(60_000)}`), "long.csv");
    parsing = false;
    await counting;
    expect(parsed.rowCount).toBe(60_000);
    expect(parsed.errors).toHaveLength(59_999);
    expect(turns).toBeGreaterThanOrEqual(10);
  });

  it("says the file is larger than 64 MB", () => {
    expect(FILE_TOO_LARGE_MESSAGE).toBe("The file is larger than 64 MB");
  });
});
