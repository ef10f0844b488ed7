/**
 * The rows of an .xlsx workbook's worksheet (the first, or one named), read without trusting the file: a workbook is a
 * zip of XML parts, and a crafted one can unpack to gigabytes (a zip bomb) or declare a cell in
 * column XFD on every row. So, before unpacking anything, the zip's own directory is checked
 * (parts, declared sizes, compression ratio: zip-directory.ts); each part is unpacked with a cap
 * at its declared size; and while the worksheet is read, its declared dimension, every cell's
 * column, the row count and the text kept are held to the limits (XlsxLimits: a dictionary file's,
 * from contracts/dictionary.ts, by default; flat-file loads give their own).
 * Only the parts needed are unpacked (workbook, its relationships, shared strings, styles when
 * dates are wanted, the sheet),
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
import { SharedStrings } from "./shared-strings.ts";
import { isoOfSerial, readDateStyles, type DateStyles } from "./xlsx-dates.ts";
import { attribute, decodeXmlText, scanXml, XmlFormatError, XmlScanner, type XmlHandler, type XmlShortcut } from "./xml-scan.ts";
import { bytesSource, inflateEntry, inflateEntryStream, readZipDirectory, ZipFormatError, type ZipEntry, type ZipSource } from "./zip-directory.ts";

const MB = 1024 * 1024;
const count = (n: number) => n.toLocaleString("en-US");
const megabytes = (bytes: number) => {
  const mb = bytes / MB;
  return `${mb.toLocaleString("en-US", { maximumFractionDigits: mb < 100 ? 1 : 0 })} MB`;
};

/** What a reader holds a workbook to; `what` names the kind of file in messages ("a dictionary file"). */
export type XlsxLimits = {
  what: string;
  maxRows: number;
  maxColumns: number;
  /** All parts together, as the zip directory declares them. */
  maxUnpackedBytes: number;
  /** The shared strings are held in memory while the sheet is read: their part's unpacked size. */
  maxSharedStringsBytes: number;
  /** The text of the cells kept (a dictionary file's rows are all kept; a load's are handed on and not counted). */
  maxTextChars: number;
  /** One cell's text. */
  maxCellChars: number;
};

export const DICTIONARY_XLSX_LIMITS: XlsxLimits = {
  what: "a dictionary file",
  maxRows: BULK_UPLOAD_MAX_ROWS,
  maxColumns: BULK_UPLOAD_MAX_COLUMNS,
  maxUnpackedBytes: BULK_XLSX_MAX_UNPACKED_BYTES,
  maxSharedStringsBytes: BULK_XLSX_MAX_UNPACKED_BYTES,
  maxTextChars: BULK_UPLOAD_MAX_TEXT_CHARS,
  maxCellChars: BULK_UPLOAD_MAX_TEXT_CHARS,
};

export type XlsxReadOptions = {
  /** The worksheet by name (any case); empty or absent: the first in tab order. */
  worksheet?: string;
  /**
   * "display" (dictionary files): numbers as exceljs reads them ("1.50" is 1.5), booleans true/false.
   * "stored" (loads): numbers exactly as written, date-styled numbers as ISO dates, times or
   * datetimes (xl/styles.xml), booleans TRUE/FALSE as Excel shows them.
   */
  cells?: "display" | "stored";
  limits?: XlsxLimits;
  /** A dictionary file's: the first row of a workbook of several worksheets names them (SheetRow's worksheets). */
  nameWorksheets?: boolean;
};

export const UNPACKED_LIMIT_MESSAGE = unpackedLimitMessage(DICTIONARY_XLSX_LIMITS);
export const TEXT_LIMIT_MESSAGE = `The worksheet's cells hold more than ${megabytes(BULK_UPLOAD_MAX_TEXT_CHARS)} of text; a dictionary file holds far less`;

function unpackedLimitMessage(limits: XlsxLimits) {
  return `${limits.what} unpacks to at most ${megabytes(limits.maxUnpackedBytes)}`;
}

/** The first worksheet's rows (those with at least one value), numbered as Excel numbers them. */
export async function readXlsx(bytes: Uint8Array, fileName: string): Promise<SheetRow[]> {
  const rows: SheetRow[] = [];
  for await (const row of readXlsxRows(bytesSource(bytes), fileName)) rows.push(row);
  return rows;
}

/** The same rows as they are read, from a workbook on disk (or anywhere a ZipSource reads). `fileName` "" says "The file" in messages. */
export async function* readXlsxRows(source: ZipSource, fileName: string, options: XlsxReadOptions = {}): AsyncGenerator<SheetRow> {
  for await (const batch of readXlsxBatches(source, fileName, options)) yield* batch;
}

/** The same rows in batches, those each unpacked chunk of the sheet completes: a load's reader (flat-file/read-delimited.ts says why). */
export async function* readXlsxBatches(source: ZipSource, fileName: string, options: XlsxReadOptions = {}): AsyncGenerator<SheetRow[]> {
  const limits = options.limits ?? DICTIONARY_XLSX_LIMITS;
  const notAWorkbook = () => fileProblem(400, `${fileName ? `'${fileName}'` : "The file"} is not a valid .xlsx workbook`);
  try {
    const parts = checkParts(readZipDirectory(source), limits);
    const unpack = async (name: string) => {
      const entry = parts.get(name);
      return entry ? new TextDecoder().decode(await inflateEntry(source, entry)) : undefined;
    };

    // A zip that is not a workbook (a .docx renamed, say) has no xl/workbook.xml or no sheet in it.
    const workbookXml = await unpack("xl/workbook.xml");
    if (workbookXml === undefined) throw notAWorkbook();
    const relationships = await readRelationships((await unpack("xl/_rels/workbook.xml.rels")) ?? "");
    const workbook = await readWorkbook(workbookXml);
    const sheet = options.worksheet ? workbook.sheets.find((s) => s.name.toLowerCase() === options.worksheet!.toLowerCase()) : workbook.sheets[0];
    if (!sheet && options.worksheet && workbook.sheets.length > 0) {
      const names = workbook.sheets.map((s) => s.name).join(", ");
      throw fileProblem(400, `The workbook has no worksheet '${options.worksheet}': its worksheets are ${names}`);
    }
    const sheetPart = relationships.find((r) => r.id === sheet?.relationship)?.part;
    const sheetEntry = sheetPart === undefined ? undefined : parts.get(sheetPart);
    if (sheetEntry === undefined) throw notAWorkbook();
    const sharedStringsPart = relationships.find((r) => r.type.endsWith("/sharedStrings"))?.part ?? "xl/sharedStrings.xml";
    const sharedEntry = parts.get(sharedStringsPart);
    const sharedStrings = new SharedStrings();
    if (sharedEntry) {
      if (sharedEntry.uncompressedSize > limits.maxSharedStringsBytes) {
        throw fileProblem(
          413,
          `The workbook's shared strings unpack to ${megabytes(sharedEntry.uncompressedSize)}; ${limits.what} reads at most ${megabytes(limits.maxSharedStringsBytes)} of them: save the worksheet as CSV`,
        );
      }
      for await (const _ of scanPart(source, sharedEntry, sharedStringsReader(sharedStrings))) {
        // The strings are collected by the handler; nothing to hand on per chunk.
      }
    }
    let dates: DateStyles | undefined;
    if (options.cells === "stored") {
      const stylesPart = relationships.find((r) => r.type.endsWith("/styles"))?.part ?? "xl/styles.xml";
      dates = { kinds: await readDateStyles((await unpack(stylesPart)) ?? ""), date1904: workbook.date1904 };
    }

    const reader = sheetReader(sharedStrings, limits, dates);
    let any = false;
    // The first row of a workbook of several worksheets names them (SheetRow).
    const worksheets = options.nameWorksheets && workbook.sheets.length > 1 ? { read: sheet!.name, all: workbook.sheets.map((s) => s.name) } : undefined;
    const first = (rows: SheetRow[]) => (any || !worksheets ? rows : [{ ...rows[0]!, worksheets }, ...rows.slice(1)]);
    try {
      for await (const _ of scanPart(source, sheetEntry, reader.handler)) {
        const rows = reader.take();
        if (rows.length) {
          yield first(rows);
          any = true;
        }
      }
    } catch (err) {
      // A row that cannot be read (past a limit, malformed): the rows its chunk completed before it
      // are handed on first, as those of earlier chunks were, so that a load counts and checks them.
      const rows = reader.take();
      if (rows.length) yield rows;
      throw err;
    }
    const rows = reader.take();
    if (rows.length) {
      yield first(rows);
      any = true;
    }
    if (!any) {
      // A workbook of several worksheets is not empty: the one read is, and the user may have meant another.
      if (workbook.sheets.length < 2) throw fileProblem(400, EMPTY_FILE_MESSAGE);
      throw fileProblem(400, `The worksheet '${sheet!.name}' is empty: the workbook's worksheets are ${workbook.sheets.map((s) => s.name).join(", ")}`);
    }
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
function checkParts(entries: ZipEntry[], limits: XlsxLimits): Map<string, ZipEntry> {
  if (entries.length > BULK_XLSX_MAX_PARTS) {
    throw fileProblem(413, `The workbook holds ${count(entries.length)} parts; ${limits.what} has at most ${count(BULK_XLSX_MAX_PARTS)}`);
  }
  let total = 0;
  for (const entry of entries) {
    if (entry.uncompressedSize > limits.maxUnpackedBytes) {
      throw fileProblem(413, `The workbook's part '${entry.name}' unpacks to ${megabytes(entry.uncompressedSize)}; ${unpackedLimitMessage(limits)}`);
    }
    const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
    if (entry.uncompressedSize > BULK_XLSX_RATIO_CHECKED_ABOVE_BYTES && ratio > BULK_XLSX_MAX_COMPRESSION_RATIO) {
      throw fileProblem(
        413,
        `The workbook's part '${entry.name}' unpacks to ${count(Math.round(ratio))} times its packed size; ${limits.what} is never compressed more than ${BULK_XLSX_MAX_COMPRESSION_RATIO} to 1`,
      );
    }
    total += entry.uncompressedSize;
  }
  if (total > limits.maxUnpackedBytes) throw fileProblem(413, `The workbook unpacks to ${megabytes(total)}; ${unpackedLimitMessage(limits)}`);
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

type Workbook = { sheets: { name: string; relationship: string | undefined }[]; date1904: boolean };

/** xl/workbook.xml: the sheets in tab order (name, relationship id), and which date system the serial numbers count in. */
async function readWorkbook(xml: string): Promise<Workbook> {
  const workbook: Workbook = { sheets: [], date1904: false };
  await scanXml(xml, {
    open(name, attributes) {
      if (name === "workbookPr") workbook.date1904 = ["1", "true"].includes(attribute(attributes, "date1904") ?? "");
      else if (name === "sheet") workbook.sheets.push({ name: attribute(attributes, "name") ?? "", relationship: attribute(attributes, "id") });
    },
    close(name) {
      if (name === "sheets") return "stop";
    },
  });
  return workbook;
}

const PRESERVED_T = '<t xml:space="preserve">';

/** xl/sharedStrings.xml: each `<si>` as its text (rich text runs joined, phonetic hints left out), into `strings`. */
function sharedStringsReader(strings: SharedStrings): XmlHandler {
  let item: string[] | null = null;
  let inText = false;
  let phonetic = 0;
  /** Most items are `<si><t>text</t></si>`, the `<t>` perhaps with xml:space="preserve": read whole, as the open, text and close below would. */
  const plainItem: XmlShortcut = (xml, from, _attributes, selfClosing) => {
    if (selfClosing) return -1;
    const at = xml.startsWith("<t>", from) ? from + 3 : xml.startsWith(PRESERVED_T, from) ? from + PRESERVED_T.length : -1;
    if (at < 0) return -1;
    const end = xml.indexOf("</t></si>", at);
    if (end < 0) return -1;
    const raw = xml.slice(at, end);
    if (raw.includes("<")) return -1;
    strings.push(decodeXmlText(raw));
    return end + 9;
  };
  return {
    shortcuts: new Map([["si", plainItem]]),
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

/** A cell being read: its column, type and style attributes and the text of its `<v>` or inline string. */
type OpenCell = { column: number; type: string; style: number; value: string[] | null; inline: string[] | null };

/**
 * The worksheet's rows, held to the limits while reading: the declared dimension (optional, so not
 * trusted alone), each value's column, the number of rows and the characters of text kept.
 */
function sheetReader(sharedStrings: SharedStrings, limits: XlsxLimits, dates?: DateStyles): { handler: XmlHandler; take(): SheetRow[] } {
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
  let captured = 0;
  const textLimitMessage =
    limits === DICTIONARY_XLSX_LIMITS
      ? TEXT_LIMIT_MESSAGE
      : `The worksheet's cells hold more than ${megabytes(limits.maxTextChars)} of text; ${limits.what} holds far less`;

  const keep = (column: number, text: string) => {
    if (column > limits.maxColumns) {
      const where = `${columnLetters(column)} (column ${count(column)})`;
      throw fileProblem(
        400,
        limits === DICTIONARY_XLSX_LIMITS
          ? columnBeyondLimitMessage(rowNumber, where)
          : `Row ${count(rowNumber)} has a value in column ${where}; ${limits.what} has at most ${count(limits.maxColumns)} columns`,
      );
    }
    textKept += text.length;
    if (textKept > limits.maxTextChars) throw fileProblem(413, textLimitMessage);
    // Never longer than the column limit: the gaps before `column` are at most that many.
    while (cells!.length < column - 1) cells!.push("");
    cells![column - 1] = text;
  };

  const openRow = (attributes: string) => {
    const declared = attribute(attributes, "r");
    rowNumber = declared === undefined ? rowNumber + 1 : Number(declared);
    rowsSeen++;
    if (!Number.isSafeInteger(rowNumber) || rowNumber < 1) throw new XmlFormatError(`row number '${declared}'`);
    if (rowNumber > limits.maxRows || rowsSeen > limits.maxRows) throw fileProblem(413, tooManyRowsMessage(limits));
    cells = [];
    nextColumn = 1;
  };
  const closeRow = () => {
    if (cells && cells.length > 0) rows.push({ row: rowNumber, cells });
    cells = null;
  };
  const openCell = (attributes: string) => {
    if (!cells) throw new XmlFormatError("a cell outside a row");
    const ref = attribute(attributes, "r");
    const column = ref === undefined ? nextColumn : columnOf(ref);
    nextColumn = column + 1;
    const type = attribute(attributes, "t") ?? "n";
    // The style says whether a number is a date: asked only when dates are wanted and it is a number.
    const style = dates && type === "n" ? Number(attribute(attributes, "s") ?? 0) : 0;
    cell = { column, type, style, value: null, inline: null };
    inlinePhonetic = 0;
  };
  const closeCell = () => {
    if (cell) {
      const text =
        cell.type === "inlineStr"
          ? (cell.inline ?? cell.value ?? []).join("")
          : cell.value === null
            ? ""
            : valueText(cell.type, cell.style, cell.value.join(""));
      // An empty cell (styled, or a formula without a cached value: no <v>) is not kept anywhere.
      if (text !== "") keep(cell.column, text);
    }
    cell = null;
    capture = null;
  };
  const valueText = (type: string, style: number, value: string) =>
    dates ? storedValueText(type, style, value, sharedStrings, dates) : displayedValueText(type, value, sharedStrings);

  // The cells of the row being read whole (rowShortcut): kept here until its end is seen.
  const found: RegExpExecArray[] = [];
  /**
   * Most rows are all `<c r="B7" s="1" t="s"><v>value</v></c>` or `<c r="B7" s="1"/>`, attributes in
   * the order Excel writes them: such a row is read whole by one regular expression per cell, as the
   * open, text and close below would read it. Any other row (a formula, an inline string, an entity,
   * other attributes, a row cut by the chunk's end) is read element by element, `<c>` by `<c>`.
   */
  const rowShortcut: XmlShortcut = (xml, from, attributes, selfClosing) => {
    if (!inSheetData || cells || selfClosing) return -1;
    found.length = 0;
    let at = from;
    while (!xml.startsWith("</row>", at)) {
      PLAIN_CELL.lastIndex = at;
      const match = PLAIN_CELL.exec(xml);
      if (!match || (match[4] !== undefined && match[4].length > limits.maxCellChars)) return -1;
      found.push(match);
      at = PLAIN_CELL.lastIndex;
    }
    openRow(attributes);
    for (const [, letters, style, type = "n", value] of found) {
      const column = columnOf(letters!);
      nextColumn = column + 1;
      if (value === undefined) continue;
      const text = valueText(type, dates && type === "n" && style !== undefined ? Number(style) : 0, value);
      if (text !== "") keep(column, text);
    }
    found.length = 0;
    closeRow();
    return at + 6;
  };
  /** A cell `<c …><v>value</v></c>` or `<c …/>` in a row read element by element: read whole, as the open, text and close below would. */
  const cellShortcut: XmlShortcut = (xml, from, attributes, selfClosing) => {
    if (!inSheetData || !cells) return -1;
    if (selfClosing) {
      openCell(attributes);
      closeCell();
      return from;
    }
    if (!xml.startsWith("<v>", from)) return -1;
    const end = xml.indexOf("</v></c>", from + 3);
    if (end < 0) return -1;
    const value = xml.slice(from + 3, end);
    if (value.length > limits.maxCellChars || value.includes("<") || value.includes("&")) return -1;
    openCell(attributes);
    cell!.value = [value];
    closeCell();
    return end + 8;
  };

  const handler: XmlHandler = {
    shortcuts: new Map([
      ["row", rowShortcut],
      ["c", cellShortcut],
    ]),
    open(name, attributes, selfClosing) {
      if (!inSheetData) {
        if (name === "dimension") checkDimension(attribute(attributes, "ref"), limits);
        else if (name === "sheetData") inSheetData = !selfClosing;
        return;
      }
      switch (name) {
        case "row":
          openRow(attributes);
          break;
        case "c":
          openCell(attributes);
          break;
        case "v":
          if (cell && !selfClosing) capture = cell.value = [];
          captured = 0;
          break;
        case "is":
          if (cell) cell.inline = [];
          break;
        case "rPh":
          inlinePhonetic++;
          break;
        case "t":
          if (cell?.inline && inlinePhonetic === 0 && !selfClosing) capture = cell.inline;
          captured = 0;
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
        case "c":
          closeCell();
          break;
        case "row":
          closeRow();
          break;
        case "sheetData":
          // What follows (merged cells, hyperlinks, print settings) says nothing about the rows.
          return "stop";
      }
    },
    text(raw, cdata) {
      if (!capture) return;
      // The text kept is counted once the cell is complete; one cell's, as it comes.
      captured += raw.length;
      if (captured > limits.maxCellChars) throw fileProblem(413, `Row ${count(rowNumber)} has a cell of more than ${count(limits.maxCellChars)} characters`);
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

function tooManyRowsMessage(limits: XlsxLimits) {
  return limits === DICTIONARY_XLSX_LIMITS
    ? TOO_MANY_ROWS_MESSAGE
    : `The worksheet has more than ${count(limits.maxRows)} rows; ${limits.what} has at most ${count(limits.maxRows)}`;
}

/** `<dimension ref="A1:XFD5000"/>`: the used range as the writer declares it. */
function checkDimension(ref: string | undefined, limits: XlsxLimits) {
  const last = ref?.split(":").pop();
  const match = last ? /^\$?([A-Za-z]+)\$?([0-9]+)$/.exec(last) : null;
  if (!match) return;
  const columns = columnOf(match[1]!);
  if (columns > limits.maxColumns) {
    throw fileProblem(400, `The workbook declares ${count(columns)} columns; ${limits.what} has at most ${count(limits.maxColumns)}`);
  }
  const rows = Number(match[2]);
  if (rows > limits.maxRows) {
    throw fileProblem(413, `The workbook declares ${count(rows)} rows; ${limits.what} has at most ${count(limits.maxRows)}`);
  }
}

/**
 * A cell's `<v>` as a user typed or sees it: shared strings, numbers, booleans, formula results
 * (inline strings are their own text).
 */
function displayedValueText(type: string, value: string, sharedStrings: SharedStrings): string {
  switch (type) {
    case "s": {
      const index = Number(value);
      return Number.isSafeInteger(index) ? (sharedStrings.at(index) ?? "") : "";
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

/** A cell's `<v>` as it is stored: numbers as written, date-styled numbers as ISO text (xlsx-dates.ts). */
function storedValueText(type: string, style: number, value: string, sharedStrings: SharedStrings, dates: DateStyles): string {
  switch (type) {
    case "n": {
      const kind = dates.kinds[style];
      return kind ? (isoOfSerial(value, kind, dates.date1904) ?? value) : value;
    }
    case "b":
      return value === "" ? "" : Number(value) !== 0 ? "TRUE" : "FALSE";
    default:
      return displayedValueText(type, value, sharedStrings);
  }
}

/**
 * A plain cell as Excel writes it, from its `<c`: `r` (its column's letters, then its row), `s` and
 * `t` in that order, then `<v>` text without markup or entities, or nothing (`/>`). Sticky: it
 * matches at lastIndex or not at all.
 */
const PLAIN_CELL = /<c r="([A-Z]{1,3})[0-9]+"(?: s="([0-9]+)")?(?: t="([a-z]+)")?(?:\/>|><v>([^<&]*)<\/v><\/c>)/y;

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
