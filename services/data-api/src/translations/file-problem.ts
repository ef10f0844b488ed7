import { NOT_TEXT_MESSAGE, ZIP_NOT_TEXT_MESSAGE } from "../data-plane/flat-file/text-encoding.ts";

/**
 * A flat-file reader's refusal in the words of the translation pages, which have no flat-file
 * parameters to set: a client's file (a sample, a file to translate) is read as a workbook when its
 * name ends in .xlsx, else as delimited text; a map (`mapCsv`) is imported from CSV only.
 */
export function translationFileProblem(message: string, mapCsv = false): string {
  if (message === ZIP_NOT_TEXT_MESSAGE) {
    return mapCsv
      ? "The file is an .xlsx workbook (or a zip archive), not CSV: save the map as CSV (in Excel, CSV UTF-8), then import that file"
      : "The file is an .xlsx workbook (or a zip archive) whose name does not end in .xlsx: rename it to .xlsx to read its first worksheet, or save it as CSV";
  }
  if (message === NOT_TEXT_MESSAGE) {
    return mapCsv
      ? "The file is not text: it holds binary data. Import a CSV file with the header source_value,target_value"
      : "The file is not text: it holds binary data. Choose the client's file as .csv, .txt, .dta or .xlsx";
  }
  return message;
}
