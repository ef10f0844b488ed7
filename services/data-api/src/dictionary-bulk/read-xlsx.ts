/**
 * The rows of an .xlsx workbook's first worksheet, read without trusting the file: a workbook is a
 * zip of XML parts, and a crafted one can unpack to gigabytes (a zip bomb) or declare a cell in
 * column XFD on every row. So, before unpacking anything, the zip's own directory is checked
 * (parts, declared sizes, compression ratio: zip-directory.ts); each part is unpacked with a cap
 * at its declared size; and while the worksheet is read, its declared dimension, every cell's
 * column, the row count and the text kept are held to the limits of contracts/dictionary.ts.
 * Only the parts needed are unpacked (workbook, its relationships, shared strings, first sheet),
 * the big ones as streams read from the file (zip-directory.ts inflateEntryStream) fed to the XML
 * scanner chunk by chunk: the sheet is never in memory whole, its rows are handed on as they
 * complete. The reader keeps cells up to the column limit and nothing else, and gives the event
 * loop a turn every few thousand elements (xml-scan.ts).
 */
import path from "node:path";
import {
  BULK_UPLOAD_MAX_COLUMNS,
  BULK_UPLOAD_MAX_ROWS,
  BULK_UPLOAD_MAX_TEXT_CHARS,
  BULK_XLSX_MAX_COMPRESSION_RATIO,
  BULK_XLSX_MAX_PARTS,
  BULK_XLSX_MAX_UNPACKED_BYTES,
  BULK_XLSX_RATIO_CHECKED_ABOVE_BYTES,
} from "../../../../contracts/dictionary.ts";
import { columnBeyondLimitMessage, EMPTY_FILE_MESSAGE, fileProblem, TOO_MANY_ROWS_MESSAGE, type SheetRow } from "./sheet-rows.ts";
import { attribute, decodeXmlText, scanXml, XmlFormatError, XmlScanner, type XmlHandler } from "./xml-scan.ts";
import { bytesSource, inflateEntry, inflateEntryStream, readZipDirectory, ZipFormatError, type ZipEntry, type ZipSource } from "./zip-directory.ts";

const MB = 1024 * 1024;
const count = (n: number) => n.toLocaleString("en-US");
const megabytes = (bytes: number) => {
  const mb = bytes / MB;
  return `${mb.toLocaleString("en-US", { maximumFractionDigits: mb < 100 ? 1 : 0 })} MB`;
};

export const UNPACKED_LIMIT_MESSAGE = `a dictionary file unpacks to at most ${megabytes(BULK_XLSX_MAX_UNPACKED_BYTES)}`;
export const TEXT_LIMIT_MESSAGE = `The worksheet's cells hold more than ${megabytes(BULK_UPLOAD_MAX_TEXT_CHARS)} of text; a dictionary file holds far less`;

/** The first worksheet's rows (those with at least one value), numbered as Excel numbers them. */
export async function readXlsx(bytes: Uint8Array, fileName: string): Promise<SheetRow[]> {
  const rows: SheetRow[] = [];
  for await (const row of readXlsxRows(bytesSource(bytes), fileName)) rows.push(row);
  return rows;
}

/** The same rows as they are read, from a workbook on disk (or anywhere a ZipSource reads). */
export async function* readXlsxRows(source: ZipSource, fileName: string): AsyncGenerator<SheetRow> {
  const notAWorkbook = () => fileProblem(400, `'${fileName}' is not a valid .xlsx workbook`);
  try {
    const parts = checkParts(readZipDirectory(source));
    const unpack = async (name: string) => {
      const entry = parts.get(name);
      return entry ? new TextDecoder().decode(await inflateEntry(source, entry)) : undefined;
    };

    // A zip that is not a workbook (a .docx renamed, say) has no xl/workbook.xml or no sheet in it.
    const workbook = await unpack("xl/workbook.xml");
    if (workbook === undefined) throw notAWorkbook();
    const relationships = await readRelationships((await unpack("xl/_rels/workbook.xml.rels")) ?? "");
    const sheetId = await firstSheetRelationship(workbook);
    const sheetPart = relationships.find((r) => r.id === sheetId)?.part;
    const sheetEntry = sheetPart === undefined ? undefined : parts.get(sheetPart);
    if (sheetEntry === undefined) throw notAWorkbook();
    const sharedStringsPart = relationships.find((r) => r.type.endsWith("/sharedStrings"))?.part ?? "xl/sharedStrings.xml";
    const sharedEntry = parts.get(sharedStringsPart);
    const sharedStrings: string[] = [];
    if (sharedEntry) {
      for await (const _ of scanPart(source, sharedEntry, sharedStringsReader(sharedStrings))) {
        // The strings are collected by the handler; nothing to hand on per chunk.
      }
    }

    const sheet = sheetReader(sharedStrings);
    let any = false;
    for await (const _ of scanPart(source, sheetEntry, sheet.handler)) {
      for (const row of sheet.take()) {
        any = true;
        yield row;
      }
    }
    for (const row of sheet.take()) {
      any = true;
      yield row;
    }
    if (!any) throw fileProblem(400, EMPTY_FILE_MESSAGE);
  } catch (err) {
    if (err instanceof ZipFormatError || err instanceof XmlFormatError) throw notAWorkbook();
    throw err;
  }
}

/** Unpacks one part as a stream into the scanner, yielding after each chunk so the caller can take what it found. */
async function* scanPart(source: ZipSource, entry: ZipEntry, handler: XmlHandler): AsyncGenerator<void> {
  const scanner = new XmlScanner(handler);
  const decoder = new TextDecoder();
  const stream = inflateEntryStream(source, entry);
  try {
    for await (const chunk of stream) {
      await scanner.push(decoder.decode(chunk as Buffer, { stream: true }));
      yield;
      if (scanner.stopped) return;
    }
    await scanner.push(decoder.decode());
    await scanner.end();
  } finally {
    stream.destroy();
  }
}

/** The zip's entries by name, once their number and declared sizes are within the limits. */
function checkParts(entries: ZipEntry[]): Map<string, ZipEntry> {
  if (entries.length > BULK_XLSX_MAX_PARTS) {
    throw fileProblem(413, `The workbook holds ${count(entries.length)} parts; a dictionary file has at most ${count(BULK_XLSX_MAX_PARTS)}`);
  }
  let total = 0;
  for (const entry of entries) {
    if (entry.uncompressedSize > BULK_XLSX_MAX_UNPACKED_BYTES) {
      throw fileProblem(413, `The workbook's part '${entry.name}' unpacks to ${megabytes(entry.uncompressedSize)}; ${UNPACKED_LIMIT_MESSAGE}`);
    }
    const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
    if (entry.uncompressedSize > BULK_XLSX_RATIO_CHECKED_ABOVE_BYTES && ratio > BULK_XLSX_MAX_COMPRESSION_RATIO) {
      throw fileProblem(
        413,
        `The workbook's part '${entry.name}' unpacks to ${count(Math.round(ratio))} times its packed size; a dictionary file is never compressed more than ${BULK_XLSX_MAX_COMPRESSION_RATIO} to 1`,
      );
    }
    total += entry.uncompressedSize;
  }
  if (total > BULK_XLSX_MAX_UNPACKED_BYTES) throw fileProblem(413, `The workbook unpacks to ${megabytes(total)}; ${UNPACKED_LIMIT_MESSAGE}`);
  return new Map(entries.map((e) => [e.name, e]));
}

type Relationship = { id: string; type: string; part: string };

/** xl/_rels/workbook.xml.rels: each relationship's id, type and the zip part it points to. */
async function readRelationships(xml: string): Promise<Relationship[]> {
  const found: Relationship[] = [];
  await scanXml(xml, {
    open(name, attributes) {
      if (name !== "Relationship") return;
      const id = attribute(attributes, "Id");
      const target = attribute(attributes, "Target");
      if (id === undefined || target === undefined || attribute(attributes, "TargetMode") === "External") return;
      // Targets are relative to xl/ ("worksheets/sheet1.xml") or absolute in the package ("/xl/…").
      const part = target.startsWith("/") ? path.posix.normalize(target.slice(1)) : path.posix.normalize(path.posix.join("xl", target));
      found.push({ id, type: attribute(attributes, "Type") ?? "", part });
    },
  });
  return found;
}

/** xl/workbook.xml: the relationship id of the first sheet in tab order. */
async function firstSheetRelationship(xml: string): Promise<string | undefined> {
  let id: string | undefined;
  await scanXml(xml, {
    open(name, attributes) {
      if (name !== "sheet") return;
      id = attribute(attributes, "id");
      return "stop";
    },
  });
  return id;
}

/** xl/sharedStrings.xml: each `<si>` as its text (rich text runs joined, phonetic hints left out), into `strings`. */
function sharedStringsReader(strings: string[]): XmlHandler {
  let item: string[] | null = null;
  let inText = false;
  let phonetic = 0;
  return {
    open(name, _attributes, selfClosing) {
      if (name === "si") item = [];
      else if (name === "rPh") phonetic++;
      else if (name === "t" && item && phonetic === 0 && !selfClosing) inText = true;
    },
    close(name) {
      if (name === "t") inText = false;
      else if (name === "rPh") phonetic--;
      else if (name === "si" && item) {
        strings.push(item.join(""));
        item = null;
      }
    },
    text(raw, cdata) {
      if (inText && item) item.push(cdata ? raw : decodeXmlText(raw));
    },
  };
}

/** A cell being read: its column, type attribute and the text of its `<v>` or inline string. */
type OpenCell = { column: number; type: string; value: string[] | null; inline: string[] | null };

/**
 * The worksheet's rows, held to the limits while reading: the declared dimension (optional, so not
 * trusted alone), each value's column, the number of rows and the characters of text kept.
 */
function sheetReader(sharedStrings: readonly string[]): { handler: XmlHandler; take(): SheetRow[] } {
  let rows: SheetRow[] = [];
  let inSheetData = false;
  let rowNumber = 0;
  let rowsSeen = 0;
  let cells: string[] | null = null;
  let nextColumn = 1;
  let cell: OpenCell | null = null;
  let capture: string[] | null = null;
  let inlinePhonetic = 0;
  let textKept = 0;

  const keep = (column: number, text: string) => {
    if (column > BULK_UPLOAD_MAX_COLUMNS) {
      throw fileProblem(400, columnBeyondLimitMessage(rowNumber, `${columnLetters(column)} (column ${count(column)})`));
    }
    textKept += text.length;
    if (textKept > BULK_UPLOAD_MAX_TEXT_CHARS) throw fileProblem(413, TEXT_LIMIT_MESSAGE);
    // Never longer than the column limit: the gaps before `column` are at most that many.
    while (cells!.length < column - 1) cells!.push("");
    cells![column - 1] = text;
  };

  const handler: XmlHandler = {
    open(name, attributes, selfClosing) {
      if (!inSheetData) {
        if (name === "dimension") checkDimension(attribute(attributes, "ref"));
        else if (name === "sheetData") inSheetData = !selfClosing;
        return;
      }
      switch (name) {
        case "row": {
          const declared = attribute(attributes, "r");
          rowNumber = declared === undefined ? rowNumber + 1 : Number(declared);
          rowsSeen++;
          if (!Number.isSafeInteger(rowNumber) || rowNumber < 1) throw new XmlFormatError(`row number '${declared}'`);
          if (rowNumber > BULK_UPLOAD_MAX_ROWS || rowsSeen > BULK_UPLOAD_MAX_ROWS) throw fileProblem(413, TOO_MANY_ROWS_MESSAGE);
          cells = [];
          nextColumn = 1;
          break;
        }
        case "c": {
          if (!cells) throw new XmlFormatError("a cell outside a row");
          const ref = attribute(attributes, "r");
          const column = ref === undefined ? nextColumn : columnOf(ref);
          nextColumn = column + 1;
          cell = { column, type: attribute(attributes, "t") ?? "n", value: null, inline: null };
          inlinePhonetic = 0;
          break;
        }
        case "v":
          if (cell && !selfClosing) capture = cell.value = [];
          break;
        case "is":
          if (cell) cell.inline = [];
          break;
        case "rPh":
          inlinePhonetic++;
          break;
        case "t":
          if (cell?.inline && inlinePhonetic === 0 && !selfClosing) capture = cell.inline;
          break;
      }
    },
    close(name) {
      if (!inSheetData) return;
      switch (name) {
        case "v":
        case "t":
          capture = null;
          break;
        case "rPh":
          inlinePhonetic--;
          break;
        case "c": {
          if (cell) {
            const text = cellText(cell, sharedStrings);
            // An empty cell (styled, or a formula without a cached value) is not kept anywhere.
            if (text !== "") keep(cell.column, text);
          }
          cell = null;
          capture = null;
          break;
        }
        case "row":
          if (cells && cells.length > 0) rows.push({ row: rowNumber, cells });
          cells = null;
          break;
        case "sheetData":
          // What follows (merged cells, hyperlinks, print settings) says nothing about the rows.
          return "stop";
      }
    },
    text(raw, cdata) {
      if (!capture) return;
      // Bounded by the part's unpacked size; the text kept is counted once the cell is complete.
      capture.push(cdata ? raw : decodeXmlText(raw));
    },
  };
  return {
    handler,
    /** The rows completed since the last call. */
    take() {
      const done = rows;
      rows = [];
      return done;
    },
  };
}

/** `<dimension ref="A1:XFD5000"/>`: the used range as the writer declares it. */
function checkDimension(ref: string | undefined) {
  const last = ref?.split(":").pop();
  const match = last ? /^\$?([A-Za-z]+)\$?([0-9]+)$/.exec(last) : null;
  if (!match) return;
  const columns = columnOf(match[1]!);
  if (columns > BULK_UPLOAD_MAX_COLUMNS) {
    throw fileProblem(400, `The workbook declares ${count(columns)} columns; a dictionary file has at most ${BULK_UPLOAD_MAX_COLUMNS}`);
  }
  const rows = Number(match[2]);
  if (rows > BULK_UPLOAD_MAX_ROWS) {
    throw fileProblem(413, `The workbook declares ${count(rows)} rows; a dictionary file has at most ${count(BULK_UPLOAD_MAX_ROWS)}`);
  }
}


/** A cell's text as a user typed or sees it: shared and inline strings, numbers, booleans, formula results. */
function cellText(cell: OpenCell, sharedStrings: readonly string[]): string {
  if (cell.type === "inlineStr") return (cell.inline ?? cell.value ?? []).join("");
  const value = (cell.value ?? []).join("");
  switch (cell.type) {
    case "s": {
      const index = Number(value);
      return Number.isSafeInteger(index) ? (sharedStrings[index] ?? "") : "";
    }
    case "b":
      return value === "" ? "" : String(Number(value) !== 0);
    case "n": {
      // As exceljs read it: "1.50" is 1.5; anything that is not a number stays as written.
      const number = Number(value);
      return value.trim() !== "" && Number.isFinite(number) ? String(number) : value;
    }
    default:
      // "str" (a formula's text result), "e" (an error such as #N/A), "d" (an ISO date).
      return value;
  }
}

/** Excel's last column, XFD. */
const EXCEL_MAX_COLUMN = 16_384;

/** "A" → 1, "XFD" → 16384, from a column name or a cell reference ("B7"). */
function columnOf(ref: string): number {
  let column = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20; // lower case
    if (c < 97 || c > 122) break;
    column = column * 26 + (c - 96);
    if (column > EXCEL_MAX_COLUMN) throw new XmlFormatError(`cell reference '${ref}' beyond column XFD`);
  }
  if (column === 0) throw new XmlFormatError(`cell reference '${ref}'`);
  return column;
}

function columnLetters(column: number): string {
  let letters = "";
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}
