import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { BULK_UPLOAD_MAX_BYTES } from "../../../../contracts/dictionary.ts";
import { ApiProblem } from "../api-problem.ts";
import { sheetXml, textCell, workbookParts, zipOf, type ZipPart } from "../testing/xlsx-files.ts";
import { parseDictionaryFile } from "./parse-file.ts";
import { readXlsx, TEXT_LIMIT_MESSAGE } from "./read-xlsx.ts";
import { TOO_MANY_ROWS_MESSAGE } from "./sheet-rows.ts";

const MB = 1024 * 1024;
const HEADER_ROW = `<row r="1">${["table", "column", "type"].map((name, i) => textCell(`${"ABC"[i]}1`, name)).join("")}</row>`;

/** The refusal of `file` (status and message), and how much the process's memory grew meanwhile. */
async function refusal(file: Uint8Array, name = "crafted.xlsx") {
  expect(file.byteLength).toBeLessThanOrEqual(BULK_UPLOAD_MAX_BYTES);
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const err = await parseDictionaryFile(file, name).then(
    () => undefined,
    (e: unknown) => e,
  );
  const grewMb = (process.memoryUsage().rss - rssBefore) / MB;
  expect(err).toBeInstanceOf(ApiProblem);
  const problem = err as ApiProblem;
  expect(problem.fieldErrors).toEqual({ file: [problem.message] });
  return { status: problem.statusCode, message: problem.message, grewMb, ms: performance.now() - started };
}

/** 5,000 rows, each with one value in column XFD: 16,384 cells a row to a reader that fills the gaps. */
const farRightRows = () => Array.from({ length: 5000 }, (_, i) => `<row r="${i + 1}">${textCell(`XFD${i + 1}`, "x")}</row>`).join("");

describe("readXlsx against crafted workbooks", () => {
  it("refuses a worksheet that declares 16,384 columns, before reading a row", async () => {
    const file = zipOf(workbookParts(sheetXml(farRightRows(), "A1:XFD5000")));
    expect(file.byteLength).toBeLessThan(64 * 1024);
    const result = await refusal(file);
    expect(result).toMatchObject({ status: 400, message: "The workbook declares 16,384 columns; a dictionary file has at most 50" });
    expect(result.grewMb).toBeLessThan(300);
  });

  it("refuses a value beyond column 50 while reading, when no dimension is declared", async () => {
    const result = await refusal(zipOf(workbookParts(sheetXml(farRightRows()))));
    expect(result).toMatchObject({ status: 400, message: "Row 1 has a value in column XFD (column 16,384); a dictionary file has at most 50 columns" });
    expect(result.grewMb).toBeLessThan(300);
  });

  it("reads every shape of cell alike, whether it comes whole or cut across the unpacked chunks", async () => {
    // Plain values and empty styled cells take the reader's shortcuts; a formula, an inline string, an
    // entity, CDATA, quotes and spaces in the tag, and any cell cut by a chunk's end are read piece by piece.
    const cells = [
      `<c r="A{r}"><v>{r}</v></c>`,
      `<c r="B{r}" t="s"><v>1</v></c>`,
      `<c r="C{r}" t="inlineStr"><is><t>x &amp; y</t></is></c>`,
      `<c r="D{r}"><f>1+1</f><v>2</v></c>`,
      `<c r="E{r}" t="str"><v>a &lt; b</v></c>`,
      `<c r="F{r}" s="1"/>`,
      `<c r = 'G{r}' t = "s"><v>0</v></c>`,
      `<c r="H{r}" t="str"><v><![CDATA[<raw>]]></v></c>`,
      `<c r="I{r}" t="b"><v>1</v></c>`,
      // A typed cell without a value is empty, not the first shared string.
      `<c r="J{r}" t="s"/>`,
    ].join("");
    // A row of plain cells only (a column left out, an empty styled cell, a typed and styled value) is read whole.
    const plain = `<c r="A{r}"><v>{r}</v></c><c r="B{r}" t="s"><v>1</v></c><c r="C{r}" t="s"/><c r="D{r}" s="1"/><c r="E{r}" s="2" t="b"><v>0</v></c>`;
    // Enough rows for several 64 KB chunks of the unpacked sheet, so cells and rows are cut at many places.
    const rows = Array.from({ length: 3000 }, (_, i) => `<row r="${i + 1}">${(i % 3 ? plain : cells).replaceAll("{r}", String(i + 1))}</row>`).join("");
    expect(rows.length).toBeGreaterThan(3 * 64 * 1024);
    const read = await readXlsx(zipOf(workbookParts(sheetXml(rows), ["first", "second"])), "shapes.xlsx");
    expect(read).toHaveLength(3000);
    read.forEach((row, i) => {
      const r = String(i + 1);
      expect(row).toEqual({ row: i + 1, cells: i % 3 ? [r, "second", "", "", "false"] : [r, "second", "x & y", "2", "a < b", "", "first", "<raw>", "true"] });
    });
  });

  it("reads every shape of shared string alike: plain, spaces kept, rich text runs, phonetic hints left out, entities, empty", async () => {
    const items = [
      `<si><t>plain</t></si>`,
      `<si><t xml:space="preserve"> spaced </t></si>`,
      `<si><r><t>rich </t></r><r><rPr><b/></rPr><t>text</t></r></si>`,
      `<si><t>kanji</t><rPh sb="0" eb="1"><t>kana</t></rPh></si>`,
      `<si><t>a &amp; b &#233;</t></si>`,
      `<si/>`,
      `<si><t/></si>`,
      `<si><t>last</t></si>`,
    ];
    // Repeated past several 64 KB chunks of the unpacked part, so items are cut at many places.
    const repeat = 2000;
    const all = Array.from({ length: repeat }, () => items.join("")).join("");
    expect(all.length).toBeGreaterThan(4 * 64 * 1024);
    const expected = ["plain", " spaced ", "rich text", "kanji", "a & b é", "", "", "last"];
    const cells = (r: number) => expected.map((_, i) => `<c r="${"ABCDEFGH"[i]}${r}" t="s"><v>${(r - 1) * items.length + i}</v></c>`).join("");
    const rows = Array.from({ length: repeat }, (_, i) => `<row r="${i + 1}">${cells(i + 1)}</row>`).join("");
    const parts = workbookParts(sheetXml(rows), []).map((part) =>
      part.name === "xl/sharedStrings.xml" ? { ...part, data: `<?xml version="1.0"?><sst>${all}</sst>` } : part,
    );
    const read = await readXlsx(zipOf(parts), "strings.xlsx");
    expect(read).toHaveLength(repeat);
    // Trailing empty strings leave the row's last cells out, as an empty cell does.
    read.forEach((row, i) => expect(row).toEqual({ row: i + 1, cells: [...expected.slice(0, 5), "", "", "last"] }));
  });

  it("reads past empty styled cells far to the right without keeping them", async () => {
    const rows = `${HEADER_ROW}<row r="2">${textCell("A2", "Orders")}${textCell("B2", "Id")}${textCell("C2", "int")}<c r="XFD2" s="1"/></row>`;
    const parsed = await parseDictionaryFile(zipOf(workbookParts(sheetXml(rows))), "styled.xlsx");
    expect(parsed.errors).toEqual([]);
    expect(parsed.tables).toEqual([{ name: "Orders", columns: [expect.objectContaining({ name: "Id", type: "int" })] }]);
  });

  it("refuses a declared row count beyond 1,000,000", async () => {
    const result = await refusal(zipOf(workbookParts(sheetXml(HEADER_ROW, "A1:C1048576"))));
    expect(result).toMatchObject({ status: 413, message: "The workbook declares 1,048,576 rows; a dictionary file has at most 1,000,000" });
  });

  it("refuses more than 1,000,000 rows while reading, whatever their numbers say", async () => {
    // Stored, not deflated: 1,000,001 empty rows compress far beyond the ratio limit.
    const unnumbered = zipOf(workbookParts({ data: sheetXml(HEADER_ROW + "<row/>".repeat(1_000_000)), store: true }));
    expect(await refusal(unnumbered)).toMatchObject({ status: 413, message: TOO_MANY_ROWS_MESSAGE });
    const renumbered = zipOf(workbookParts({ data: sheetXml('<row r="7"/>'.repeat(1_000_001)), store: true }));
    expect(await refusal(renumbered)).toMatchObject({ status: 413, message: TOO_MANY_ROWS_MESSAGE });
  });

  it("refuses a zip bomb by the size its directory declares, without unpacking it", async () => {
    const bomb = zipOf(workbookParts({ data: sheetXml(HEADER_ROW), declaredSize: 4_000_000_000 }));
    const result = await refusal(bomb);
    expect(result).toMatchObject({
      status: 413,
      message: "The workbook's part 'xl/worksheets/sheet1.xml' unpacks to 3,815 MB; a dictionary file unpacks to at most 640 MB",
    });
    expect(result.grewMb).toBeLessThan(300);
  });

  it("refuses a real zip bomb (deflated blanks, honestly declared) by its compression ratio", async () => {
    const blanks = sheetXml(HEADER_ROW + " ".repeat(8 * MB));
    const result = await refusal(zipOf(workbookParts(blanks)));
    expect(result.status).toBe(413);
    expect(result.message).toMatch(
      /^The workbook's part 'xl\/worksheets\/sheet1\.xml' unpacks to [\d,]+ times its packed size; a dictionary file is never compressed more than 200 to 1$/,
    );
    expect(result.grewMb).toBeLessThan(300);
  });

  it("refuses parts that add up to more than 640 MB, before unpacking any", async () => {
    const padding: ZipPart[] = Array.from({ length: 641 }, (_, i) => ({ name: `xl/media/pad${i}.bin`, data: "x", declaredSize: MB }));
    const result = await refusal(zipOf([...workbookParts(sheetXml(HEADER_ROW)), ...padding]));
    expect(result).toMatchObject({ status: 413, message: "The workbook unpacks to 641 MB; a dictionary file unpacks to at most 640 MB" });
  });

  it("stops unpacking a part that unpacks to more than it declares", async () => {
    // Declares 1,000 bytes (too small for the ratio check) but holds 16 MB of blanks.
    const liar = zipOf(workbookParts({ data: sheetXml(HEADER_ROW + " ".repeat(16 * MB)), declaredSize: 1000 }));
    const result = await refusal(liar, "liar.xlsx");
    expect(result).toMatchObject({ status: 400, message: "'liar.xlsx' is not a valid .xlsx workbook" });
    expect(result.grewMb).toBeLessThan(300);
  });

  it("refuses a workbook of more than 1,000 parts", async () => {
    const parts: ZipPart[] = Array.from({ length: 1000 }, (_, i) => ({ name: `xl/media/image${i}.png`, data: "", store: true }));
    expect(await refusal(zipOf([...workbookParts(sheetXml(HEADER_ROW)), ...parts]))).toMatchObject({
      status: 413,
      message: "The workbook holds 1,004 parts; a dictionary file has at most 1,000",
    });
  });

  it("counts a shared string each time a cell uses it, and refuses beyond 64 MB of text", async () => {
    // One 100,000-character string, used by 9,000 cells: 900 million characters to a naive reader.
    const cells = (r: number) => Array.from({ length: 9 }, (_, c) => `<c r="${"ABCDEFGHI"[c]}${r}" t="s"><v>0</v></c>`).join("");
    const rows = Array.from({ length: 1000 }, (_, i) => `<row r="${i + 1}">${cells(i + 1)}</row>`).join("");
    const result = await refusal(zipOf(workbookParts(sheetXml(rows), ["d".repeat(100_000)])));
    expect(result).toMatchObject({ status: 413, message: TEXT_LIMIT_MESSAGE });
    expect(TEXT_LIMIT_MESSAGE).toBe("The worksheet's cells hold more than 64 MB of text; a dictionary file holds far less");
    expect(result.grewMb).toBeLessThan(300);
  });

  it("refuses a part with a DOCTYPE (no entity expansion) as not a workbook", async () => {
    const sheet = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]><worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&a;</t></is></c></row></sheetData></worksheet>`;
    expect(await refusal(zipOf(workbookParts(sheet)), "doctype.xlsx")).toMatchObject({ status: 400, message: "'doctype.xlsx' is not a valid .xlsx workbook" });
  });

  it("gives the event loop turns while it reads a large worksheet", async () => {
    const row = (r: number) =>
      `<row r="${r}">${textCell(`A${r}`, "Orders")}${textCell(`B${r}`, `Column${r}`)}<c r="C${r}" t="inlineStr"><is><t>int</t></is></c></row>`;
    const file = zipOf(workbookParts(sheetXml(HEADER_ROW + Array.from({ length: 30_000 }, (_, i) => row(i + 2)).join(""))));
    let turns = 0;
    let reading = true;
    const count = async () => {
      while (reading) {
        turns++;
        await nextTurn();
      }
    };
    const counting = count();
    const rows = await readXlsx(file, "large.xlsx");
    reading = false;
    await counting;
    expect(rows).toHaveLength(30_001);
    expect(rows[30_000]).toEqual({ row: 30_001, cells: ["Orders", "Column30001", "int"] });
    // 30,001 rows are over 200,000 elements: a turn every SCAN_SLICE of them, besides the unpacking.
    expect(turns).toBeGreaterThanOrEqual(10);
  });
});
