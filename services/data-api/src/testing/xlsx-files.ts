/**
 * Hand-made .xlsx files for the tests, hostile ones included: a tiny zip writer (stored or
 * deflated entries, and a directory that may lie about an entry's size) and the few XML parts a
 * workbook needs. exceljs cannot write what these tests need (a cell in column XFD on every row,
 * a zip bomb) without building it in memory first.
 */
import zlib from "node:zlib";

export type ZipPart = {
  name: string;
  data: string | Uint8Array;
  /** Stored rather than deflated. */
  store?: boolean;
  /** The uncompressed size the directory declares, when it should lie. */
  declaredSize?: number;
};

/** A zip of `parts`, in order, with local headers, a central directory and its end record. */
export function zipOf(parts: readonly ZipPart[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const raw = typeof part.data === "string" ? Buffer.from(part.data, "utf8") : Buffer.from(part.data);
    const data = part.store ? raw : zlib.deflateRawSync(raw);
    const name = Buffer.from(part.name, "utf8");
    const method = part.store ? 0 : 8;
    const crc = crc32(raw);
    const size = part.declaredSize ?? raw.byteLength;

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.byteLength, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.byteLength, 26);
    locals.push(local, name, data);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.byteLength, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.byteLength, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);

    offset += local.byteLength + name.byteLength + data.byteLength;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.byteLength, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

let crcTable: Uint32Array | undefined;

function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/** A worksheet part: `<dimension>` when given, then `sheetData` (the rows' XML) as is. */
export function sheetXml(sheetData: string, dimension?: string): string {
  const declared = dimension ? `<dimension ref="${dimension}"/>` : "";
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN}" xmlns:r="${REL}">${declared}<sheetData>${sheetData}</sheetData></worksheet>`;
}

/** An inline-string cell. */
export const textCell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;

/** The parts of a one-sheet workbook around `sheet` (a worksheet part's XML), with shared strings when given. */
export function workbookParts(sheet: string | Omit<ZipPart, "name">, sharedStrings?: readonly string[]): ZipPart[] {
  const sheetPart: ZipPart = typeof sheet === "string" ? { name: "xl/worksheets/sheet1.xml", data: sheet } : { name: "xl/worksheets/sheet1.xml", ...sheet };
  const parts: ZipPart[] = [
    {
      name: "[Content_Types].xml",
      data: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`,
    },
    { name: "xl/workbook.xml", data: `<?xml version="1.0"?><workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Columns" sheetId="1" r:id="rId1"/></sheets></workbook>` },
    {
      name: "xl/_rels/workbook.xml.rels",
      data:
        `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    },
    sheetPart,
  ];
  if (sharedStrings) {
    const items = sharedStrings.map((s) => `<si><t>${s}</t></si>`).join("");
    parts.push({ name: "xl/sharedStrings.xml", data: `<?xml version="1.0"?><sst xmlns="${MAIN}" count="${sharedStrings.length}">${items}</sst>` });
  }
  return parts;
}
