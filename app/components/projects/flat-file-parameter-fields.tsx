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
} from "../../../contracts/values/flat-files";
import { useLocation } from "react-router";
import { CheckboxField, SelectField, TextField } from "~/components/forms/fields";
import { Pagination } from "~/components/ui/pagination";
import { companyHref } from "~/lib/company-href";
import type { FieldMetadata } from "~/lib/forms";
import { pagingParams, type PagingKeys } from "~/lib/list-search";

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
 * The page and page size of the column widths' tables (the load page's URL, beside its table search):
 * a link pages them, a GET form sizes them, and the form stays open.
 */
export const WIDTHS_PAGING_KEYS: PagingKeys = { page: "widthsPage", pageSize: "widthsPageSize" };

/** The widths' tables a page holds unless the user chose another size: a form of a dictionary's thousands of tables is not usable. */
export const WIDTHS_PER_PAGE = 10;

/** Which tables the widths' fields are for: a page of them, and the search that narrows them (beside the Table list). */
function widthsNote({ total, pageSize }: ColumnWidthsResponse, search: string): string {
  if (total === 0) return search ? `No table's name contains “${search}”.` : "The data dictionary has no tables.";
  const which = search ? ` whose name contains “${search}”` : "";
  return `The tables${which}, ${pageSize} at a time (the “Find a table” search narrows them). Save keeps the widths saved for the others.`;
}

/**
 * How a workspace's flat files are read: one field per parameter (the wizard's databases step, the
 * load page). Pages work without JavaScript, so no field hides as another changes: the worksheet
 * says it is for .xlsx files; the column widths, one field per table, show once Fixed Length is saved
 * (`widths`: a page of the tables, when the page has them; the form posts those only).
 */
export function FlatFileParameterFields({
  fields,
  delimiterSaved,
  widths,
}: {
  fields: Record<string, FieldMetadata>;
  delimiterSaved: FlatFileParameters["delimiter"] | undefined;
  widths?: { page: ColumnWidthsResponse; search: string };
}) {
  const tableWidths = fields.columnWidths!.getFieldset();
  const location = useLocation();
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
          <p className="mt-1 text-sm text-muted-foreground">{widthsNote(widths.page, widths.search)}</p>
          <div className="mt-3 grid gap-4 sm:grid-cols-2">
            {widths.page.items.map((t) => (
              <TextField
                key={t.name}
                label={`${t.name} column widths`}
                field={tableWidths[t.name]!}
                inputMode="numeric"
                description={`${t.columns.join(", ")}. Default: ${t.defaultWidths.join(", ")}.`}
              />
            ))}
          </div>
          {widths.page.total > widths.page.pageSize ? (
            <Pagination
              page={widths.page.page}
              pageSize={widths.page.pageSize}
              total={widths.page.total}
              noun={["table", "tables"]}
              href={(page) =>
                companyHref(
                  `${location.pathname}${location.search}`,
                  null,
                  pagingParams(WIDTHS_PAGING_KEYS, { page, pageSize: widths.page.pageSize }, WIDTHS_PER_PAGE),
                )
              }
            />
          ) : null}
        </fieldset>
      ) : (
        <p className="text-sm text-muted-foreground sm:col-span-2">
          Fixed Length files are cut by each table&apos;s column widths: from the data dictionary, editable on the load page once Fixed Length is saved.
        </p>
      )}
    </>
  );
}
