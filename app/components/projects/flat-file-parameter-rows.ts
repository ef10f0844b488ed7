import type { FlatFileParameters } from "../../../contracts/projects";
import { DATE_ORDER_LABELS, DELIMITER_LABELS, ENCODING_LABELS, TEXT_QUALIFIER_LABELS } from "../../../contracts/values/flat-files";

/** How a workspace's flat files are read, as label and value pairs (the wizard's summary, the load page). */
export function flatFileParameterRows(p: FlatFileParameters): [string, string][] {
  const rows: [string, string][] = [
    ["File extension", p.extension],
    ["Delimiter", DELIMITER_LABELS[p.delimiter]],
    ["Header row", p.hasHeaderRow ? "Yes" : "No"],
  ];
  if (p.extension === ".xlsx") rows.push(["Worksheet", p.worksheet || "The first"]);
  else rows.push(["Text qualifier", TEXT_QUALIFIER_LABELS[p.textQualifier]], ["Encoding", ENCODING_LABELS[p.encoding]]);
  rows.push(["Date order", DATE_ORDER_LABELS[p.dateOrder]]);
  if (p.delimiter === "FixedLength") {
    const saved = Object.entries(p.columnWidths);
    rows.push(["Column widths", saved.length ? saved.map(([table, widths]) => `${table}: ${widths.join(", ")}`).join("; ") : "From the data dictionary"]);
  }
  return rows;
}
