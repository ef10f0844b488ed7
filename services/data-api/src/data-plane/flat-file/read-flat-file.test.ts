import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import { afterAll, describe, expect, it } from "vitest";
import { flatFileParametersSchema, type FlatFileParameters } from "../../../../../contracts/projects.ts";
import { column } from "../../testing/project-fixtures.ts";
import { sheetXml, textCell, workbookParts, zipOf } from "../../testing/xlsx-files.ts";
import type { DdlTable } from "../postgres-ddl.ts";
import { FlatFileProblem, readFlatFile, type FlatFileRecord } from "./read-flat-file.ts";
import { NOT_TEXT_MESSAGE, ZIP_NOT_TEXT_MESSAGE } from "./text-encoding.ts";
import { TEXT_NOT_WORKBOOK_MESSAGE } from "./read-worksheet.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dt-read-flat-file-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let files = 0;
function fileOf(bytes: string | Uint8Array): string {
  const file = path.join(dir, `f${++files}`);
  fs.writeFileSync(file, bytes);
  return file;
}

const TABLE: DdlTable = {
  name: "Customers",
  columns: [column("Code", "nvarchar", { length: 6 }), column("Name", "nvarchar", { length: 10 }), column("Balance", "decimal", { precision: 8, scale: 2 })],
};
const params = (p: Partial<FlatFileParameters> & Pick<FlatFileParameters, "extension" | "delimiter">) =>
  flatFileParametersSchema.parse({ hasHeaderRow: true, ...p });

/** How the file was read, and its records once all are read. */
async function read(file: string, parameters: FlatFileParameters, table = TABLE) {
  const reading = await readFlatFile(file, parameters, table);
  const records = [];
  for await (const r of reading.records) records.push(r);
  return { encoding: reading.encoding, delimiter: reading.delimiter, records };
}
const problemOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "read without a problem",
    (err: unknown) => (err instanceof FlatFileProblem ? err.message : err),
  );

const CSV = "Code;Name\n007;Zoë\n";
const csv = params({ extension: ".csv", delimiter: "AutoDetect" });

describe("a text file's encoding, detected", () => {
  it("reads UTF-16 BE with its byte-order mark, and without one from its NUL bytes", async () => {
    const be = (text: string) => Buffer.from(text, "utf16le").swap16();
    for (const bytes of [Buffer.concat([Buffer.from([0xfe, 0xff]), be(CSV)]), be(CSV)]) {
      const result = await read(fileOf(bytes), csv);
      expect(result).toMatchObject({ encoding: "UTF-16BE", delimiter: ";" });
      expect(result.records.map((r) => r.cells)).toEqual([
        ["Code", "Name"],
        ["007", "Zoë"],
      ]);
    }
  });

  it("reads UTF-16 LE and UTF-8 from their byte-order marks, the mark not part of the first header", async () => {
    const le = await read(fileOf(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CSV, "utf16le")])), csv);
    expect(le).toMatchObject({ encoding: "UTF-16LE", records: [{ cells: ["Code", "Name"] }, { cells: ["007", "Zoë"] }] });
    const utf8 = await read(fileOf(`\uFEFF${CSV}`), csv);
    expect(utf8).toMatchObject({ encoding: "UTF-8", records: [{ cells: ["Code", "Name"] }, { cells: ["007", "Zoë"] }] });
  });

  it("takes a file that is not valid UTF-8 for Windows-1252", async () => {
    const bytes = Buffer.concat([Buffer.from("Code,Name\n1,Caf"), Buffer.from([0xe9, 0x20, 0x93]), Buffer.from("Zo"), Buffer.from([0xeb, 0x94, 0x0a])]);
    const result = await read(fileOf(bytes), csv);
    expect(result.encoding).toBe("Windows-1252");
    expect(result.records[1]!.cells).toEqual(["1", "Café “Zoë”"]);
  });

  it("decides at the first byte above 127, however far down it comes", async () => {
    const ascii = "Code,Name\n" + "1,plain ascii text\n".repeat(20_000); // well past the first 64 KB
    const latin = await read(fileOf(Buffer.concat([Buffer.from(ascii), Buffer.from("2,Müller\n", "latin1")])), csv);
    expect(latin.encoding).toBe("Windows-1252");
    expect(latin.records.at(-1)!.cells).toEqual(["2", "Müller"]);
    const utf8 = await read(fileOf(`${ascii}2,Müller\n`), csv);
    expect(utf8.encoding).toBe("UTF-8");
    expect(utf8.records.at(-1)!.cells).toEqual(["2", "Müller"]);
  });

  it("refuses a binary file under a text extension, in any encoding chosen, and names a workbook for what it is", async () => {
    const binary = fileOf(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 1, 0]));
    for (const encoding of ["AutoDetect", "UTF-8", "UTF-16LE", "UTF-16BE", "Windows-1252"] as const) {
      expect(await problemOf(read(binary, { ...csv, encoding }))).toBe(NOT_TEXT_MESSAGE);
    }
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("Data").addRow(["Code"]);
    expect(await problemOf(read(fileOf(new Uint8Array(await workbook.xlsx.writeBuffer())), csv))).toBe(ZIP_NOT_TEXT_MESSAGE);
  });

  it("refuses a byte-order mark that contradicts the encoding chosen, and text not valid in it", async () => {
    const bom16 = fileOf(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CSV, "utf16le")]));
    expect(await problemOf(read(bom16, { ...csv, encoding: "UTF-8" }))).toBe(
      "The file starts with a UTF-16 LE byte-order mark: choose the encoding UTF-16 LE (or Auto detect)",
    );
    const latin = fileOf(Buffer.from("Code,Name\n1,Müller\n", "latin1"));
    expect(await problemOf(read(latin, { ...csv, encoding: "UTF-8" }))).toBe("The file is not UTF-8 text: choose the encoding it was saved in");
  });
});

describe("a fixed-length file", () => {
  const fixed = params({ extension: ".txt", delimiter: "FixedLength", hasHeaderRow: false });

  it("cuts lines by the dictionary's widths, unpadded, reads a short line's missing fields as blank, and names a line too long", async () => {
    // Code 6, Name 10, Balance decimal(8,2): 10 wide.
    const line = (code: string, name: string, balance: string) => code.padEnd(6) + name.padEnd(10) + balance.padStart(10);
    const text =
      [line("007", "Zoë", "12.50"), "", line("000123", "Long name", "-1234.56"), "12    short line", "13    Cut", `${line("14", "Too long", "1.00")}xx`].join(
        "\r\n",
      ) + "\r\n";
    const { records, delimiter } = await read(fileOf(text), fixed);
    expect(delimiter).toBe("fixed length");
    expect(records).toEqual([
      { row: 1, cells: ["007", "Zoë", "12.50"] },
      { row: 2, cells: ["", "", ""] },
      { row: 3, cells: ["000123", "Long name", "-1234.56"] },
      // An editor trimmed the blank fields' padding at the line's end: they are blank, not a wrong length.
      { row: 4, cells: ["12", "short line", ""] },
      { row: 5, cells: ["13", "Cut", ""] },
      { row: 6, cells: ["14", "Too long", "1.00"], problem: "28 characters where the column widths add up to 26" },
    ]);
  });

  it("takes the widths saved for the table, in any case, and refuses widths saved for another column count", async () => {
    const saved = { ...fixed, columnWidths: { customers: [3, 2, 4] } };
    expect((await read(fileOf("007Zo12.5\n"), saved)).records).toEqual([{ row: 1, cells: ["007", "Zo", "12.5"] }]);
    expect(await problemOf(read(fileOf("007Zo12.5\n"), { ...fixed, columnWidths: { Customers: [3, 2] } }))).toBe(
      "The column widths saved for Customers are 2, but the table has 3 columns: save the flat-file parameters with 3 widths",
    );
  });

  it("reads lines cut across chunks, counting characters rather than UTF-16 units", async () => {
    const line = "😀😀😀😀😀😀" + "x".repeat(10) + "1.00".padStart(10);
    const text = `${line}\n`.repeat(30_000);
    const { records } = await read(fileOf(text), fixed);
    expect(records).toHaveLength(30_000);
    expect(records.every((r) => r.problem === undefined && r.cells[0] === "😀😀😀😀😀😀" && r.cells[2] === "1.00")).toBe(true);
  });
});

describe("an .xlsx worksheet", () => {
  const xlsx = params({ extension: ".xlsx", delimiter: "Excel" });

  async function workbookFile() {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("Notes").addRow(["not this one"]);
    const sheet = workbook.addWorksheet("Customers");
    sheet.addRow(["Code", "Joined", "At", "Balance", "Flag"]);
    sheet.addRow(["007", new Date(Date.UTC(2024, 0, 31)), new Date(Date.UTC(2024, 0, 31, 10, 30)), 1234.5, true]);
    sheet.addRow(["0042", null, null, 0.1]);
    sheet.getColumn(2).numFmt = "dd/mm/yyyy";
    sheet.getColumn(3).numFmt = "yyyy-mm-dd hh:mm";
    return fileOf(new Uint8Array(await workbook.xlsx.writeBuffer()));
  }

  it("reads the named worksheet: text with its leading zeros, numbers as written, date cells as ISO dates and datetimes", async () => {
    const { records, delimiter, encoding } = await read(await workbookFile(), { ...xlsx, worksheet: "customers" });
    expect({ delimiter, encoding }).toEqual({ delimiter: "excel", encoding: null });
    expect(records).toEqual([
      { row: 1, cells: ["Code", "Joined", "At", "Balance", "Flag"] },
      { row: 2, cells: ["007", "2024-01-31", "2024-01-31 10:30:00", "1234.5", "TRUE"] },
      // Empty cells at a row's end come back, up to the header's width.
      { row: 3, cells: ["0042", "", "", "0.1", ""] },
    ]);
  });

  it("reads the first worksheet when none is named, and refuses a missing one naming those there are", async () => {
    const file = await workbookFile();
    expect((await read(file, xlsx)).records).toEqual([{ row: 1, cells: ["not this one"] }]);
    expect(await problemOf(read(file, { ...xlsx, worksheet: "Orders" }))).toBe("The workbook has no worksheet 'Orders': its worksheets are Notes, Customers");
  });

  it("refuses a file that is no workbook", async () => {
    // A text file (a CSV loaded after the parameters were set for a workbook): what to do instead.
    expect(await problemOf(read(fileOf("Code,Name\n"), xlsx))).toBe(TEXT_NOT_WORKBOOK_MESSAGE);
    // A zip archive that holds no workbook: not a valid one.
    expect(await problemOf(read(fileOf(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 1, 2, 3])), xlsx))).toBe(
      "The file is not a valid .xlsx workbook",
    );
  });
});

describe("a file that cannot be read at its third row", () => {
  /** The records handed on before the reader stopped, and why it stopped. */
  async function readUntilProblem(file: string, parameters: FlatFileParameters) {
    const records: FlatFileRecord[] = [];
    const problem = await problemOf(
      (async () => {
        for await (const batch of (await readFlatFile(file, parameters, TABLE)).batches) records.push(...batch);
      })(),
    );
    return { rows: records.map((r) => r.row), cells: records.map((r) => r.cells), problem };
  }
  const notUtf8 = "The file is not UTF-8 text: choose the encoding it was saved in";
  const latin1 = (text: string) => Buffer.from(text, "latin1");

  it("hands on the rows before it, delimited or fixed-length, then says the text is not in its encoding", async () => {
    const delimited = params({ extension: ".csv", delimiter: "Comma", encoding: "UTF-8" });
    expect(await readUntilProblem(fileOf(latin1("Code,Name\n1,A\n2,Müller\n3,C\n")), delimited)).toMatchObject({ rows: [1, 2], problem: notUtf8 });
    const fixed = params({ extension: ".txt", delimiter: "FixedLength", hasHeaderRow: false, encoding: "UTF-8" });
    expect(await readUntilProblem(fileOf(latin1("1     A\n2     B\n3     Müller\n4     D\n")), fixed)).toMatchObject({ rows: [1, 2], problem: notUtf8 });
  });

  it("hands on the rows before it whole when a character of theirs is cut by a chunk's end, in UTF-8 and UTF-16", async () => {
    // Row 1 ends the file's first 64 KB chunk with its last character's first byte(s); row 3 is not valid text.
    const cut = (encoding: "UTF-8" | "UTF-16LE", char: string, bad: number[]) => {
      const encode = (text: string) => Buffer.from(text, encoding === "UTF-8" ? "utf8" : "utf16le");
      const name = "x".repeat((65_536 - encode(char).length / 2 - encode("Code,Name\n1,").length) / encode("x").length) + char;
      const file = fileOf(Buffer.concat([encode(`Code,Name\n1,${name}\n2,B\n3,`), Buffer.from(bad), encode("\n")]));
      return { file, name, parameters: params({ extension: ".csv", delimiter: "Comma", encoding }) };
    };
    for (const { file, name, parameters } of [cut("UTF-8", "é", [0xff]), cut("UTF-16LE", "😀", [0x00, 0xdc])]) {
      const { cells, problem } = await readUntilProblem(file, parameters);
      expect(problem).toBe(`The file is not ${parameters.encoding === "UTF-8" ? "UTF-8" : "UTF-16 LE"} text: choose the encoding it was saved in`);
      expect(cells).toEqual([
        ["Code", "Name"],
        ["1", name],
        ["2", "B"],
      ]);
    }
  });

  it("hands on the rows of a worksheet before it, then says why", async () => {
    const rows = [1, 2].map((r) => `<row r="${r}">${textCell(`A${r}`, `C${r}`)}</row>`).join("") + `<row r="3">${textCell("BIO3", "far")}</row>`;
    const file = fileOf(zipOf(workbookParts(sheetXml(rows))));
    expect(await readUntilProblem(file, params({ extension: ".xlsx", delimiter: "Excel" }))).toMatchObject({
      rows: [1, 2],
      problem: "Row 3 has a value in column BIO (column 1,601); a load has at most 1,600 columns",
    });
  });
});
