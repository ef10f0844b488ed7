import ExcelJS from "exceljs";
import { EMPTY_FILE_MESSAGE, fileProblem, type SheetRow } from "./sheet-rows.ts";

/** The rows of the workbook's first worksheet, as text, numbered as Excel numbers them. */
export async function readXlsx(bytes: Uint8Array, fileName: string): Promise<SheetRow[]> {
  const workbook = new ExcelJS.Workbook();
  const notAWorkbook = fileProblem(400, `'${fileName}' is not a valid .xlsx workbook`);
  try {
    // exceljs types its argument as an ArrayBuffer-like; at run time it hands any bytes to JSZip.
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as Parameters<typeof workbook.xlsx.load>[0]);
  } catch {
    throw notAWorkbook;
  }
  // A zip that is not a workbook (a .docx renamed, say) loads without any worksheet.
  const sheet = workbook.worksheets[0];
  if (!sheet) throw notAWorkbook;
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: string[] = [];
    for (let i = 1; i <= row.cellCount; i++) cells.push(cellText(row.getCell(i).value));
    rows.push({ row: rowNumber, cells });
  });
  if (rows.length === 0) throw fileProblem(400, EMPTY_FILE_MESSAGE);
  return rows;
}

/** A cell's value as the text a user typed or sees (formulas by their result). */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return value.toISOString();
  if ("richText" in value) return value.richText.map((part) => part.text).join("");
  if ("hyperlink" in value) return typeof value.text === "string" ? value.text : cellText(value.text as ExcelJS.CellValue);
  if ("error" in value) return value.error;
  if ("result" in value) return cellText((value.result ?? null) as ExcelJS.CellValue);
  return "";
}
