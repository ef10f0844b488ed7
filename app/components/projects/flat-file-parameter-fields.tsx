import type { ColumnWidthsResponse, FlatFileParameters } from "../../../contracts/projects";
import {
  DATE_ORDER_LABELS,
  DATE_ORDERS,
  DEFAULT_FLAT_FILE_PARAMETERS,
  DELIMITER_LABELS,
  DELIMITERS,
  ENCODING_LABELS,
  ENCODINGS,
  FLAT_FILE_EXTENSIONS,
  TEXT_QUALIFIER_LABELS,
  TEXT_QUALIFIERS,
  WORKSHEET_NAME_MAX,
} from "../../../contracts/values/projects";
import { CheckboxField, SelectField, TextField } from "~/components/forms/fields";
import type { FieldMetadata } from "~/lib/forms";

/** A form's starting values for saved parameters (or the defaults), widths as the comma-separated text the fields hold. */
export function flatFileParameterDefaults(saved: FlatFileParameters | null) {
  const p = saved ?? DEFAULT_FLAT_FILE_PARAMETERS;
  return {
    extension: p.extension,
    delimiter: p.delimiter,
    hasHeaderRow: p.hasHeaderRow,
    textQualifier: p.textQualifier,
    encoding: p.encoding,
    dateOrder: p.dateOrder,
    worksheet: p.worksheet,
    columnWidths: Object.fromEntries(Object.entries(p.columnWidths as Record<string, number[]>).map(([table, widths]) => [table, widths.join(", ")])),
  };
}

/**
 * How a workspace's flat files are read: one field per parameter (the wizard's databases step, the
 * load page). Pages work without JavaScript, so no field hides as another changes: the worksheet
 * says it is for .xlsx files; the column widths, one field per table, show once Fixed Length is saved
 * (`widths`: the tables, when the page has them).
 */
export function FlatFileParameterFields({
  fields,
  delimiterSaved,
  widths,
}: {
  fields: Record<string, FieldMetadata>;
  delimiterSaved: FlatFileParameters["delimiter"] | undefined;
  widths?: ColumnWidthsResponse["tables"];
}) {
  const tableWidths = fields.columnWidths!.getFieldset();
  return (
    <>
      <SelectField label="File extension" field={fields.extension!} options={FLAT_FILE_EXTENSIONS.map((e) => ({ value: e, label: e }))} />
      <SelectField
        label="Delimiter"
        field={fields.delimiter!}
        options={DELIMITERS.map((d) => ({ value: d, label: DELIMITER_LABELS[d] }))}
        description="Excel goes with .xlsx files, and only with them."
      />
      <SelectField label="Text qualifier" field={fields.textQualifier!} options={TEXT_QUALIFIERS.map((q) => ({ value: q, label: TEXT_QUALIFIER_LABELS[q] }))} />
      <SelectField
        label="Encoding"
        field={fields.encoding!}
        options={ENCODINGS.map((e) => ({ value: e, label: ENCODING_LABELS[e] }))}
        description="Auto detect reads a byte-order mark, else the content: UTF-16, UTF-8 or Windows-1252."
      />
      <SelectField
        label="Date order"
        field={fields.dateOrder!}
        options={DATE_ORDERS.map((o) => ({ value: o, label: DATE_ORDER_LABELS[o] }))}
        description="How the files write dates. yyyy-mm-dd is read in every order."
      />
      <TextField
        label="Worksheet"
        field={fields.worksheet!}
        maxLength={WORKSHEET_NAME_MAX}
        description="For .xlsx files: the worksheet to load, by name. Empty: the first."
      />
      <CheckboxField label="Header row" field={fields.hasHeaderRow!} description="The first row of each file names the columns." className="self-center" />
      {delimiterSaved === "FixedLength" && widths ? (
        <fieldset className="sm:col-span-2">
          <legend className="text-sm font-medium">Column widths</legend>
          <p className="mt-1 text-sm text-muted-foreground">
            In characters, comma-separated, one per column in the table&apos;s order. Empty: the data dictionary&apos;s widths (shown in each field&apos;s
            description).
          </p>
          <div className="mt-3 grid gap-4 sm:grid-cols-2">
            {widths.map((t) => (
              <TextField
                key={t.name}
                label={`${t.name} column widths`}
                field={tableWidths[t.name]!}
                inputMode="numeric"
                description={`${t.columns.join(", ")}. Default: ${t.defaultWidths.join(", ")}.`}
              />
            ))}
          </div>
        </fieldset>
      ) : (
        <p className="text-sm text-muted-foreground sm:col-span-2">
          Fixed Length files are cut by each table&apos;s column widths: from the data dictionary, editable on the load page once Fixed Length is saved.
        </p>
      )}
    </>
  );
}
